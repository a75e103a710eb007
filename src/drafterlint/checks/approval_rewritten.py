"""DL305 approval-rewritten — one head carries different approved_cohort values across policies.

Approval is recorded once, against the cohort in which the updated list was published. A later
policy folder that lists the same head (model, repository, revision) with another
approved_cohort rewrites history: it can make a head usable earlier than the lead time allows.
The finding is at the approved_cohort of the later folder; related points at the earlier one.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, head_catalog
from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL305",
    name="approval-rewritten",
    severity=Severity.ERROR,
    summary="one head carries different approved_cohort values across policy versions",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY}),
)

_P = "registry:" + POLICIES


EXAMPLES = (
    Example(
        "the same approved_cohort in both folders",
        {
            _P + "2026-10-C0/catalog.yaml": head_catalog("2026-10-C0", "2026-09-C0"),
            _P + "2026-10-C1/catalog.yaml": head_catalog("2026-10-C1", "2026-09-C0"),
        },
    ),
    Example(
        "the later folder moves the approval earlier",
        {
            _P + "2026-10-C0/catalog.yaml": head_catalog("2026-10-C0", "2026-09-C0"),
            _P + "2026-10-C1/catalog.yaml": head_catalog("2026-10-C1", "2026-08-C1"),
        },
        expect=((_P + "2026-10-C1/catalog.yaml", 8, 24),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    first: dict = {}  # identity -> head (the earliest folder's)
    for policy in reg.policies.values():  # oldest cohort first
        for head in policy.heads:
            if None in head.identity or head.approved_cohort is None:
                continue
            prev = first.get(head.identity)
            if prev is None:
                first[head.identity] = head
                continue
            if prev.approved_cohort != head.approved_cohort and prev.doc is not head.doc:
                prev_folder = prev.doc.path.rsplit("/", 2)[-2]
                yield RULE.at(
                    head.field_location("approved_cohort"),
                    f"{head.describe()} is approved in {head.approved_cohort} here but in "
                    f"{prev.approved_cohort} in policy {prev_folder}; an approval is recorded "
                    "once — keep the original cohort",
                    suggestion=f"approved_cohort: {prev.approved_cohort}",
                    related=(prev.field_location("approved_cohort"),),
                    key=f"{'/'.join(map(str, head.identity))}:{head.approved_cohort}",
                )
