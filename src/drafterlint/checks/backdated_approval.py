"""DL403 backdated-approval — a head's approved_cohort is earlier than git history allows.

Approval is recorded against the cohort in which the updated list is published. The list is
published when the commit that adds the head lands on the reference repository's default
branch; the first publication on or after that commit's date (the companion's §4.2 calendar) is
the cohort the head was really approved in. An ``approved_cohort`` earlier than that cohort
backdates the approval and lets submissions use the drafter before the lead time has passed.

Audit only: needs the git history of the policy catalogs (``drafterlint audit``). For each head
the report names the commit that first listed it (short sha and date), the cohort that commit
falls to, the approved_cohort, and the earliest legal target cohort (commit cohort + the lead
time the rules state). A head already present in the oldest commit of a shallow or truncated
history is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, head_catalog, lead_points
from drafterlint.checks.base import HISTORY, REGISTRY, Context, Example, Rule
from drafterlint.cohorts import Cohort
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL403",
    name="backdated-approval",
    severity=Severity.ERROR,
    summary="approved_cohort is earlier than the cohort in which git history shows it published",
    needs=frozenset({REGISTRY, HISTORY}),
)
ADVICE = (
    "correct approved_cohort to the cohort it was published in, "
    "and check whether submissions relied on the earlier cohort"
)

_P = POLICIES + "2026-11-C1/"
_POINTS = lead_points("2026-11-C1")
_EMPTY = "version: 2026-11-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads: []\n"
_CAT = head_catalog("2026-11-C1", "2026-09-C1", checkpoints=False)


def _example(day: str) -> dict:
    return {
        f"registry@2026-08-01:{_P}catalog.yaml": _EMPTY,
        f"registry@2026-08-01:{_P}point_checks.yaml": _POINTS,
        f"registry@{day}:{_P}catalog.yaml": _CAT,
        f"registry:{_P}catalog.yaml": _CAT,
        f"registry:{_P}point_checks.yaml": _POINTS,
    }


EXAMPLES = (
    Example("listed in the cohort it names", _example("2026-09-10")),
    Example("listed after its approved cohort was published", _example("2026-10-05"),
            expect=(("registry:" + _P + "catalog.yaml", 8, 24),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    from drafterlint.checks._stated import lead_time
    from drafterlint.registry.model import latest_heads

    hist = ctx.git_history
    calendar = ctx.facts.publication_calendar
    for head, policy in latest_heads(ctx.loaded_registry):
        approved = head.cohort
        if approved is None:
            continue  # malformed or absent: DL404 / DL701
        commit = hist.head_first_seen(head.identity)
        if commit is None:
            continue  # undated (shallow or truncated history) or not in history
        published = Cohort.for_date(commit.day, calendar)
        if approved >= published:
            continue
        lead, where = lead_time(ctx.facts, policy)
        earliest = f"; the earliest legal target cohort is {published + lead} ({published} + {lead})" \
            if lead is not None else ""
        yield RULE.at(
            head.field_location("approved_cohort"),
            f"{head.describe()} says approved_cohort {approved}, but it was first listed by commit "
            f"{commit.short} on {commit.day.isoformat()}, which is published in {published} "
            f"({published.publication_date(calendar).isoformat()}){earliest}; set approved_cohort "
            f"to {published}",
            suggestion=f"approved_cohort: {published}",
            related=(where,) if where else (),
            key="/".join(str(x) for x in head.identity),
        )
