"""DL601 parameter-mismatch — one normative number differs between the places that state it.

The same number is written in several places, and a change to one of them must reach the others:

- the drafter approval lead time: §2.9.4 (“at least two cohorts”), the §9.1 row “Drafter
  approval lead time”, and ``minimum_cohorts`` of the newest policy's lead-time check;
- the seed-set adoption window: the companion's §4.6 (“until 4 cohort dates have passed”), the
  §9.1 seed-set row (“the four-cohort adoption test”), and ``adoption_window_cohorts``;
- the publication calendar: the companion's §4.2 sentence (“1st and 3rd Wednesday”, any number
  of publications a month, any weekdays) and its per-cohort bullets (“C0 — published on the
  1st Wednesday”). drafterlint computes cohort ids, arithmetic and dates with the calendar
  §4.2 states (today's, 1st and 3rd Wednesday, when the rules are not at hand);
- the date of the TENTATIVE marker of §2.9.4 and the round-opening date of the companion's §1.

Numbers may be written in words or digits. The place that disagrees with the others (with the
rules text as tie-breaker) is reported, the others are its related locations. A number one place
of the text requires and another does not state is reported too, with the sentence that was
expected (§2.9.4 without the lead time its §9.1 row states, §3.2 without a model-list lead time).

A requirement is read from the text, never assumed: a version of the rules whose §2.9.4 defines
no approved-drafter list (a placeholder, or a benchmark that designates one frozen drafter) has
no approval lead time to compare, and the run says so in one skipped line
("§2.9.4 of this version defines no approved-drafter list").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from drafterlint.checks._examples import POINT, RULES_MD, point_checks, rules_doc
from drafterlint.checks._facts import Fact, Missing, RulesFacts, section_label, unstated_requirement
from drafterlint.checks._mdlist import reference_policy
from drafterlint.checks.base import Context, Example, Rule
from drafterlint.findings import Finding, Location, Severity, quoted

RULE = Rule(
    code="DL601",
    name="parameter-mismatch",
    severity=Severity.ERROR,
    summary="one normative number differs between §2.9.4, §9.1, §3.2, §4.2/§4.6 and the policy",
)
ADVICE = "decide which number is normative, and correct the other places"

EXAMPLES = (
    Example("all three places say two", {RULES_MD: rules_doc(), POINT: point_checks(2)}),
    Example("§9.1 says three", {RULES_MD: rules_doc(table_lead="three"), POINT: point_checks(2)},
            expect=((RULES_MD, 21, 54),)),
    Example("the policy says 3", {RULES_MD: rules_doc(), POINT: point_checks(3)},
            expect=((POINT, 12, 22),)),
)


# A place that states a number: (label, value, location).
_Place = tuple[str, object, Location]


def _compare(ctx: Context, what: str, given: Iterable[_Place | None], unit: str = "") -> Iterator[Finding]:
    """given: [(label, value, location)], None for a place that is not there; yields findings
    for the odd ones out."""
    places = [p for p in given if p is not None and p[1] is not None]
    if len({p[1] for p in places}) <= 1:
        return
    counts = Counter(p[1] for p in places)
    top = max(counts.values())
    reference = next(p[1] for p in places if counts[p[1]] == top)  # ties: the earlier place
    agree = [p for p in places if p[1] == reference]
    for label, value, loc in places:
        if value == reference:
            continue
        others = "; ".join(f"{l} ({lc.path}:{ctx.said_line(lc)}) says {_show(v)}{unit}" for l, v, lc in agree)
        yield RULE.at(
            loc,
            f"{what}: {label} says {_show(value)}{unit}, but {others}; make them agree",
            related=[lc for _, _, lc in agree],
            key=f"{what}:{label}",
        )


# What the text should have said, per fact of this rule it does not state.
_EXPECTED = {
    "model_list_weeks": "{label} states no model-list lead time: expected a sentence like “the model list … is "
                        "published … at least 6 weeks before the submission round opens”",
    "table_lead": "the “Drafter approval lead time” row of {label} states no lead time: expected “approved at "
                  "least <N> cohorts before the submission's target_cohort”",
    "calendar": "{label} of {path} states no publication calendar: expected a sentence like “results are "
                "published on the 1st and 3rd Wednesday of each month”",
    "adoption_window": "{label} of {path} states no adoption window: expected a sentence like “each seed set is "
                       "available for adoption by new submissions until 4 cohort dates have passed”",
}


def _missing_message(ctx: Context, m: Missing, facts: RulesFacts) -> str | None:
    """What to say of a number the text does not state; None for a fact of another rule."""
    label = section_label(m.section)
    if m.name == "lead_cohorts" and facts.table_lead is not None:
        row = facts.table_lead
        return (f"{label} states no approval lead time, but the “Drafter approval lead time” row of the "
                f"check table ({row.where(ctx)}) says {row.value} cohorts: state it in {label} too, with a "
                "sentence like “a newly approved drafter may first be used … at least two cohorts after "
                "the cohort in which it was approved”")
    if m.name == "calendar" and m.error:
        return f"{label} of {m.path} states a publication calendar drafterlint cannot use: {m.error}"
    expected = _EXPECTED.get(m.name)
    return expected.format(label=label, path=m.path) if expected is not None else None


def _show(v: object) -> str:
    if hasattr(v, "describe"):
        return str(v.describe())
    return str(v)


def check(ctx: Context) -> Iterator[Finding]:
    facts = ctx.facts
    for m in facts.missing:
        message = _missing_message(ctx, m, facts)
        if message is not None:
            yield RULE.at(m.location, message, key=f"missing:{m.name}")
    unstated = unstated_requirement(facts)
    if unstated and facts.lead is None:
        ctx.skip(RULE.code, unstated)
    policy = reference_policy(ctx)

    def param(name: str) -> _Place | None:
        p = policy.params.get(name) if policy is not None else None
        return (f"policy {policy.folder} {quoted(p.location.path.rsplit('/', 1)[-1])}", p.value,
                p.location) if policy is not None and p is not None else None

    def fact(label: str, f: Fact | None) -> _Place | None:
        return (label, f.value, f.location) if f is not None else None

    spec = facts.spec_section
    spec_label = f"§{spec.number}" if spec is not None and spec.number else "the speculative-decoding section"
    chk = facts.checks_section
    chk_label = f"§{chk.number}" if chk is not None and chk.number else "the automated-checks section"
    yield from _compare(ctx, "approval lead time", [
        fact(spec_label, facts.spec_lead),
        fact(f"{chk_label} “Drafter approval lead time”", facts.table_lead),
        param("lead_cohorts"),
    ], " cohorts")
    yield from _compare(ctx, "seed-set adoption window", [
        fact("submission rules §4.6", facts.adoption_window),
        fact(f"{chk_label} seed-set row", facts.table_adoption),
        param("adoption_window_cohorts"),
    ], " cohorts")
    if facts.calendar is not None:
        # The cohort arithmetic and dates use this calendar: only the text can disagree with it.
        cal = facts.calendar.value
        stated = f"{facts.calendar.location.path}:{ctx.said_line(facts.calendar.location)}"
        for b in facts.calendar_bullets:
            index, occurrence, weekday = b.value
            if index >= cal.per_month:
                why = f"names C{index}, but {stated} states {cal.per_month} publication(s) a month"
            elif cal.publications[index] != (occurrence, weekday):
                why = f"puts C{index} on another day than {stated}"
            else:
                continue
            yield RULE.at(b.location, f"publication calendar: this line {why} ({cal.describe()})",
                          related=[facts.calendar.location], key=f"calendar:C{index}")
    if facts.tentative is not None and facts.round_opens is not None:
        yield from _compare(ctx, "date after which tentative rules may change", [
            fact("the submission rules' §1 (round opening)", facts.round_opens),
            fact(f"the TENTATIVE marker of {spec_label}", facts.tentative),
        ])
