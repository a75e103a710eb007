"""The facts the rules text states, read once and shared by the cross-validation rules.

Each fact is the value a sentence of the rules states (a lead time, a calendar, a date, the
drafter kinds the rules name), with the exact position of the words that state it. A fact that
cannot be found is not defaulted: it is recorded as `Missing`, naming the fact and the section
that should state it, and the rule that owns the fact reports it with the sentence expected.

The engine extracts them once, before any check runs, into ``ctx.facts`` (a `RulesFacts`):
the registry rules read the lead time (`RulesFacts.lead`), the drafter kinds
(`head_methods`), the calendar and the model-list lead time from there, whichever runs first.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any, Protocol

from drafterlint.checks._options import OptionSlot
from drafterlint.checks._plain import Plain
from drafterlint.findings import Location, UnreadableFile
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks._sections import Located
    from drafterlint.cohorts import Calendar
    from drafterlint.config import Config
    from drafterlint.markdown.model import Document, Heading, TableCell
    from drafterlint.sources import RepoView

_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
NUM = r"(?P<n>\d+|" + "|".join(_WORDS) + r")"
_ORDINAL = {
    "1st": 1, "first": 1, "2nd": 2, "second": 2, "3rd": 3, "third": 3, "4th": 4, "fourth": 4,
}
_WEEKDAY = {d: i for i, d in enumerate(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))}

# The drafter kinds (method id -> the words the rules write for it, case-sensitive; null drops
# a kind) and the patterns of the sentence that makes a head native, in order of preference:
# options of the rules that report an unknown head method and a third-party native head.
DRAFTER_KINDS = OptionSlot[dict[str, "list[str] | None"]]("kinds")
NATIVE_RULE = OptionSlot[list[str]]("native_rule")


def kind_words(config: "Config") -> list[tuple[str, str]]:
    """(pattern, method id) for every word the rules may write for a drafter kind
    (DRAFTER_KINDS: method id -> words, case-sensitive, as the rules write them).

    A word matches whole and not as the start of a versioned name: `EAGLE` is not found in
    `EAGLE-3` or `EAGLE3` (those are words of their own). Code spans are not prose, so
    `speculative-eagle-topk` never counts."""
    kinds = DRAFTER_KINDS.read(config)
    return [(r"\b" + re.escape(str(word)) + r"(?![\w])(?!-\d)", str(method))
            for method, words in kinds.items() for word in (words or ())]


def number(text: str) -> int | None:
    t = text.strip().lower()
    if t.isdigit():
        return int(t)
    return _WORDS.get(t)


class Says(Protocol):
    """What names a place in a message by git's line (checks.context.Context)."""

    def said_line(self, loc: Location) -> int: ...


@dataclass(frozen=True)
class Fact:
    """A value the rules text states, and where."""

    name: str
    value: Any
    location: Location
    text: str  # the words that state it

    def where(self, ctx: "Says") -> str:
        return f"{self.location.path}:{ctx.said_line(self.location)}"


@dataclass(frozen=True, eq=False, repr=False)
class Missing:
    """A fact that was expected but not found, or (`error`) stated in a form that cannot be used."""

    name: str  # the fact: lead_cohorts, model_list_weeks, table_lead, calendar, adoption_window, check_table
    location: Location
    section: "Heading"  # the section that should state it
    path: str  # that section's document
    error: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class CheckRow:
    """One row of the §9.1 check table."""

    name: str
    validation: str
    action: str
    location: Location  # the row's first cell


@dataclass(eq=False, repr=False)
class RulesFacts:
    """What the rules text states, each fact with where it is stated (None: not stated)."""

    spec_section: "Heading | None" = None
    spec_lead: Fact | None = None  # §2.9.4: at least N cohorts
    head_kinds: list[Fact] = field(default_factory=list)  # §2.9.4, one per mention
    id_forms: list[Fact] = field(default_factory=list)  # weight-/configuration-identified
    list_claim: Fact | None = None  # §2.9.4: "published in the reference repository"
    list_defined: Fact | None = None  # §2.9.4 defines an approved-drafter list (older versions do not)
    native_rule: Fact | None = None  # §2.9.4: only the model publisher's own head is native (DL503)
    native_heads: Fact | None = None  # §2.9.4: a head shipped in an approved checkpoint is approved with it
    tentative: Fact | None = None  # §2.9.4's TENTATIVE marker (value: date)
    models_section: "Heading | None" = None
    model_list_weeks: Fact | None = None  # §3.2: at least N weeks before the round opens
    models_list_claim: Fact | None = None  # §3.2: where the approved-drafter lists live
    supported_models: list[Fact] = field(default_factory=list)  # §3.2 table: model names
    checks_section: "Heading | None" = None
    check_rows: list[CheckRow] = field(default_factory=list)
    check_table: Location | None = None  # the §9.1 table's header row
    table_lead: Fact | None = None  # §9.1 "Drafter approval lead time": N cohorts
    table_adoption: Fact | None = None  # §9.1 seed-set row: the N-cohort adoption test
    calendar: Fact | None = None  # companion §4.2 (value: cohorts.Calendar)
    calendar_bullets: list[Fact] = field(default_factory=list)  # (index, Calendar-day) per id
    adoption_window: Fact | None = None  # companion §4.6: N cohorts
    round_opens: Fact | None = None  # companion §1 (value: date)
    missing: list[Missing] = field(default_factory=list)
    spec_where: Location | None = None  # §2.9.4's heading
    checks_where: Location | None = None  # §9.1's heading

    @property
    def lead(self) -> Fact | None:
        """The approval lead time in cohorts: §2.9.4's, else the §9.1 table's."""
        return self.spec_lead if self.spec_lead is not None else self.table_lead

    @property
    def publication_calendar(self) -> "Calendar":
        """The calendar §4.2 states, else today's (cohorts.DEFAULT_CALENDAR)."""
        from drafterlint.cohorts import DEFAULT_CALENDAR

        return self.calendar.value if self.calendar is not None else DEFAULT_CALENDAR

    @property
    def head_methods(self) -> list[str]:
        out: list[str] = []
        for f in self.head_kinds:
            if f.value not in out:
                out.append(f.value)
        return out

    def row(self, *names: str) -> CheckRow | None:
        want = [_norm(n) for n in names]
        for r in self.check_rows:
            if _norm(r.name) in want:
                return r
        return None


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[*_`\\]", "", text).lower().split())


def _section_plain(ctx: "_Reading", doc: "Document", heading: "Heading") -> Plain:
    return Plain(doc, ctx.rules.name, heading.line + 1, heading.end_line or doc.line_count)


# -- extraction ---------------------------------------------------------------------------


class Sources(Protocol):
    """What extraction reads of the Context being prepared (which will hold the facts, so sits
    above this module): the rules repository, the configuration, the located sections, where to record a
    file that cannot be read."""

    @property
    def rules(self) -> "RepoView | None": ...

    @property
    def config(self) -> "Config": ...

    @property
    def sections(self) -> "list[tuple[Document, Located]]": ...

    def unreadable(self, error: UnreadableFile) -> None: ...


@dataclass(frozen=True, eq=False, repr=False)
class _Reading:
    """What a section's reader takes of the Sources: the rules repository (there, or nothing is
    read) and the configuration."""

    rules: "RepoView"
    config: "Config"


def extract(ctx: Sources) -> RulesFacts:
    """The facts of the rules text (the engine calls this once, before the checks)."""
    from drafterlint.checks._sections import section

    facts = RulesFacts()
    if ctx.rules is None:
        return facts
    reading = _Reading(ctx.rules, ctx.config)
    try:
        for key, heading_field, read in _READERS:
            doc, h = section(ctx, key)
            if doc is not None and h is not None:
                if heading_field:
                    setattr(facts, heading_field, h)
                read(reading, facts, doc, h)
    except UnreadableFile as err:
        ctx.unreadable(err)
    _required(facts)
    return facts


def unstated_requirement(facts: RulesFacts) -> str | None:
    """The skipped line of the rules whose requirement §2.9.4 of this version does not state
    (DL601's lead time, DL602's checks, DL603's link to the list), or None."""
    spec = facts.spec_section
    if spec is None:
        return None  # DL101 reports the section missing
    if facts.list_defined is None:
        return f"{section_label(spec)} of this version defines no approved-drafter list"
    if facts.lead is None:
        return f"{section_label(spec)} of this version states no approval lead time"
    return None


def unstated_native_heads(facts: RulesFacts) -> str | None:
    """The skipped line of the rules that hold the registry's native heads to their checkpoints
    (DL501, DL504) where §2.9.4 of this version approves no head with its checkpoint, or None
    (no rules read, or §2.9.4 missing: DL101's; the registry's own claims are judged then)."""
    spec = facts.spec_section
    if spec is None or facts.native_heads is not None:
        return None
    return f"{section_label(spec)} of this version approves no head with its checkpoint (no native heads)"


def _required(facts: RulesFacts) -> None:
    """The facts one place of the text requires of another, reported when missing.

    A requirement is never assumed: a version of the rules that defines no approved-drafter list
    (a placeholder §2.9.4, or a benchmark that designates one frozen drafter) asks for no lead
    time and no check table, and the rules that would hold them say nothing (DL601/DL602 say so
    in one skipped line)."""
    spec = facts.spec_section
    if spec is not None and facts.spec_lead is None and facts.table_lead is not None:
        where = facts.spec_where or facts.table_lead.location
        facts.missing.append(Missing("lead_cohorts", where, spec, where.path))
    chk = facts.checks_section
    defines = facts.list_defined or facts.spec_lead
    if chk is not None and not facts.check_rows and defines is not None:
        where = facts.checks_where or defines.location
        facts.missing.append(Missing("check_table", where, chk, where.path))


def _heading_loc(ctx: "_Reading", doc: "Document", h: "Heading") -> Location:
    return Location(ctx.rules.name, doc.path, h.line, h.column)


def section_label(h: "Heading") -> str:
    """A section as the findings name it: its number, else its title."""
    return f"§{h.number}" if h.number else f"“{h.title}”"


LEAD_RE = r"\bat\s+least\s+" + NUM + r"\s+(?:publication\s+)?cohorts?\b"

# §2.9.4 defines an approved-drafter list: "approved-drafter list", "the approved list",
# "a curated … list". The versions before it name no list (a placeholder, or one drafter the
# benchmark designates).
_LIST_DEFINED = (
    r"\bapproved[-\s]drafter[-\s]lists?\b",
    r"\bapproved\s+lists?\b",
    r"\bcurated\b[^.]{0,80}?\blists?\b",
)


# §2.9.4 makes a head shipped inside an approved checkpoint native, approved with it: "is approved
# with that checkpoint", "a native head of an approved checkpoint". The versions before it name no
# native head (a placeholder, or one drafter the benchmark designates).
_NATIVE_HEADS = (
    r"\bapproved\s+with\s+(?:that|its|the)\s+checkpoints?\b",
    r"\bnative\s+(?:\w+[-\s])?heads?\b",
)


def native_rule_patterns(config: "Config") -> list[str]:
    """The patterns of the sentence that makes a head native (NATIVE_RULE)."""
    return [str(p) for p in NATIVE_RULE.read(config)]


def _first(plain: "Plain", name: str, patterns: Iterable[str]) -> Fact | None:
    """The first of `patterns` (in order of preference) that the text matches, as a fact."""
    for pattern in patterns:
        m = plain.search(pattern)
        if m:
            return Fact(name, True, plain.location(m.start()), m.group(0))
    return None


def _speculative(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    plain = _section_plain(ctx, doc, h)
    facts.spec_where = _heading_loc(ctx, doc, h)
    m = plain.search(LEAD_RE)
    if m:
        facts.spec_lead = Fact("lead_cohorts", number(m.group("n")), plain.location(m.start("n")),
                               m.group(0))
    facts.list_defined = _first(plain, "list_defined", _LIST_DEFINED)
    facts.native_heads = _first(plain, "native_heads", _NATIVE_HEADS)
    # The configuration's patterns: a repository's own, so searched on the run's CPU budget.
    with ctx.config.searching(NATIVE_RULE.path, f"the text of {section_label(h)}"):
        facts.native_rule = _first(plain, "native_rule", native_rule_patterns(ctx.config))
    for pattern, method in kind_words(ctx.config):
        for km in plain.finditer(pattern, 0):
            facts.head_kinds.append(Fact("head_kind", method, plain.location(km.start()), km.group(0)))
    facts.head_kinds.sort(key=lambda f: (f.location.line, f.location.column))
    for form in ("weight-identified", "configuration-identified"):
        fm = plain.search(r"\b" + form.replace("-", r"[-\s]") + r"\b")
        if fm:
            facts.id_forms.append(Fact("id_form", form, plain.location(fm.start()), fm.group(0)))
    cm = plain.search(r"\b(?:approved|drafter)\s+lists?\s+(?:is|are)\s+published\s+in\s+the\s+"
                      r"reference\s+repository")
    if cm:
        facts.list_claim = Fact("list_claim", "reference repository", plain.location(cm.start()),
                                cm.group(0))
    if facts.list_defined is None and facts.list_claim is not None:
        facts.list_defined = facts.list_claim  # "the … list is published in …" defines it too
    tm = plain.search(r"\bTENTATIVE\b[^\]\n]*?(?P<d>\d{4}-\d{2}-\d{2})", 0)
    if tm:
        day = _date(tm.group("d"))
        if day is not None:
            facts.tentative = Fact("tentative", day, plain.location(tm.start()), tm.group(0))


def _supported(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    plain = _section_plain(ctx, doc, h)
    m = plain.search(r"\bat\s+least\s+" + NUM + r"\s+weeks?\s+before\b")
    if m:
        facts.model_list_weeks = Fact("model_list_weeks", number(m.group("n")),
                                      plain.location(m.start("n")), m.group(0))
    else:
        facts.missing.append(Missing("model_list_weeks", _heading_loc(ctx, doc, h), h, doc.path))
    cm = plain.search(r"\bapproved[-\s]drafter\s+lists?\b[^.]*?\bpublished\s+in\s+the\s+"
                      r"reference\s+repository")
    if cm:
        facts.models_list_claim = Fact("list_claim", "reference repository",
                                       plain.location(cm.start()), cm.group(0))
    for table in doc.tables:
        if not (h.line <= table.line <= (h.end_line or doc.line_count)):
            continue
        cols = [_norm(c.text) for c in table.header]
        idx = next((i for i, c in enumerate(cols) if c in ("model name", "model")), None)
        if idx is None:
            continue
        for row in table.rows:
            if idx < len(row) and row[idx].text.strip():
                cell = row[idx]
                facts.supported_models.append(Fact(
                    "supported_model", cell.text.strip(),
                    Location(ctx.rules.name, doc.path, cell.line, cell.column), cell.text,
                ))


def _checks(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    end = h.end_line or doc.line_count
    for table in doc.tables:
        if not (h.line <= table.line <= end):
            continue
        cols = [_norm(c.text) for c in table.header]
        if "check" not in cols:
            continue
        ci = cols.index("check")
        vi = next((i for i, c in enumerate(cols) if c.startswith("validation")), ci + 1)
        ai = next((i for i, c in enumerate(cols) if c.startswith("failure")), vi + 1)
        facts.check_table = Location(ctx.rules.name, doc.path, table.line, table.column)

        def cell(row: "tuple[TableCell, ...]", i: int) -> str:
            return row[i].text.strip() if i < len(row) else ""

        for row in table.rows:
            if not row:
                continue
            facts.check_rows.append(CheckRow(
                cell(row, ci), cell(row, vi), cell(row, ai),
                Location(ctx.rules.name, doc.path, row[ci].line, row[ci].column),
            ))
            if _norm(cell(row, ci)) == "drafter approval lead time" and vi < len(row):
                c = row[vi]
                plain = Plain(doc, ctx.rules.name, c.line, c.line)
                m = plain.search(LEAD_RE)
                if m:
                    facts.table_lead = Fact("lead_cohorts", number(m.group("n")),
                                            plain.location(m.start("n")), m.group(0))
                else:
                    facts.missing.append(Missing(
                        "table_lead", Location(ctx.rules.name, doc.path, c.line, c.column), h, doc.path))
            if _norm(cell(row, ci)).startswith("seed-set") and vi < len(row):
                c = row[vi]
                plain = Plain(doc, ctx.rules.name, c.line, c.line)
                m = plain.search(NUM + r"[-\s]cohort\s+adoption\b")
                if m:
                    facts.table_adoption = Fact("adoption_window", number(m.group("n")),
                                                plain.location(m.start("n")), m.group(0))
        break
    facts.checks_where = _heading_loc(ctx, doc, h)  # a missing table is judged by _required


def _calendar(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    """§4.2's publications a month, in either of its forms: a sentence ("on the 1st and 3rd
    Wednesday", "on the 1st Monday, 2nd Monday and 4th Friday") or one line per cohort id
    ("C0 — published on the 1st Tuesday"); any count, any weekdays."""
    from drafterlint.cohorts import Calendar

    plain = _section_plain(ctx, doc, h)
    ords = "|".join(_ORDINAL)
    days = "|".join(_WEEKDAY)
    one = r"(?:" + ords + r")(?:\s+(?:" + days + r")s?)?"
    m = plain.search(r"\bon\s+the\s+(?P<list>" + one + r"(?:\s*,\s*(?:and\s+)?" + one + r"|\s+and\s+" + one
                     + r")*)\s+(?:" + days + r")?s?\s*(?:of\s+(?:each|every|the)\s+month)?")
    for bm in plain.finditer(r"\bC(?P<i>\d)\W+published\s+on\s+the\s+(?P<o>" + ords
                             + r")\s+(?P<d>" + days + r")\b"):
        facts.calendar_bullets.append(Fact(
            "calendar_bullet",
            (int(bm.group("i")), _ORDINAL[bm.group("o").lower()], _WEEKDAY[bm.group("d").lower()]),
            plain.location(bm.start("o")), bm.group(0),
        ))
    stated = _publications(m.group(0), ords, days) if m else None
    where = (plain.location(m.start()), m.group(0)) if m and stated else None
    if stated is None and facts.calendar_bullets:
        by_index = {b.value[0]: (b.value[1], b.value[2]) for b in facts.calendar_bullets}
        if sorted(by_index) == list(range(len(by_index))):
            stated = [by_index[i] for i in range(len(by_index))]
            first = facts.calendar_bullets[0]
            where = (first.location, first.text)
    if stated and where:
        try:
            facts.calendar = Fact("calendar", Calendar(tuple(stated)), where[0], where[1])
        except ValueError as exc:
            facts.missing.append(Missing("calendar", where[0], h, doc.path, str(exc)))
            return
    if facts.calendar is None:
        facts.missing.append(Missing("calendar", _heading_loc(ctx, doc, h), h, doc.path))


def _publications(text: str, ords: str, days: str) -> list[tuple[int, int]] | None:
    """(occurrence, weekday) per publication; a weekday named once applies to the ordinals
    before it ("1st and 3rd Wednesday")."""
    found = [(o.lower(), (d or "").lower()) for o, d in
             re.findall(r"\b(" + ords + r")\b(?:\s+(" + days + r")s?\b)?", text, re.IGNORECASE)]
    pubs: list[tuple[int, int]] = []
    pending: list[int] = []
    for occurrence, day in found:
        pending.append(_ORDINAL[occurrence])
        if day:
            pubs += [(o, _WEEKDAY[day]) for o in pending]
            pending = []
    if pending:
        trailing = re.search(r"\b(" + days + r")s?\b", text[text.lower().rfind(found[-1][0]):], re.IGNORECASE)
        if not trailing:
            return None
        pubs += [(o, _WEEKDAY[trailing.group(1).lower()]) for o in pending]
    return pubs or None


def _adoption(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    plain = _section_plain(ctx, doc, h)
    for pattern in (
        r"\badoption\b[^.]*?\buntil\s+" + NUM + r"\s+cohort(?:\s+dates?)?s?\s+have\s+passed",
        r"\bremains?\s+adoptable\s+for\s+" + NUM + r"\b",
        r"\badoption\s+window\s+of\s+" + NUM + r"\s+cohorts?",
    ):
        m = plain.search(pattern)
        if m:
            facts.adoption_window = Fact("adoption_window", number(m.group("n")),
                                         plain.location(m.start("n")), m.group(0))
            return
    facts.missing.append(Missing("adoption_window", _heading_loc(ctx, doc, h), h, doc.path))


def _basics(ctx: "_Reading", facts: RulesFacts, doc: "Document", h: "Heading") -> None:
    plain = _section_plain(ctx, doc, h)
    m = plain.search(r"\bround\s+opens\s+on\s+(?P<d>\d{4}-\d{2}-\d{2})")
    if m:
        day = _date(m.group("d"))
        if day is not None:
            facts.round_opens = Fact("round_opens", day, plain.location(m.start("d")), m.group(0))


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


# The sections facts are read from (a key of drafterlint.checks._sections), the RulesFacts field
# that keeps the section's heading (if any), and the reader of its facts. The readers are
# independent of each other; this order is the order of RulesFacts.missing.
_READERS = (
    ("speculative-decoding", "spec_section", _speculative),
    ("supported-models", "models_section", _supported),
    ("automated-checks", "checks_section", _checks),
    ("publication-calendar", None, _calendar),
    ("seed-adoption", None, _adoption),
    ("basics", None, _basics),
)
