"""DL803 missing-revision — (online, opt-in) the model hub has no such repository/revision.

Each approved head and checkpoint names a model-hub repository and a pinned revision. With
``drafterlint audit --online`` each pair is asked of the hub's API
(``GET {hub}/api/models/{org}/{name}/revision/{revision}``); a 404 means the repository or the
revision does not exist there (a typo, a force-pushed branch, a deleted repository), and no
submitter can download it. Answers are cached for a day.

When the hub cannot be reached, answers 5xx/429 beyond the retries, or refuses (401/403: gated or
private), nothing is reported as missing: the audit says which pairs it could not check.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.checks._examples import POLICIES, catalog_start, head_entry
from drafterlint.checks.base import ONLINE, REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity

if TYPE_CHECKING:
    from drafterlint.hub import Answer
    from drafterlint.registry.model import Checkpoint, Head

RULE = Rule(
    code="DL803",
    name="missing-revision",
    severity=Severity.ERROR,
    summary="the model hub has no such repository/revision (audit --online)",
    needs=frozenset({REGISTRY, ONLINE}),
)
ADVICE = "replace the revision with one the model hub has, or remove the entry"

_P = "registry:" + POLICIES + "2026-11-C1/"


def _cat(revision: str) -> str:
    return catalog_start("2026-11-C1") + head_entry(revision=revision)


_HUB = "orga/m1-eagle@1111111111111111111111111111111111111111 exists\n" \
       "orga/m1-eagle@9999999999999999999999999999999999999999 missing\n"

EXAMPLES = (
    Example("the hub has the revision",
            {_P + "catalog.yaml": _cat("1" * 40), "hub:answers": _HUB}),
    Example("the hub has no such revision",
            {_P + "catalog.yaml": _cat("9" * 40), "hub:answers": _HUB},
            expect=((_P + "catalog.yaml", 7, 17),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    from drafterlint.hub import MISSING, UNKNOWN

    hub = ctx.hub
    entries: list[tuple[str, Head | Checkpoint]] = []
    for policy in reversed(list(ctx.loaded_registry.policies.values())):  # newest first
        entries += [("head", h) for h in policy.heads]
        entries += [("checkpoint", c) for c in policy.checkpoints]
    asked: dict[tuple[str | None, str | None], Answer] = {}
    reported: set[tuple] = set()
    unknown: dict[str, list[str]] = {}
    for kind, entry in entries:
        pair = (entry.repository, entry.revision)
        if not entry.repository or not entry.revision:
            continue  # DL701 reports the missing field
        if pair not in asked:
            asked[pair] = hub.revision(*pair)
        answer = asked[pair]
        if answer.state == UNKNOWN:
            unknown.setdefault(answer.detail or "no answer", [])
            if f"{pair[0]}@{pair[1]}" not in unknown[answer.detail or "no answer"]:
                unknown[answer.detail or "no answer"].append(f"{pair[0]}@{pair[1]}")
            continue
        if answer.state != MISSING or (kind, pair) in reported:
            continue
        reported.add((kind, pair))
        yield RULE.at(
            entry.field_location("revision"),
            f"the model hub has no {entry.repository} at revision {entry.revision} "
            f"({kind} of {entry.model}; the hub answered {answer.detail}); pin a revision that "
            "exists, or check the repository id",
            key=f"{kind}:{entry.repository}@{entry.revision}",
        )
    for detail, pairs in unknown.items():
        ctx.skip(RULE.code, f"could not check {len(pairs)} repository revision(s) on the model hub: {detail}",
                 need=ONLINE)
