"""DL304 duplicate-key — a YAML mapping repeats a key.

YAML loaders keep the last value of a repeated key and say nothing, so the first one is
silently ignored: a reviewer reads one approved_cohort, the validator uses another. The finding
is at the repeated key and names both lines; related points at the first.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, catalog_start, head_entry
from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.findings import Finding, Location, Severity, quoted

RULE = Rule(
    code="DL304",
    name="duplicate-key",
    severity=Severity.ERROR,
    summary="a YAML mapping repeats a key (YAML loaders silently keep the last)",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY}),
)

_CAT = "registry:" + POLICIES + "2026-10-C1/catalog.yaml"
_START = catalog_start("2026-10-C1")
_HEAD = head_entry()
_TAIL = "  approved_checkpoints: {}\n"
EXAMPLES = (
    Example("every key once", {_CAT: _START + _HEAD + _TAIL}),
    Example(
        "revision repeated inside one head",
        {_CAT: _START + _HEAD + "      revision: 3333333333333333333333333333333333333333\n" + _TAIL},
        expect=((_CAT, 10, 7),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    for doc in reg.docs():
        seen = set()
        for dup in doc.duplicates:
            if (dup.first, dup.second) in seen:
                continue  # the same mapping reached again through an alias
            seen.add((dup.first, dup.second))
            key = dup.path[-1]
            where = ".".join(str(p) for p in dup.path[:-1]) or "the top level"
            yield RULE.at(
                Location(doc.repo, doc.path, dup.second[0], dup.second[1]),
                f"key {quoted(key)} is repeated in {where}: first at line {dup.first[0]} column "
                f"{dup.first[1]}, again at line {dup.second[0]} column {dup.second[1]}; "
                "YAML keeps only the last one — remove one",
                related=(Location(doc.repo, doc.path, dup.first[0], dup.first[1]),),
                key=f"{'/'.join(map(str, dup.path))}",
            )
