"""The weekly audit's report: Markdown that GitHub renders (a file, a job summary, an issue body).

Verdict line; "Needs a decision" (the governance errors: DL4xx, DL5xx, DL6xx, DL8xx, each with
what to do), so a task-force lead sees them on the first screen; "Housekeeping" (links, table of
contents, stale markers, list copies) folded; counts by rule; what changed since the previous audit (new, fixed, could not be checked, still open, by
finding fingerprint); a Mermaid ``gantt`` timeline per model (each head from its approval cohort
to its first eligible cohort, the audit date and the next publications marked); heads with a
DL401/DL403/DL505 error filled red, the reason below the chart); the full findings table,
by severity then rule, with links to the exact lines at the audited commits; what could not be
checked.
``audit_document`` is the same content as JSON (the check JSON contract, plus an ``audit`` key).
``render_audit(..., max_chars=N)`` is the tracking issue's version: cut to fit, the decisions,
the changes and the timeline kept whole.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from drafterlint.findings import REPORT_MARKER, Severity
from drafterlint.records import dataclass
from drafterlint.report import summary_counts
from drafterlint.report.markdown_report import ICON, ORDER, counts_line, finding_row, line_link, skipped_lines, verdict
from drafterlint.report.markdown_writer import code, html, link, mermaid, message, text


@dataclass
class TimelineHead:
    """A head on the audit's timeline: approved when, usable from when."""

    model: str
    repository: str
    revision: str
    method: str | None
    approved: str  # cohort id
    approved_date: str  # YYYY-MM-DD
    eligible: str
    eligible_date: str
    verified: str = ""  # a bundled head: what its checkpoint shows (audit --online), else ""
    # Why the head is marked `crit` in the chart: "DL403 backdated-approval: <message>".
    marks: list[str] = field(default_factory=list)


# The governance findings: a task-force lead decides these; the rest is housekeeping.
DECISION_FAMILIES = ("DL4", "DL5", "DL6", "DL8")
# Heads with one of these (errors) are marked in the timeline.
TIMELINE_MARKS = ("DL401", "DL403", "DL505")
# What to decide, per family, for a rule without advice of its own (its ADVICE, in
# ReportMeta.rules): the finding's own message says what is wrong.
_DECIDE_FAMILY = {
    "DL4": "decide whether the cohort data or the policy listing is right",
    "DL5": "decide whether the native head is approved",
    "DL6": "decide which of the rules text and the registry is right",
    "DL8": "decide how to act on the date",
}


def needs_decision(f) -> bool:
    return f.severity is Severity.ERROR and f.code.startswith(DECISION_FAMILIES)


def what_to_do(meta, code: str) -> str:
    advice = next((r.advice for r in meta.rules if r.code == code), "")
    return advice or _DECIDE_FAMILY.get(code[:3], "decide how to proceed")


def by_severity_then_rule(findings) -> list:
    return sorted(findings, key=lambda f: (-int(f.severity), f.code, f.sort_key()))


@dataclass
class AuditInfo:
    """What the audit's report says besides the findings."""

    today: str
    today_cohort: str
    next_cohorts: list[tuple[str, str]] = field(default_factory=list)  # (cohort, date)
    repositories: dict[str, dict] = field(default_factory=dict)  # name -> source, commit, github
    timeline: list[TimelineHead] = field(default_factory=list)
    previous: str | None = None  # where the previous audit came from; None: no comparison
    new: list = field(default_factory=list)  # Findings
    still_open: list = field(default_factory=list)  # Findings
    fixed: list[dict] = field(default_factory=list)  # finding dicts of the previous audit
    # Findings of the previous audit this one could not check (findings.Carried, also among the
    # run's findings): neither fixed nor new.
    carried: list = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)  # what could not be checked, and why
    crashed: list[str] = field(default_factory=list)  # rules that failed: "DL505 name: why"
    previous_partial: str = ""  # set when the previous audit's state kept only some findings
    full_report: str = ""  # where the full report is, for an issue body cut to fit
    full_report_url: str | None = None  # the workflow run that holds it, when known
    history: dict | None = None  # commits read, complete, notes


# The chart's colours, so that it reads the same wherever Mermaid draws it: a head with an
# error filled red (`crit`; Mermaid's default theme draws `crit, done` grey with a red outline),
# the others blue, the audit date amber (`active`), the coming publications grey (`done`).
# Only the `base` theme takes theme variables.
CHART_THEME = {
    "primaryColor": "#ddf4ff", "primaryTextColor": "#1f2328", "primaryBorderColor": "#0969da",
    "lineColor": "#57606a",
    "sectionBkgColor": "#eef1f4", "altSectionBkgColor": "#ffffff", "sectionBkgColor2": "#eef1f4",
    "gridColor": "#d0d7de", "titleColor": "#1f2328",
    "taskBkgColor": "#0969da", "taskBorderColor": "#0550ae", "taskTextColor": "#ffffff",
    "taskTextOutsideColor": "#1f2328", "taskTextDarkColor": "#1f2328", "taskTextLightColor": "#ffffff",
    "critBkgColor": "#cf222e", "critBorderColor": "#82071e",
    "activeTaskBkgColor": "#bf8700", "activeTaskBorderColor": "#7d4e00",
    "doneTaskBkgColor": "#afb8c1", "doneTaskBorderColor": "#6e7781",
}
SECTION_CHARS = 44  # a section label longer than this is shortened (its full name is in the table below)
_CHAR_PX = 7  # the width of a label's character at the chart's font size, generously


def _section_label(h: TimelineHead) -> str:
    name = f"{mermaid(h.repository)} {mermaid(h.revision[:7])}"
    return name if len(name) <= SECTION_CHARS else name[: SECTION_CHARS - 3].rstrip() + "..."


def chart_config(labels: list[str]) -> str:
    """The chart's init directive: the colours, and a left margin wide enough for the longest
    section label (Mermaid's default of 75 px lets a long one run under the bars)."""
    import json

    left = max(75, _CHAR_PX * max((len(x) for x in labels), default=0) + 24)
    config = {"theme": "base", "themeVariables": CHART_THEME,
              "gantt": {"leftPadding": left, "fontSize": 12, "sectionFontSize": 12, "barHeight": 22}}
    return f"%%{{init: {json.dumps(config, separators=(',', ':'))}}}%%"


def tick_interval(first: str, last: str) -> str:
    """A tick every week, two weeks, month or quarter: at most about a dozen dates on the axis,
    so that they do not run into each other."""
    import datetime

    days = (datetime.date.fromisoformat(last) - datetime.date.fromisoformat(first)).days
    for interval, span in (("1week", 7), ("2week", 14), ("1month", 31)):
        if days <= 12 * span:
            return interval
    return "3month"


def gantt(model: str, heads: list[TimelineHead], info: AuditInfo) -> str:
    labels = [_section_label(h) for h in heads] + ["audit"]
    dates = [h.approved_date for h in heads] + [info.today] + [d for _, d in info.next_cohorts]
    lines = [
        "```mermaid",
        chart_config(labels),
        "gantt",
        f"    title {mermaid(model)}",
        "    dateFormat YYYY-MM-DD",
        "    axisFormat %d %b %y",
        f"    tickInterval {tick_interval(min(dates), max(dates))}",
        "    todayMarker off",
    ]
    for i, (h, label) in enumerate(zip(heads, labels)):
        lines.append(f"    section {label}")
        tag = "crit, " if h.marks else ""
        lines.append(f"    approved {mermaid(h.approved)} :{tag}h{i}a, {h.approved_date}, {h.eligible_date}")
        lines.append(f"    eligible {mermaid(h.eligible)} :{tag}milestone, h{i}e, {h.eligible_date}, 0d")
    lines.append("    section audit")
    lines.append(f"    today {mermaid(info.today)} :active, milestone, t0, {info.today}, 0d")
    for j, (cohort, day) in enumerate(info.next_cohorts):
        lines.append(f"    publication {mermaid(cohort)} :done, milestone, r{j}, {day}, 0d")
    lines.append("```")
    return "\n".join(lines)


def _fixed_row(d: dict) -> str:
    where = f"{d.get('path', '')}:{d.get('line', '')}"
    return (f"| {code(str(d.get('code', '')), table=True)} | {code(where, table=True)} "
            f"| {message(str(d.get('message', '')), table=True)} |")


def _brief_location(meta, f, *, table: bool) -> str:
    return link(code(f"{f.location.path}:{f.location.line}", table=table), line_link(meta, f))


def _brief_row(meta, f) -> str:
    return f"| {code(f.code, table=True)} | {_brief_location(meta, f, table=True)} | {message(f.message, table=True)} |"


def verdict_text(result, info: AuditInfo) -> str:
    """One plain line for the job's log: counts, and what needs a decision."""
    c = summary_counts(result.findings)
    decisions = Counter(f.code for f in result.findings if needs_decision(f))
    line = f"drafterlint audit {info.today}: {counts_line(c)}"
    if decisions:
        n = sum(decisions.values())
        line += f"; {n} need{'s' if n == 1 else ''} a decision ({', '.join(sorted(decisions))})"
    else:
        line += "; nothing needs a decision"
    return line


def carried_why(f) -> str:
    """Why a finding of the previous audit was carried over unchecked (findings.Carried), or ""."""
    return str(getattr(f, "why", ""))


def decision_count(result) -> str:
    n = sum(1 for f in result.findings if needs_decision(f))
    carried = sum(1 for f in result.findings if needs_decision(f) and carried_why(f))
    return f"{n} need{'s' if n == 1 else ''} a decision" + (f" ({carried} carried, not checked)" if carried else "")


def issue_title(result, info: AuditInfo) -> str:
    """The tracking issue's title: what needs a decision first, as the issue list shows it."""
    c = summary_counts(result.findings)
    return f"drafterlint audit: {decision_count(result)}, {counts_line(c)} ({info.today})"


DECISIONS_PER_RULE = 3  # shown per rule on the first screen; the rest of that rule is folded


def decisions_section(meta, findings) -> list[str]:
    """ "Needs a decision": one numbered sentence per governance error, with what to do. Past
    DECISIONS_PER_RULE of one rule the rest are folded, so that one rule's many findings do
    not push another rule's off the first screen."""
    out = ["## Needs a decision", ""]
    decisions = by_severity_then_rule(f for f in findings if needs_decision(f))
    if not decisions:
        return [*out, "Nothing needs a decision: no cohort, native-head, rules-text or date errors.", ""]
    by_rule: dict[str, list] = {}
    for f in decisions:
        by_rule.setdefault(f.code, []).append(f)

    def item(i: int, f) -> str:
        carried = (f" _Carried from the previous audit: could not be checked {message(f.why)}._"
                   if carried_why(f) else "")
        return (f"{i}. **{f.code} {f.name}** ({_brief_location(meta, f, table=False)}): "
                f"{message(f.message.rstrip('.'))}. "
                f"**To do:** {what_to_do(meta, f.code)}.{carried}")

    shown = [f for group in by_rule.values() for f in group[:DECISIONS_PER_RULE]]
    out += [item(i, f) for i, f in enumerate(shown, 1)]
    n = len(shown)
    for rule, group in by_rule.items():
        rest = group[DECISIONS_PER_RULE:]
        if rest:
            out += ["", "<details>", f"<summary>{len(rest)} more {rule} {group[0].name}</summary>", ""]
            out += [item(i, f) for i, f in enumerate(rest, n + 1)]
            out += ["", "</details>"]
            n += len(rest)
    return [*out, ""]


@dataclass
class Rows:
    """A table that may be cut to fit an issue: the lines before its rows, the rows, the lines
    after, and what to call its rows in the note that counts the ones left out."""

    head: list[str]
    rows: list[str]
    tail: list[str] = field(default_factory=list)
    what: str = "rows"

    def lines(self, keep: int | None = None) -> list[str]:
        rows = self.rows if keep is None else self.rows[:keep]
        out = [*self.head, *rows]
        if keep is not None and keep < len(self.rows):
            out += ["", f"_{len(self.rows) - keep} more {self.what} are in the full report._"]
        return [*out, *self.tail]


def housekeeping_section(meta, findings) -> Rows | None:
    """Errors and warnings a maintainer fixes without deciding anything (links, the table of
    contents, stale markers, list copies), folded."""
    chores = by_severity_then_rule(
        f for f in findings if f.severity > Severity.INFO and not needs_decision(f))
    if not chores:
        return None
    per_rule = Counter(f.name for f in chores)
    what = ", ".join(f"{n} {name}" for name, n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0])))
    return Rows(["## Housekeeping", "", "<details>", f"<summary>{len(chores)} to fix: {html(what)}</summary>", "",
                 "| rule | location | message |", "|---|---|---|"],
                [_brief_row(meta, f) for f in chores], ["", "</details>", ""], "housekeeping findings")


def _timeline_legend(heads: list[TimelineHead]) -> list[str]:
    marked = [h for h in heads if h.marks]
    if not marked:
        return []
    out = ["", "Filled red in the chart (an error against the head):"]
    for h in marked:
        out += [f"- {code(f'{h.repository}@{h.revision[:12]}')}: {message(m)}" for m in h.marks]
    return out


def verdict_line(result, meta) -> str:
    """The report's first line: the verdict, how many findings need a decision, the counts."""
    counts = summary_counts(result.findings)
    return f"{verdict(counts)} · **{decision_count(result)}** · {counts_line(counts)} · drafterlint {meta.version}"


def _header(result, meta, info: AuditInfo) -> list[str]:
    out: list[str] = [REPORT_MARKER, f"# drafterlint audit — {info.today}", "", verdict_line(result, meta), ""]
    for name, repo in info.repositories.items():
        commit = repo.get("commit")
        where = repo.get("source", "")
        gh = repo.get("github")
        if commit and gh:
            at = link(code(commit[:7]), f"https://github.com/{gh}/commit/{commit}")
        else:
            at = code(commit[:7]) if commit else "(not a git checkout)"
        out.append(f"- **{text(name)}**: {code(where)} at {at}")
    out.append("")
    if info.crashed:
        out += ["> [!CAUTION]", "> **A rule failed** (a bug in drafterlint: please report it). Its findings are "
                "missing from this report, so it is not compared with the previous audit's for that rule:"]
        out += [f"> - {message(c)}" for c in info.crashed]
        out.append("")
    return out


def _counts(result) -> list[str]:
    out = ["## Counts by rule", ""]
    if result.findings:
        by_rule = Counter((f.code, f.name, str(f.severity)) for f in result.findings)
        out += ["| rule | name | severity | count |", "|---|---|---|---:|"]
        for (rule, name, sev), n in sorted(by_rule.items(), key=lambda kv: (ORDER.index(kv[0][2]), kv[0][0])):
            out.append(f"| {code(rule, table=True)} | {name} | {ICON[sev]} {sev} | {n} |")
    else:
        out.append("No findings.")
    return [*out, ""]


def _since(meta, info: AuditInfo) -> list[list[str] | Rows]:
    out: list[str] = ["## Since the previous audit", ""]
    if info.previous is None:
        return [[*out, "No previous audit to compare with (give `--previous audit.json`, or `--open-issue`).", ""]]
    out.append(f"Compared with {text(info.previous)}: **{len(info.new)} new**, "
               f"**{len(info.fixed)} fixed**, **{len(info.carried)} could not be checked**, "
               f"{len(info.still_open)} still open.")
    if info.previous_partial:
        out += ["", f"_{text(info.previous_partial)}_"]
    blocks: list[list[str] | Rows] = [out]
    if info.new:
        blocks.append(Rows(["", "### New", "", "| rule | location | message |", "|---|---|---|"],
                           [_brief_row(meta, f) for f in info.new], what="new findings"))
    if info.fixed:
        blocks.append(Rows(["", "### Fixed", "", "| rule | location (then) | message |", "|---|---|---|"],
                           [_fixed_row(d) for d in info.fixed], what="fixed findings"))
    if info.carried:
        blocks.append(Rows(["", "### Could not be checked", "", "Neither fixed nor new: carried over as they "
                            "were, and still counted.", "", "| rule | location (then) | message | why |",
                            "|---|---|---|---|"],
                           [f"{_brief_row(meta, f)} could not be checked {message(f.why, table=True)} |" for f in info.carried],
                           what="findings that could not be checked"))
    blocks.append([""])
    return blocks


def _timeline(info: AuditInfo) -> list[str]:
    out = ["## Cohort timeline", ""]
    if not info.timeline:
        return [*out, "No heads with a known approval cohort and lead time.", ""]
    out.append(f"Each head from its approval cohort to its first eligible cohort; the audit date "
               f"({info.today}, cohort {info.today_cohort}) and the next publications are marked.")
    by_model: dict[str, list[TimelineHead]] = {}
    for h in info.timeline:
        by_model.setdefault(h.model, []).append(h)
    for model, heads in by_model.items():
        out += ["", f"### {text(model)}", "", gantt(model, heads, info), *_timeline_legend(heads), ""]
        verified = any(h.verified for h in heads)
        out += ["| head | method | approved | first eligible |" + (" in the checkpoint |" if verified else ""),
                "|---|---|---|---|" + ("---|" if verified else "")]
        for h in heads:
            out.append(f"| {code(f'{h.repository}@{h.revision[:12]}', table=True)} | {text(h.method)} "
                       f"| {text(h.approved)} ({h.approved_date}) | {text(h.eligible)} ({h.eligible_date}) |"
                       + (f" {message(h.verified, table=True)} |" if verified else ""))
    return [*out, ""]


def _tail(result, info: AuditInfo) -> list[str]:
    out: list[str] = []
    if result.skipped:
        out += ["", "## Skipped checks", "", *skipped_lines(result.skipped)]
    if info.history:
        out += ["", f"<sub>History: {info.history.get('commits_read', 0)} commits of the policy "
                    f"catalogs read{'' if info.history.get('complete') else ' (incomplete history)'}.</sub>"]
    return [*out, ""]


def _blocks(result, meta, info: AuditInfo) -> list[list[str] | Rows]:
    """The report, in order: fixed lines, and tables (Rows) that may be cut to fit an issue."""
    blocks: list[list[str] | Rows] = [_header(result, meta, info), decisions_section(meta, result.findings)]
    if info.not_checked:
        blocks.append(["> [!WARNING]", "> **Could not check:**", *(f"> - {message(n)}" for n in info.not_checked), ""])
    chores = housekeeping_section(meta, result.findings)
    if chores is not None:
        blocks.append(chores)
    blocks += [_counts(result), *_since(meta, info), _timeline(info)]
    if result.findings:
        blocks.append(Rows(["## Findings", "", "| # | severity | rule | location | message | suggestion |",
                            "|---:|---|---|---|---|---|"],
                           [finding_row(meta, f, i) for i, f in enumerate(by_severity_then_rule(result.findings), 1)],
                           what="findings"))
    blocks.append(_tail(result, info))
    return blocks


def _size(lines: list[str]) -> int:
    return sum(len(x) + 1 for x in lines)


def render_audit(result, meta, info: AuditInfo, *, max_chars: int | None = None) -> str:
    """The report; with `max_chars` (an issue body), cut to that many characters when it is
    longer: the verdict, "Needs a decision" in full, what could not be checked, the counts,
    "Since the previous audit" and the timeline stay, and the tables give up rows in this order
    of keeping — the changes since the previous audit, the findings, housekeeping — with a note
    of how many were left out and where the full report is (``info.full_report``)."""
    blocks = _blocks(result, meta, info)
    full = [line for b in blocks for line in (b.lines() if isinstance(b, Rows) else b)]
    if max_chars is None or _size(full) <= max_chars:
        return "\n".join(full)
    where = info.full_report or "the audit's report files"
    note = ["> [!NOTE]", "> The report is longer than an issue holds: here some tables give up rows (each says "
                         f"how many); the full report is in {link(text(where), info.full_report_url)}.", ""]
    tables = [b for b in blocks if isinstance(b, Rows)]
    left = max_chars - _size(note) - sum(_size(b) for b in blocks if not isinstance(b, Rows))
    left -= sum(_size(t.lines(0)) for t in tables)  # every table shows its head and its note
    keep: dict[int, int] = {}
    for t in sorted(tables, key=_keeping_order):
        n = 0
        for row in t.rows:
            if len(row) + 1 > left:
                break
            left -= len(row) + 1
            n += 1
        keep[id(t)] = n
    out: list[str] = []
    for i, b in enumerate(blocks):
        if i == 1:
            out += note  # after the verdict: the reader knows at once that rows are left out
        out += b.lines(keep[id(b)]) if isinstance(b, Rows) else b
    return "\n".join(out)


def _keeping_order(t: Rows) -> int:
    return {"new findings": 0, "fixed findings": 1, "findings that could not be checked": 1,
            "findings": 2}.get(t.what, 3)


def audit_document(result, meta, info: AuditInfo) -> dict:
    from drafterlint.report.json_report import document

    doc = document(result, meta)
    new = {f.fingerprint for f in info.new}
    for f, d in zip(result.findings, doc["findings"]):
        d["link"] = line_link(meta, f)
        d["status"] = None if info.previous is None else (
            "new" if f.fingerprint in new else "carried" if carried_why(f) else "still-open")
    doc["audit"] = {
        "today": info.today,
        "today_cohort": info.today_cohort,
        "next_cohorts": [{"cohort": c, "date": d} for c, d in info.next_cohorts],
        "repositories": info.repositories,
        "counts_by_rule": dict(sorted(Counter(f.code for f in result.findings).items())),
        "changes": None if info.previous is None else {
            "previous": info.previous,
            "new": sorted(new),
            "still_open": sorted(f.fingerprint for f in info.still_open),
            "fixed": info.fixed,
            "could_not_check": [{"fingerprint": f.fingerprint, "why": f.why} for f in info.carried],
        },
        "timeline": [h.__dict__ for h in info.timeline],
        "not_checked": info.not_checked,
        "rules_failed": info.crashed,
        "history": info.history,
    }
    return doc
