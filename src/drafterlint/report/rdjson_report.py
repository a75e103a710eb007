"""reviewdog's Diagnostic Format (rdjson: one `DiagnosticResult`), for projects that already run
reviewdog (`reviewdog -f=rdjson -reporter=github-pr-review`): its filter modes, and one-click
"Commit suggestion" comments for every finding `fix` can mend.

Each diagnostic carries the severity, the rule's code with the address of its documentation, the
place (path relative to the working directory, where reviewdog runs; line; column counted in
UTF-8 bytes, as the format counts), and for a fixable finding the `suggestions` that `fix` itself
makes: the same edits (drafterlint.fix.edits.Replacement), so applying every suggestion gives the
files `drafterlint fix` with the same options writes. As in the annotations and SARIF, only the
repository under change is reported, and with a base (`--base-ref`, a baseline file) only the
findings the change introduces: reviewdog comments on the pull request's diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from drafterlint.findings import RULE_DOCS_URL, Severity
from drafterlint.report import markdown_writer
from drafterlint.report.github_report import annotation_path, message_of
from drafterlint.report.sarif_report import INFORMATION_URI

_SEVERITY = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}


class _Columns:
    """Character columns as UTF-8 byte columns, each file read once (None: not readable as
    `fix` reads it; its columns are then given as they are, exact for ASCII lines)."""

    def __init__(self, meta):
        self.meta = meta
        self.files: dict[tuple[str, str], object] = {}

    def byte_column(self, loc) -> int:
        from drafterlint.fix.edits import Refused, SourceFile, read_for_fix

        key = (loc.repo, loc.path)
        if key not in self.files:
            root = self.meta.local_roots.get(loc.repo)
            try:
                self.files[key] = SourceFile(read_for_fix(Path(root), loc.path)) if root is not None else None
            except (OSError, Refused):
                self.files[key] = None
        src = self.files[key]
        if src is None:
            return max(1, loc.column)
        try:
            return src.byte_column(loc.line, loc.column)  # type: ignore[attr-defined]
        except Refused:
            return max(1, loc.column)


def _range(line: int, start: int, end: int | None = None) -> dict:
    rng: dict = {"start": {"line": line, "column": start}}
    if end is not None:
        rng["end"] = {"line": line, "column": end}
    return rng


def diagnostic(f, meta, columns: _Columns, where: Path) -> dict:
    entry: dict = {
        "message": markdown_writer.message(message_of(f)),
        "location": {"path": annotation_path(meta, f, where),
                     "range": _range(f.location.line, columns.byte_column(f.location))},
        "severity": _SEVERITY[f.severity],
        "code": {"value": f.code, "url": RULE_DOCS_URL.format(code=f.code)},
    }
    replacements = meta.suggestions.get(f.spot, ())
    if replacements:
        entry["suggestions"] = [{"range": _range(r.line, r.start, r.end), "text": r.text} for r in replacements]
    return entry


def document(result, meta) -> dict:
    mine = [f for f in meta.scope.split(result.findings)[0] if not f.baseline]
    columns = _Columns(meta)
    where = (meta.cwd or Path.cwd()).resolve()
    return {
        "source": {"name": "drafterlint", "url": INFORMATION_URI},
        "diagnostics": [diagnostic(f, meta, columns, where) for f in mine],
    }


def render(result, meta) -> str:
    from drafterlint.safeio import json_safe

    return json_safe(json.dumps(document(result, meta), indent=2, ensure_ascii=False)) + "\n"
