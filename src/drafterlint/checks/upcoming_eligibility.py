"""DL802 upcoming-eligibility — (info) a head becomes usable within the next cohorts.

A head approved in cohort A may be used by submissions targeting cohort A + lead (the lead time
the rules state, or the policy's ``minimum_cohorts``). The audit lists the heads whose first
eligible cohort is one of the next ``horizon`` publications (option; four by default) after the
audit date's cohort (the first publication on or after ``--today``), so task-force leads see what submitters will be able to use
soon. Heads already usable, or usable later than that, are not listed. Without a stated lead time
the rule says nothing.

Audit only: needs a date (``drafterlint audit --today YYYY-MM-DD``).
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._eligibility import HORIZON
from drafterlint.checks._examples import POLICIES, head_catalog, lead_points
from drafterlint.checks._facts import unstated_requirement
from drafterlint.checks._options import Option
from drafterlint.checks.base import REGISTRY, TODAY, Context, Example, Rule
from drafterlint.cohorts import Cohort
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL802",
    name="upcoming-eligibility",
    severity=Severity.INFO,
    summary="a head becomes usable within the next cohorts",
    needs=frozenset({REGISTRY, TODAY}),
)

OPTIONS = (
    # How many publications ahead of the audit date a head's eligibility is announced (also the
    # audit report's timeline).
    Option(RULE.code, "horizon", {"type": "integer", "minimum": 1, "maximum": 48}, default=4,
           description="how many publications ahead of the audit date eligibility is announced",
           fills=HORIZON),
)

_P = "registry:" + POLICIES + "2027-01-C0/"
_POINTS = lead_points("2027-01-C0")


def _cat(approved: str) -> str:
    return head_catalog("2027-01-C0", approved, checkpoints=False)


EXAMPLES = (
    Example("already usable", {_P + "catalog.yaml": _cat("2026-09-C1"), _P + "point_checks.yaml": _POINTS}),
    Example("usable from the next cohort",
            {_P + "catalog.yaml": _cat("2026-11-C1"), _P + "point_checks.yaml": _POINTS},
            expect=((_P + "catalog.yaml", 8, 24),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    unstated = unstated_requirement(ctx.facts)
    if unstated is not None:  # no lead time: no head becomes usable later than approved
        ctx.skip(RULE.code, unstated)
        return
    calendar = ctx.facts.publication_calendar
    today = ctx.judged_on
    now = Cohort.for_date(today, calendar)
    last = now + ctx.eligibility.horizon
    for e in ctx.eligibility.heads:
        head, approved, usable = e.head, e.approved, e.usable
        if not (now < usable <= last):
            continue
        ahead = usable - now
        yield RULE.at(
            head.field_location("approved_cohort"),
            f"{head.describe()} (approved {approved}) becomes usable by submissions targeting "
            f"{usable}, published {usable.publication_date(calendar).isoformat()} — "
            f"{ahead} cohort{'' if ahead == 1 else 's'} after {now}, the cohort of "
            f"{today.isoformat()}",
            key=f"{'/'.join(str(x) for x in head.identity)}@{usable}",
        )
