"""`path:line:col: CODE name: message` — one line a finding, the format editors understand."""

from __future__ import annotations

from drafterlint.report import summary_counts


def render(result, meta) -> str:
    out = []
    multi_repo = len({f.location.repo for f in result.findings}) > 1 or len(meta.roots) > 1
    for f in result.findings:
        path = f.location.path
        if multi_repo and f.location.repo in meta.roots:
            path = f"{meta.roots[f.location.repo].rstrip('/')}/{path}"
        line = f"{path}:{f.location.line}:{f.location.column}: {f.code} {f.name}: {f.message}"
        if f.severity.name != "ERROR":
            line += f" [{f.severity}]"
        if f.suggestion:
            line += f" ({f.suggestion})"
        out.append(line)
    for s in result.skipped:
        out.append(f"skipped {s.code}: {s.reason}")
    c = summary_counts(result.findings)
    out.append(f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info")
    return "\n".join(out) + "\n"
