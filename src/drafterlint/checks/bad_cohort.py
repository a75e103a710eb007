"""DL404 bad-cohort — a cohort id is malformed or impossible.

Cohort ids are ``YYYY-MM-C<i>``, the i-th publication of the month, counted from 0 in the
publication calendar the submission rules' §4.2 states (today two a month: ``C0`` and ``C1``;
without the rules at hand, that calendar). ``2026-13-C0`` (no month 13), ``2026-10-C2`` (no
third publication under today's calendar) and ``Oct-2026`` are reported wherever a cohort is
written: a head's approved_cohort, a policy file's version, and the policy folder's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.checks._examples import POLICIES, head_catalog
from drafterlint.checks.base import REGISTRY, Context, Example, Part, Rule
from drafterlint.cohorts import Calendar, Cohort
from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:
    from drafterlint.registry.model import Registry

RULE = Rule(
    code="DL404",
    name="bad-cohort",
    severity=Severity.ERROR,
    summary="a cohort id is malformed or impossible",
    needs=frozenset({REGISTRY}),
    reads=frozenset({Part.REGISTRY}),
)
ADVICE = "correct the cohort id to one the calendar has"

_CAT = "registry:" + POLICIES + "2026-10-C1/catalog.yaml"


def _cat(approved: str) -> str:
    return head_catalog("2026-10-C1", approved)


EXAMPLES = (
    Example("a real cohort", {_CAT: _cat("2026-09-C1")}),
    Example("month 13", {_CAT: _cat("2026-13-C0")}, expect=((_CAT, 8, 24),)),
    Example("a third publication", {_CAT: _cat("2026-10-C2")}, expect=((_CAT, 8, 24),)),
)


def _why(value: object, calendar: Calendar) -> str | None:
    try:
        Cohort.parse(value, calendar)
    except ValueError as exc:
        return str(exc)
    return None


def _cohort_ids(reg: "Registry") -> Iterator[tuple[object, Location, str, str]]:
    """Every cohort id the registry writes: (value, location, what it is, stable key)."""
    for policy in reg.policies.values():
        yield policy.folder, policy.location(), "policy folder", f"folder:{policy.folder}"
        for name, param in policy.versions.items():
            if param is not None:
                yield param.value, param.location, f"version of {name}", f"{policy.folder}:{name}:version"
        for head in policy.heads:
            if head.approved_cohort is not None:
                yield (head.approved_cohort, head.field_location("approved_cohort"),
                       f"approved_cohort of {head.describe()}",
                       f"{policy.folder}:{'/'.join(map(str, head.identity))}")
    for extra in reg.extra_lists:
        for entry in extra.entries:
            if entry.approved_cohort is not None:
                yield (entry.approved_cohort, entry.field_location("approved_cohort"),
                       f"approved_cohort of {entry.benchmark}: {entry.model_id}",
                       f"{extra.name}:{entry.index}")


def check(ctx: Context) -> Iterator[Finding]:
    registry = ctx.loaded_registry
    for value, location, what, key in _cohort_ids(registry):
        why = _why(value, registry.calendar)
        if why:
            hint = "; name the folder after the cohort it applies to" if what == "policy folder" else ""
            yield RULE.at(location, f"{what}: {why}{hint}", key=key)
