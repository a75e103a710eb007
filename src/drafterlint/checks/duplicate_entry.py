"""DL303 duplicate-entry — one head or checkpoint appears twice in one catalog.

A head is identified by its model, repository and revision; a checkpoint by its model,
repository and revision. Listing one twice is at best noise and at worst hides an edit that
was meant for the other copy (a changed approved_cohort, a changed method). The finding is at
the second entry, and points back at the first.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, catalog_start, head_entry
from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL303",
    name="duplicate-entry",
    severity=Severity.ERROR,
    summary="one head or checkpoint appears twice in one registry file",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY}),
)

_CAT = "registry:" + POLICIES + "2026-10-C1/catalog.yaml"
_START = catalog_start("2026-10-C1")
_HEAD = head_entry()
_TAIL = """\
  approved_checkpoints:
    m1:
      - repository: orgb/m1
        revision: 2222222222222222222222222222222222222222
"""
EXAMPLES = (
    Example(
        "each head and checkpoint once",
        {_CAT: _START + _HEAD + _TAIL},
    ),
    Example(
        "the same head twice",
        {_CAT: _START + _HEAD + _HEAD + _TAIL},
        expect=((_CAT, 10, 7),),
    ),
    Example(
        "the same checkpoint twice",
        {_CAT: _START + _HEAD + _TAIL + "      - repository: orgb/m1\n"
         "        revision: 2222222222222222222222222222222222222222\n"},
        expect=((_CAT, 14, 9),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    for policy in reg.policies.values():
        for kind, items in (("head", policy.heads), ("checkpoint", policy.checkpoints)):
            first: dict = {}
            for item in items:
                ident = item.identity
                if None in ident[1:]:
                    continue  # incomplete entries are DL701's business
                if ident in first:
                    prev = first[ident]
                    yield RULE.at(
                        item.location,
                        f"{kind} {ident[0]}: {ident[1]}@{ident[2]} is listed twice "
                        f"(first at line {ctx.said_line(prev.location)}); remove one copy",
                        related=(prev.location,),
                        key=f"{policy.folder}:{kind}:{'/'.join(map(str, ident))}",
                    )
                else:
                    first[ident] = item
