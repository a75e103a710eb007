"""GitHub Actions workflow commands: annotations on the pull request's lines, and a job summary.

    ::error file=endpoints_rules.md,line=12,col=5,title=DL201 broken-fragment::message

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and drops the rest
without a word (actions/toolkit, docs/problem-matchers.md, "Limitations"; 50 per job). So new
findings are annotated before pre-existing ones (which are notices), the most severe first (and,
when the base ref is known, those on lines the pull request changed before the others); a kind
with more than ten keeps its tenth place for a line of that kind saying how many more there are;
and — when `GITHUB_STEP_SUMMARY` is set — the complete list is appended there as a Markdown
table, kept under the summary's 1 MiB limit.

`file=` is relative to `GITHUB_WORKSPACE` (or the working directory) when the repository lies
inside it, so annotations land on the right file even when the other repository is checked out
into a subfolder.
"""

from __future__ import annotations

import os
from pathlib import Path

from drafterlint.findings import Severity

PER_LEVEL = 10  # annotations GitHub shows per level and step
SUMMARY_LIMIT = 1024 * 1024  # bytes per step summary
_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

_summarised: set[int] = set()  # results whose summary this process already appended


def escape_data(text: str) -> str:
    """A workflow-command message, escaped as actions/toolkit's escapeData does (the runner
    unescapes exactly %25, %0D and %0A), the other controls and the disguising characters shown
    as the one escape shows them (safeio.visible)."""
    from drafterlint.safeio import visible

    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A workflow-command property value, escaped as actions/toolkit's escapeProperty does."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties) -> str:
    """The one builder of the workflow commands drafterlint means to emit: every property value
    and the message escaped as the runner unescapes them, so none can end the command early or
    start another."""
    props = ",".join(
        f"{key}={escape_property(str(value))}" for key, value in properties.items() if value is not None
    )
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def _workspace() -> Path:
    ws = os.environ.get("GITHUB_WORKSPACE")
    return Path(ws).resolve() if ws else Path.cwd().resolve()


def annotation_path(meta, f, workspace: Path | None = None) -> str:
    """The finding's file relative to the workspace when its repository lies inside it."""
    workspace = workspace or _workspace()
    root = meta.local_roots.get(f.location.repo)
    if root is None:
        return f.location.path
    full = (Path(root).resolve() / f.location.path)
    try:
        return full.relative_to(workspace).as_posix()
    except ValueError:
        return f.location.path


def prioritised(findings, changed: dict[str, dict[str, set[int]]]) -> list:
    """New findings before pre-existing ones; a weakened check (findings.LEADING_CODES) first;
    most severe first; within a level, findings on changed lines first; then by place."""
    from drafterlint.findings import LEADING_CODES


    def on_changed(f) -> bool:
        return f.location.line in changed.get(f.location.repo, {}).get(f.location.path, ())

    return sorted(findings, key=lambda f: (f.baseline, f.code not in LEADING_CODES, -int(f.severity),
                                           not on_changed(f), f.sort_key()))


def message_of(f) -> str:
    return f"{f.message} ({f.suggestion})" if f.suggestion else f.message


def kind_of(f) -> str:
    """The workflow command a finding is annotated with: a pre-existing one is a notice, so it
    never reads as something this change must fix."""
    return "notice" if f.baseline else _COMMAND[f.severity]


_KINDS = ("error", "warning", "notice")
_NOUNS = {"error": "error", "warning": "warning", "notice": "notice"}


def annotation_lines(result, meta, ordered=None) -> tuple[list[str], dict[str, list]]:
    """The annotation lines, and per kind the findings left unannotated (in priority order).

    GitHub shows PER_LEVEL annotations of each kind per step and drops the rest without a word.
    So each kind gets its ten in priority order (new findings before pre-existing ones, which
    are notices), and when a kind has more than ten, its tenth place goes to a line of that
    kind saying how many more there are and where they are listed.

    Only the repository under change is annotated: GitHub cannot place the other one's files
    on this diff, and they would take the places the real ones need."""
    if ordered is None:
        ordered = prioritised(result.findings, meta.changed)
    ordered = meta.scope.split(ordered)[0]
    by_kind: dict[str, list] = {k: [] for k in _KINDS}
    for f in ordered:
        by_kind[kind_of(f)].append(f)
    shown: set[int] = set()
    rest: dict[str, list] = {}
    for kind, group in by_kind.items():
        room = PER_LEVEL if len(group) <= PER_LEVEL else PER_LEVEL - 1
        shown.update(id(f) for f in group[:room])
        if group[room:]:
            rest[kind] = group[room:]
    workspace = _workspace()
    from drafterlint.report import Group, by_cause, member_message

    # One annotation a line (GitHub places them per line), each in its group's words.
    worded = {id(f): member_message(g, meta.fix_hint) for g in by_cause(ordered) if isinstance(g, Group)
              for f in g.findings}
    lines = [command(
        kind_of(f),
        worded.get(id(f)) or message_of(f),
        file=annotation_path(meta, f, workspace),
        line=f.location.line,
        col=f.location.column,
        title=f"{f.code} {f.name}",
    ) for f in ordered if id(f) in shown]
    return lines, rest


def more_line(kind: str, left: list, in_summary: bool, meta=None) -> str:
    """The line (itself an annotation of `kind`) that stands for the findings of that kind
    GitHub would not show."""
    from drafterlint.hints import ACTION_EVERY_FINDING

    where = ("see the job summary" if in_summary else ACTION_EVERY_FINDING if meta is not None and meta.in_action
             else "run with --format text or json to see every finding")
    old = sum(1 for f in left if f.baseline)
    what = f"{len(left)} more finding(s)" + (f" ({old} pre-existing)" if old else "")
    return command(kind, f"drafterlint: {what} were not annotated (GitHub shows at most {PER_LEVEL} "
                         f"{_NOUNS[kind]}s per step): {where}.", title="drafterlint: more findings")


def summary(result, meta, ordered, *, max_bytes: int) -> str:
    from drafterlint.report.markdown_report import render_markdown

    return render_markdown(
        result, meta, title="drafterlint", findings=ordered, max_bytes=max_bytes, heading_level=2
    )


def append_summary(result, meta, ordered) -> bool:
    """Append the Markdown summary to $GITHUB_STEP_SUMMARY (once per result); False if unset."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return False
    if id(result) in _summarised:
        return True
    try:
        used = os.path.getsize(path)
    except OSError:
        used = 0
    room = SUMMARY_LIMIT - used - 1024
    if room < 2048:
        return False
    text = summary(result, meta, ordered, max_bytes=room)
    from drafterlint.safeio import append_text

    if not append_text(path, text if text.endswith("\n") else text + "\n"):
        return False
    _summarised.add(id(result))
    return True


def render(result, meta) -> str:
    ordered = prioritised(result.findings, meta.changed)
    lines, rest = annotation_lines(result, meta, ordered)
    in_summary = append_summary(result, meta, ordered)
    commands = list(lines)
    commands += [more_line(kind, left, in_summary, meta) for kind, left in rest.items()]
    # Plain log lines (not commands): the other repository, what was skipped, and the totals.
    from drafterlint.report import elsewhere_line, new_and_preexisting, one_line, preexisting_lines, summary_counts

    mine, others = meta.scope.split(result.findings)
    mine, preexisting = new_and_preexisting(mine)
    out = [f"drafterlint: {line}" for line in preexisting_lines(meta, preexisting)]
    for name, group in meta.elsewhere(others):
        where = ("listed in the job summary" if in_summary else "the json-file output lists them" if meta.in_action
                 else "run with --format json to see them")
        out.append(f"drafterlint: {elsewhere_line(name, group)}: not annotated, {where}")
    for s in result.skipped:
        out.append(f"drafterlint: skipped {s.code}: {s.reason}")
    c = summary_counts(mine)
    out.append(f"drafterlint: {c['error']} error(s), {c['warning']} warning(s), {c['info']} info")
    failing = [f for f in mine if f.severity >= meta.fail_on]
    if failing and meta.baseline_source is None and meta.adoption_hint:
        out.append(f"drafterlint: {meta.adoption_hint}")
    # The commands are built escaped; every plain line goes through the one escape.
    return "\n".join([*commands, *(one_line(line) for line in out)]) + "\n"
