"""DL501 unrecognized-native-head — a bundled head is not shipped by an approved checkpoint.

A head marked ``bundled: true`` claims to be native: shipped inside a checkpoint approved for
the benchmark, and approved with it. Its repository and revision must therefore be one of the
model's ``approved_checkpoints`` in the same policy. Otherwise the claim names a checkpoint
nobody approved (a typo in the revision, a checkpoint dropped from the list, the wrong model).

The requirement is the rules text's (§2.9.4: a head the publisher ships inside an approved
checkpoint is approved with that checkpoint): a version of the rules that has no native heads
skips the rule with one line.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, catalog_start, head_entry
from drafterlint.checks._facts import unstated_native_heads
from drafterlint.checks.base import REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL501",
    name="unrecognized-native-head",
    severity=Severity.ERROR,
    summary="a bundled head is not shipped by an approved checkpoint of that benchmark",
    needs=frozenset({REGISTRY}),
)
ADVICE = "approve the checkpoint revision that ships the head, or remove the bundled head"

_CAT = "registry:" + POLICIES + "2026-10-C1/catalog.yaml"


def _cat(revision: str) -> str:
    return (
        catalog_start("2026-10-C1") + head_entry(repository="orga/m1", revision=revision, method="mtp")
        + "      bundled: true\n"
        "  approved_checkpoints:\n    m1:\n      - repository: orga/m1\n"
        "        revision: 2222222222222222222222222222222222222222\n"
    )


EXAMPLES = (
    Example("the head's checkpoint is approved", {_CAT: _cat("2" * 40)}),
    Example(
        "the head's revision is not an approved checkpoint",
        {_CAT: _cat("4" * 40)},
        expect=((_CAT, 7, 17),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    unstated = unstated_native_heads(ctx.facts)
    if unstated is not None:
        ctx.skip(RULE.code, unstated)
        return
    reg = ctx.loaded_registry
    for policy in reg.policies.values():
        for head in policy.heads:
            if not head.bundled or head.repository is None or head.revision is None:
                continue
            mine = policy.checkpoints_of(head.model)
            if any(c.repository == head.repository and c.revision == head.revision for c in mine):
                continue
            same_repo = [c for c in mine if c.repository == head.repository]
            if same_repo:
                revs = ", ".join(c.revision or "?" for c in same_repo)
                yield RULE.at(
                    head.field_location("revision"),
                    f"bundled head {head.describe()}: revision {head.revision} is not an "
                    f"approved checkpoint of {head.model} (approved revisions of "
                    f"{head.repository}: {revs}); a native head is approved only with its "
                    "checkpoint",
                    suggestion=f"revision: {same_repo[0].revision}" if len(same_repo) == 1 else None,
                    related=tuple(c.location for c in same_repo),
                    key=f"{policy.folder}:{'/'.join(map(str, head.identity))}",
                )
            else:
                other = [
                    c.model for c in policy.checkpoints
                    if c.repository == head.repository and c.revision == head.revision
                ]
                extra = (
                    f"; that checkpoint is approved for {', '.join(sorted(set(other)))}, not "
                    f"{head.model}" if other else ""
                )
                yield RULE.at(
                    head.field_location("repository"),
                    f"bundled head {head.describe()}: {head.repository} is not an approved "
                    f"checkpoint of {head.model}{extra}; approve the checkpoint, or list the "
                    "head on its own (without `bundled: true`)",
                    key=f"{policy.folder}:{'/'.join(map(str, head.identity))}",
                )
