"""The weekly audit's report: Markdown that GitHub renders (a file, a job summary, an issue body).

Verdict line; "Needs a decision" (the governance errors: DL4xx, DL5xx, DL6xx, DL8xx, each with
what to do), so a task-force lead sees them on the first screen; "Housekeeping" (links, table of
contents, stale markers, list copies) folded; counts by rule; what changed since the previous audit (new, fixed, still open, by
finding fingerprint); a Mermaid ``gantt`` timeline per model (each head from its approval cohort
to its first eligible cohort, the audit date and the next publications marked); heads with a
DL401/DL403/DL505 error are marked `crit`, the reason below the chart); the full findings table,
by severity then rule, with links to the exact lines at the audited commits; what could not be
checked.
``audit_document`` is the same content as JSON (the check JSON contract, plus an ``audit`` key).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from drafterlint.findings import REPORT_MARKER, Severity
from drafterlint.report import summary_counts
from drafterlint.report.markdown_report import _ICON, _ORDER, cell, counts_line, finding_row, line_link, verdict


@dataclass
class TimelineHead:
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
# What to decide, per code (else per family): the finding's own message says what is wrong.
DECIDE = {
    "DL401": "take the head out of this policy until its first eligible cohort, or correct its approved_cohort if the approval was earlier",
    "DL402": "decide whether the checkpoint stays in this round as an exception or moves to the next round",
    "DL403": "correct approved_cohort to the cohort it was published in, and check whether submissions relied on the earlier cohort",
    "DL404": "correct the cohort id to one the calendar has",
    "DL405": "decide which version and revision this cohort folder carries, and align its files",
    "DL501": "approve the checkpoint revision that ships the head, or remove the bundled head",
    "DL502": "correct the method, or amend the rules to recognise the drafter kind",
    "DL503": "approve the head in its own right, or remove the claim",
    "DL504": "decide whether the Markdown list or the catalog is right, and correct the other",
    "DL505": "correct the native-head claim, or pin a checkpoint revision that ships the head",
    "DL601": "decide which number is normative, and correct the other places",
    "DL602": "add the required check to §9.1 and the policy, or drop the requirement",
    "DL603": "link the published list from the section",
    "DL803": "replace the revision with one the model hub has, or remove the entry",
}
_DECIDE_FAMILY = {
    "DL4": "decide whether the cohort data or the policy listing is right",
    "DL5": "decide whether the native head is approved",
    "DL6": "decide which of the rules text and the registry is right",
    "DL8": "decide how to act on the date",
}


def needs_decision(f) -> bool:
    return f.severity is Severity.ERROR and f.code.startswith(DECISION_FAMILIES)


def what_to_do(code: str) -> str:
    return DECIDE.get(code) or _DECIDE_FAMILY.get(code[:3], "decide how to proceed")


def by_severity_then_rule(findings) -> list:
    return sorted(findings, key=lambda f: (-int(f.severity), f.code, f.sort_key()))


@dataclass
class AuditInfo:
    today: str
    today_cohort: str
    next_cohorts: list[tuple[str, str]] = field(default_factory=list)  # (cohort, date)
    repositories: dict[str, dict] = field(default_factory=dict)  # name -> source, commit, github
    timeline: list[TimelineHead] = field(default_factory=list)
    previous: str | None = None  # where the previous audit came from; None: no comparison
    new: list = field(default_factory=list)  # Findings
    still_open: list = field(default_factory=list)  # Findings
    fixed: list[dict] = field(default_factory=list)  # finding dicts of the previous audit
    not_checked: list[str] = field(default_factory=list)  # what could not be checked, and why
    history: dict | None = None  # commits read, complete, notes


_UNSAFE = re.compile(r"[^A-Za-z0-9 ._/@()+-]")


def mermaid_text(text: str) -> str:
    """A name Mermaid's gantt parser takes: no `:`, `#`, `;`, quotes or brackets."""
    return re.sub(r"\s+", " ", _UNSAFE.sub(" ", str(text))).strip() or "unnamed"


def gantt(model: str, heads: list[TimelineHead], info: AuditInfo) -> str:
    lines = [
        "```mermaid",
        "gantt",
        f"    title {mermaid_text(model)}",
        "    dateFormat YYYY-MM-DD",
        "    axisFormat %Y-%m-%d",
        "    todayMarker off",
    ]
    for i, h in enumerate(heads):
        lines.append(f"    section {mermaid_text(h.repository)} {mermaid_text(h.revision[:7])}")
        tags = "crit, done" if h.marks else "done"
        lines.append(f"    approved {mermaid_text(h.approved)} :{tags}, h{i}a, {h.approved_date}, {h.eligible_date}")
        lines.append(f"    eligible {mermaid_text(h.eligible)} :milestone, h{i}e, {h.eligible_date}, 0d")
    lines.append("    section audit")
    lines.append(f"    today {mermaid_text(info.today)} :crit, milestone, t0, {info.today}, 0d")
    for j, (cohort, day) in enumerate(info.next_cohorts):
        lines.append(f"    publication {mermaid_text(cohort)} :milestone, r{j}, {day}, 0d")
    lines.append("```")
    return "\n".join(lines)


def _fixed_row(d: dict) -> str:
    where = f"{d.get('path', '')}:{d.get('line', '')}"
    return f"| `{cell(str(d.get('code', '')))}` | `{cell(where)}` | {cell(str(d.get('message', '')))} |"


def _brief_location(meta, f) -> str:
    where = f"{f.location.path}:{f.location.line}"
    link = line_link(meta, f)
    return f"[`{cell(where)}`]({link})" if link else f"`{cell(where)}`"


def _brief_row(meta, f) -> str:
    return f"| `{f.code}` | {_brief_location(meta, f)} | {cell(f.message)} |"


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
        return (f"{i}. **{f.code} {f.name}** ({_brief_location(meta, f)}): {cell(f.message.rstrip('.'))}. "
                f"**To do:** {what_to_do(f.code)}.")

    shown = [f for group in by_rule.values() for f in group[:DECISIONS_PER_RULE]]
    out += [item(i, f) for i, f in enumerate(shown, 1)]
    n = len(shown)
    for code, group in by_rule.items():
        rest = group[DECISIONS_PER_RULE:]
        if rest:
            out += ["", "<details>", f"<summary>{len(rest)} more {code} {group[0].name}</summary>", ""]
            out += [item(i, f) for i, f in enumerate(rest, n + 1)]
            out += ["", "</details>"]
            n += len(rest)
    return [*out, ""]


def housekeeping_section(meta, findings) -> list[str]:
    """Errors and warnings a maintainer fixes without deciding anything (links, the table of
    contents, stale markers, list copies), folded."""
    chores = by_severity_then_rule(
        f for f in findings if f.severity > Severity.INFO and not needs_decision(f))
    if not chores:
        return []
    per_rule = Counter(f.name for f in chores)
    what = ", ".join(f"{n} {name}" for name, n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0])))
    return ["## Housekeeping", "", "<details>", f"<summary>{len(chores)} to fix: {cell(what)}</summary>", "",
            "| rule | location | message |", "|---|---|---|", *(_brief_row(meta, f) for f in chores), "",
            "</details>", ""]


def _timeline_legend(heads: list[TimelineHead]) -> list[str]:
    marked = [h for h in heads if h.marks]
    if not marked:
        return []
    out = ["", "Marked `crit` (red) in the chart:"]
    for h in marked:
        out += [f"- `{cell(h.repository)}@{cell(h.revision[:12])}`: {cell(m)}" for m in h.marks]
    return out


def render_audit(result, meta, info: AuditInfo, *, max_bytes: int | None = None) -> str:
    counts = summary_counts(result.findings)
    out: list[str] = [
        REPORT_MARKER,
        f"# drafterlint audit — {info.today}",
        "",
        f"{verdict(counts)} · {counts_line(counts)} · drafterlint {meta.version}",
        "",
    ]
    for name, repo in info.repositories.items():
        commit = repo.get("commit")
        where = repo.get("source", "")
        gh = repo.get("github")
        if commit and gh:
            at = f"[`{commit[:7]}`](https://github.com/{gh}/commit/{commit})"
        else:
            at = f"`{commit[:7]}`" if commit else "(not a git checkout)"
        out.append(f"- **{name}**: `{cell(where)}` at {at}")
    out.append("")
    out += decisions_section(meta, result.findings)
    if info.not_checked:
        out += ["> [!WARNING]", "> **Could not check:**"]
        out += [f"> - {cell(n)}" for n in info.not_checked]
        out.append("")

    out += housekeeping_section(meta, result.findings)
    out += ["## Counts by rule", ""]
    if result.findings:
        by_rule = Counter((f.code, f.name, str(f.severity)) for f in result.findings)
        out += ["| rule | name | severity | count |", "|---|---|---|---:|"]
        for (code, name, sev), n in sorted(by_rule.items(), key=lambda kv: (_ORDER.index(kv[0][2]), kv[0][0])):
            out.append(f"| `{code}` | {name} | {_ICON[sev]} {sev} | {n} |")
    else:
        out.append("No findings.")
    out.append("")

    out += ["## Since the previous audit", ""]
    if info.previous is None:
        out.append("No previous audit to compare with (give `--previous audit.json`, or `--open-issue`).")
    else:
        out.append(f"Compared with {cell(info.previous)}: **{len(info.new)} new**, "
                   f"**{len(info.fixed)} fixed**, {len(info.still_open)} still open.")
        if info.new:
            out += ["", "### New", "", "| rule | location | message |", "|---|---|---|"]
            out += [_brief_row(meta, f) for f in info.new]
        if info.fixed:
            out += ["", "### Fixed", "", "| rule | location (then) | message |", "|---|---|---|"]
            out += [_fixed_row(d) for d in info.fixed]
    out.append("")

    out += ["## Cohort timeline", ""]
    if info.timeline:
        out.append(f"Each head from its approval cohort to its first eligible cohort; the audit date "
                   f"({info.today}, cohort {info.today_cohort}) and the next publications are marked.")
        by_model: dict[str, list[TimelineHead]] = {}
        for h in info.timeline:
            by_model.setdefault(h.model, []).append(h)
        for model, heads in by_model.items():
            out += ["", f"### {cell(model)}", "", gantt(model, heads, info), *_timeline_legend(heads), ""]
            verified = any(h.verified for h in heads)
            out += ["| head | method | approved | first eligible |" + (" in the checkpoint |" if verified else ""),
                    "|---|---|---|---|" + ("---|" if verified else "")]
            for h in heads:
                out.append(f"| `{cell(h.repository)}@{cell(h.revision[:12])}` | {cell(h.method or '')} "
                           f"| {h.approved} ({h.approved_date}) | {h.eligible} ({h.eligible_date}) |"
                           + (f" {cell(h.verified)} |" if verified else ""))
    else:
        out.append("No heads with a known approval cohort and lead time.")
    out.append("")

    head_text = "\n".join(out)
    table: list[str] = []
    if result.findings:
        table += ["## Findings", "", "| # | severity | rule | location | message | suggestion |",
                  "|---:|---|---|---|---|---|"]
    tail: list[str] = []
    if result.skipped:
        tail += ["", "## Skipped checks", ""]
        tail += [f"- {cell(s.code)}: {cell(s.reason)}" for s in result.skipped]
    if info.history:
        tail += ["", f"<sub>History: {info.history.get('commits_read', 0)} commits of the policy "
                     f"catalogs read{'' if info.history.get('complete') else ' (incomplete history)'}.</sub>"]
    tail.append("")
    size = len(head_text.encode()) + sum(len(x.encode()) + 1 for x in (*table, *tail))
    shown = 0
    for i, f in enumerate(by_severity_then_rule(result.findings), 1):
        row = finding_row(meta, f, i)
        n = len(row.encode()) + 1
        if max_bytes is not None and size + n + 400 > max_bytes:
            break
        table.append(row)
        size += n
        shown += 1
    if shown < len(result.findings):
        table += ["", f"> [!NOTE]\n> {len(result.findings) - shown} more of {len(result.findings)} "
                      "findings are not shown here; the JSON report has all of them."]
    return "\n".join([head_text, *table, *tail])


def audit_document(result, meta, info: AuditInfo) -> dict:
    from drafterlint.report.json_report import document

    doc = document(result, meta)
    new = {f.fingerprint for f in info.new}
    for f, d in zip(result.findings, doc["findings"]):
        d["link"] = line_link(meta, f)
        d["status"] = None if info.previous is None else ("new" if f.fingerprint in new else "still-open")
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
        },
        "timeline": [h.__dict__ for h in info.timeline],
        "not_checked": info.not_checked,
        "history": info.history,
    }
    return doc
