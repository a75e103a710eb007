"""`path:line:col: CODE name: message` — one line a finding, the format editors understand.

Written for a person at a terminal or reading a pre-commit log, so it is quiet by default: the
errors and warnings of the repository under change, one line each; the rest collapses into one
summary line per kind (infos, the other repository's findings, checks that could not run), each
saying how to see it. ``-v`` shows everything, ``--show-info`` the infos, ``-q`` only the
summary line and why the run fails; ``--statistics`` adds the count per rule. Paths are
relative to the working directory, or carry their repository's name (ReportMeta.display_path).
"""

from __future__ import annotations

from collections import Counter

from drafterlint.findings import Severity
from drafterlint.report import (
    Group,
    by_cause,
    elsewhere_line,
    group_line,
    leading_first,
    new_and_preexisting,
    one_line,
    plural,
    preexisting_lines,
    summary_counts,
)

# A skipped check's reason -> what it needs, short enough for one summary line.
_NEEDS = (
    ("no rules repository", "the rules repository"),
    ("no reference repository", "the reference repository"),
    ("needs git history", "`drafterlint audit`"),
    ("needs a date", "`drafterlint audit`"),
    ("needs the network", "`drafterlint audit --online`"),
)


def finding_line(meta, f) -> str:
    line = f"{meta.display_path(f)}:{f.location.line}:{f.location.column}: {f.code} {f.name}: {f.message}"
    if f.severity is not Severity.ERROR:
        line += f" [{f.severity}]"
    if f.suggestion:
        line += f" ({f.suggestion})"
    return line


def group_lines(meta, group, verbose: bool) -> list[str]:
    """A cause and where it broke things: each file once, with the line:column of every place
    (-v: every finding's own line)."""
    lines = [group_line(group, meta.fix_hint)]
    if verbose:
        return lines + [f"  {finding_line(meta, f)}" for f in group.findings]
    per_file: dict[str, list] = {}
    for f in group.findings:
        per_file.setdefault(meta.display_path(f), []).append(f)
    for path, found in per_file.items():
        places = ", ".join(f"{f.location.line}:{f.location.column}" for f in found)
        lines.append(f"  {path}:{places} ({', '.join(sorted({f.code for f in found}))})")
    return lines


def skipped_line(skipped) -> str:
    """ "5 checks skipped: 3 need the reference repository, 2 need `drafterlint audit` (-v lists them)" """
    needs: Counter = Counter()
    other: list[str] = []
    for s in skipped:
        label = next((need + _detail(s.reason, start) for start, need in _NEEDS if s.reason.startswith(start)), None)
        if label is None:
            other.append(f"{s.code}: {s.reason.split(': ')[0]}")
        needs[label] += len(s.code.split(","))
    parts = [f"{n} need{'s' if n == 1 else ''} {label}" for label, n in needs.items() if label is not None]
    listed = "; ".join(p for p in (", ".join(parts), "; ".join(other)) if p)
    return f"{plural(sum(needs.values()), 'check')} skipped: {listed} (-v lists them)"


def _detail(reason: str, start: str) -> str:
    """ " (registry.path `../endpoints` does not exist)" from "no reference repository: …" """
    rest = reason[len(start):]
    return f" ({rest[2:]})" if rest.startswith(": ") else ""


def statistics_lines(findings) -> list[str]:
    """Count per rule, most frequent first (ties by code), as flake8 --statistics prints them."""
    by_rule = Counter((f.code, f.name, f.severity) for f in findings)
    ordered = sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0][0]))
    return [f"{n:<5} {code} {name} [{sev}]" for (code, name, sev), n in ordered]


def counts_line(findings) -> str:
    c = summary_counts(findings)
    return f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info"


def failure_reason(meta, mine, others) -> str | None:
    failing = [f for f in mine if f.severity >= meta.fail_on]
    if not failing:
        return None
    single = meta.scope.single
    where = f" in {meta.name_of(single)}" if single and all(f.location.repo == single for f in failing) else ""
    verdict = "would fail (--exit-zero)" if meta.exit_zero else "fails"
    reason = f"{verdict}: {plural(len(failing), 'finding')}{where} at or above --fail-on {meta.fail_on}"
    if others:
        reason += f"; the {plural(len(others), 'finding')} in other repositories do not count"
    return reason


def render(result, meta) -> str:
    mine, others = meta.scope.split(result.findings)
    mine, preexisting = new_and_preexisting(mine)
    verbose = meta.verbosity > 0
    show_info = verbose or meta.show_info
    out: list[str] = []
    if meta.verbosity >= 0:
        shown = [f for f in mine if show_info or f.severity > Severity.INFO]
        for item in leading_first(by_cause(shown)):
            out += group_lines(meta, item, verbose) if isinstance(item, Group) else [finding_line(meta, item)]
        hidden_infos = len(mine) - len(shown)
        if meta.statistics:
            out += statistics_lines(mine if not verbose else result.findings)
        if hidden_infos:
            out.append(f"{hidden_infos} info{'' if hidden_infos == 1 else 's'} not shown: --show-info")
        out += preexisting_lines(meta, preexisting)
        for name, group in meta.elsewhere(others):
            if verbose:
                out.append(f"{elsewhere_line(name, group)}:")
                out += [finding_line(meta, f) for f in group]
            else:
                out.append(f"{elsewhere_line(name, group)}: -v shows them")
        if verbose:
            out += [f"skipped {s.code}: {s.reason}" for s in result.skipped]
        elif result.skipped:
            out.append(skipped_line(result.skipped))
    elif meta.statistics:
        out += statistics_lines(mine)
    out.append(counts_line(mine))
    reason = failure_reason(meta, mine, others)
    if reason:
        out.append(reason)
        if meta.baseline_source is None and meta.adoption_hint and meta.verbosity >= 0:
            out.append(meta.adoption_hint)
    # One finding a line, whatever its file name or the YAML value it quotes holds.
    return "\n".join(one_line(line) for line in out) + "\n"
