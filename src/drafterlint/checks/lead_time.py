"""DL401 lead-time — a head is listed in a policy earlier than its approval allows.

A drafter approved in cohort A may be used by submissions targeting cohort T only when
T >= A + lead (the lead time in cohorts, stated by the rules and by the policy's
``spec-decode-head-approval-lead-time.minimum_cohorts``). Policy folder P applies to submissions
targeting P, so a head in folder P needs approved_cohort + lead <= P. Without a stated lead time
the rule says nothing (it never assumes one): a version of the rules that states none (or defines
no approved-drafter list) skips it with one line, whatever the policy says.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, head_catalog, lead_points
from drafterlint.checks._facts import unstated_requirement
from drafterlint.checks._stated import lead_time
from drafterlint.checks.base import REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL401",
    name="lead-time",
    severity=Severity.ERROR,
    summary="a head is listed in a policy whose cohort is earlier than approved_cohort + lead",
    needs=frozenset({REGISTRY}),
)
ADVICE = (
    "take the head out of this policy until its first eligible cohort, "
    "or correct its approved_cohort if the approval was earlier"
)

_P = "registry:" + POLICIES + "2026-10-C1/"
_POINTS = lead_points("2026-10-C1")


def _cat(approved: str) -> str:
    return head_catalog("2026-10-C1", approved)


EXAMPLES = (
    Example(
        "approved two cohorts before the folder",
        {_P + "catalog.yaml": _cat("2026-09-C1"), _P + "point_checks.yaml": _POINTS},
    ),
    Example(
        "approved in the folder's own cohort",
        {_P + "catalog.yaml": _cat("2026-10-C1"), _P + "point_checks.yaml": _POINTS},
        expect=((_P + "catalog.yaml", 8, 24),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    unstated = unstated_requirement(ctx.facts)
    if unstated is not None:
        ctx.skip(RULE.code, unstated)
        return
    for cohort, policy in ctx.loaded_registry.cohort_policies():
        lead, where = lead_time(ctx.facts, policy)
        if lead is None:
            continue
        for head in policy.heads:
            approved = head.cohort
            if approved is None:
                continue  # malformed: DL404
            usable = approved + lead
            if usable > cohort:
                stated = f" (lead time {lead} cohorts, {where})" if where else f" (lead time {lead} cohorts)"
                yield RULE.at(
                    head.field_location("approved_cohort"),
                    f"{head.describe()} is approved in {approved}, so it may be used from "
                    f"{usable}{stated}, but it is listed in the {cohort} policy; list it from "
                    f"the {usable} policy on",
                    related=(where,) if where else (),
                    key=f"{policy.folder}:{'/'.join(map(str, head.identity))}",
                )
