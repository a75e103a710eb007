"""A Markdown report: a verdict, counts by severity and by rule, and a table of every finding.

GitHub renders it as a job summary, a PR comment or a file in an audit; lines link to the
exact commit when the report knows the repository and ref (`meta.github`). `render_markdown`
can cap the size (a job summary must stay under 1 MiB): rows that do not fit are counted in a
note instead.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import quote

from drafterlint.findings import LEADING_CODES, REPORT_MARKER
from drafterlint.report import (
    Group,
    by_cause,
    elsewhere_line,
    group_line,
    leading_first,
    new_and_preexisting,
    preexisting_lines,
    summary_counts,
)
from drafterlint.report.markdown_writer import code, html, link, message, text

ICON = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}
ORDER = ("error", "warning", "info")
ELSEWHERE_ROWS = 100  # rows per folded section of the other repository's findings


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def counts_line(counts: dict[str, int]) -> str:
    return ", ".join(
        (_plural(counts["error"], "error"), _plural(counts["warning"], "warning"), f"{counts['info']} info")
    )


def verdict(counts: dict[str, int]) -> str:
    if counts["error"]:
        return f"❌ **{_plural(counts['error'], 'error')}** — the check fails"
    if counts["warning"]:
        return f"⚠️ no errors, **{_plural(counts['warning'], 'warning')}**"
    return "✅ no errors or warnings"


def line_link(meta, f) -> str | None:
    gh = (getattr(meta, "github", None) or {}).get(f.location.repo)
    if not gh:
        return None
    name, ref = gh
    # Quoted: a space, `)` or line break in a file name would end the link's destination.
    return f"https://github.com/{name}/blob/{ref}/{quote(f.location.path)}#L{f.location.line}"


def location_cell(meta, f) -> str:
    where = f"{f.location.path}:{f.location.line}:{f.location.column}"
    if len({*getattr(meta, "roots", {})}) > 1:
        where = f"{f.location.repo}: {where}"
    return link(code(where, table=True), line_link(meta, f))


def finding_row(meta, f, index: int) -> str:
    sev = str(f.severity)
    return (
        f"| {index} | {ICON[sev]} {sev} | {code(f.code, table=True)} {f.name} | {location_cell(meta, f)} "
        f"| {message(f.message, table=True)} | {message(f.suggestion, table=True)} |"
    )


def group_section(meta, group, h: str) -> list[str]:
    """A cause as one section: what the change did, how many places it broke and what mends
    them all, the places folded (each a link to its line) — instead of a row per place."""
    worst = str(max(f.severity for f in group.findings))
    codes = ", ".join(code(c) for c in sorted({f.code for f in group.findings}))
    n = len(group.findings)
    lines = [f"{h}# {ICON[worst]} One change broke {n} links ({codes})", "",
             message(group_line(group, meta.fix_hint)), "",
             "<details>", f"<summary>The {n} links</summary>", "",
             "| # | location | rule |", "|---:|---|---|"]
    lines += [f"| {i} | {location_cell(meta, f)} | {code(f.code, table=True)} {f.name} |"
              for i, f in enumerate(group.findings[:ELSEWHERE_ROWS], 1)]
    if n > ELSEWHERE_ROWS:
        lines += ["", f"{n - ELSEWHERE_ROWS} more are in the JSON report."]
    return [*lines, "", "</details>", ""]


def skipped_lines(skipped) -> list[str]:
    """One list item per check that could not run, and why."""
    return [f"- {text(s.code)}: {message(s.reason)}" for s in skipped]


_TABLE = ("| # | severity | rule | location | message | suggestion |", "|---:|---|---|---|---|---|")


def render_markdown(
    result,
    meta,
    *,
    title: str = "drafterlint report",
    findings=None,
    max_bytes: int | None = None,
    heading_level: int = 2,
) -> str:
    """The report; `findings` reorders or narrows the table (default: result.findings).

    Counts, verdict and table cover the repository under change (meta.scope); the findings of
    the other repository follow in one folded section per repository, after the table."""
    mine, others = meta.scope.split(result.findings)
    mine, preexisting = new_and_preexisting(mine)
    findings = new_and_preexisting(meta.scope.split(result.findings if findings is None else findings)[0])[0]
    counts = summary_counts(mine)
    h = "#" * heading_level
    head: list[str] = [
        REPORT_MARKER,
        f"{h} {title}",
        "",
        f"{verdict(counts)} · {counts_line(counts)} · drafterlint {meta.version}",
        "",
    ]
    if mine:
        head += ["| severity | count |", "|---|---:|"]
        head += [f"| {ICON[s]} {s} | {counts[s]} |" for s in ORDER if counts[s]]
        head.append("")
        by_rule = Counter((f.code, f.name, str(f.severity)) for f in mine)
        head += ["| rule | name | severity | count |", "|---|---|---|---:|"]
        for (rule, name, sev), n in sorted(by_rule.items(), key=lambda kv: (
                kv[0][0] not in LEADING_CODES, ORDER.index(kv[0][2]), kv[0][0])):
            head.append(f"| {code(rule, table=True)} | {name} | {sev} | {n} |")
        head.append("")
    tail: list[str] = []
    # Pre-existing findings first among the folded ones: they are this repository's.
    folded = ([(" · ".join(preexisting_lines(meta, preexisting)), preexisting)] if preexisting else []) + [
        (elsewhere_line(name, group), group) for name, group in meta.elsewhere(others)]
    if (meta.baseline_fixed or meta.baseline_unchecked) and not preexisting:
        head += [message(line) for line in preexisting_lines(meta, preexisting)] + [""]
    for label, group in folded:
        tail += ["", "<details>", f"<summary>{html(label)}</summary>", "",
                 "| # | severity | rule | location | message | suggestion |", "|---:|---|---|---|---|---|"]
        tail += [finding_row(meta, f, i) for i, f in enumerate(group[:ELSEWHERE_ROWS], 1)]
        if len(group) > ELSEWHERE_ROWS:
            tail += ["", f"{len(group) - ELSEWHERE_ROWS} more are in the JSON report."]
        tail += ["", "</details>"]
    if result.skipped:
        tail += ["", f"{h}# Skipped checks", "", *skipped_lines(result.skipped)]
    tail.append("")

    # What one cause broke is one section before the table (a rename: one, not a row per link);
    # a weakened check is listed before those, in rows of its own.
    items = leading_first(by_cause(findings))
    findings = [f for f in items if not isinstance(f, Group)]
    groups = [g for g in items if isinstance(g, Group)]
    ahead = [f for f in findings if f.code in LEADING_CODES] if groups else []
    if ahead:
        head += [f"{h}# The check itself was changed", "", *_TABLE,
                 *(finding_row(meta, f, i) for i, f in enumerate(ahead, 1)), ""]
        findings = findings[len(ahead):]
    for group in groups:
        head += group_section(meta, group, h)
    body: list[str] = []
    if findings:
        body += [f"{h}# Findings", "", *_TABLE]
    size = sum(len(x.encode("utf-8")) + 1 for x in (*head, *body, *tail))
    reserve = 400  # room for the note on what was left out
    shown = 0
    for i, f in enumerate(findings, 1):
        row = finding_row(meta, f, i)
        n = len(row.encode("utf-8")) + 1
        if max_bytes is not None and size + n + reserve > max_bytes:
            break
        body.append(row)
        size += n
        shown += 1
    if shown < len(findings):
        body += [
            "",
            f"> [!NOTE]\n> {len(findings) - shown} more of {len(findings)} findings are not shown: "
            f"this report is limited to {max_bytes} bytes. The JSON report has all of them.",
        ]
    return "\n".join([*head, *body, *tail])


def render(result, meta) -> str:
    return render_markdown(result, meta, heading_level=1)
