"""The JSON contract that CI integrations and the audit read (DESIGN.md §3)."""

from __future__ import annotations

import json

from drafterlint.report import summary_counts


def finding_dict(f) -> dict:
    return {
        "code": f.code,
        "name": f.name,
        "severity": str(f.severity),
        "repo": f.location.repo,
        "path": f.location.path,
        "line": f.location.line,
        "column": f.location.column,
        "message": f.message,
        "suggestion": f.suggestion,
        "related": [
            {"repo": r.repo, "path": r.path, "line": r.line, "column": r.column} for r in f.related
        ],
        "fingerprint": f.fingerprint,
        "baseline": f.baseline,
    }


def document(result, meta) -> dict:
    """Every finding, in scope or not; `summary` counts them all.  `scope` says which repository
    is under change; its `summary` counts the findings that can fail the run (under change and
    new), its `preexisting` the ones under change that were there before (base ref, baseline)."""
    scope = meta.scope
    counted, preexisting = scope.counted(result.findings)
    findings = []
    for f in result.findings:
        d = finding_dict(f)
        d["in_scope"] = scope.covers(f)
        findings.append(d)
    return {
        "tool": "drafterlint",
        "version": meta.version,
        "findings": findings,
        "summary": summary_counts(result.findings),
        "scope": {
            "repositories": "all" if scope.repos is None else sorted(scope.repos),
            "decided_by": scope.how,
            "summary": summary_counts(counted),
            "preexisting": summary_counts(preexisting),
        },
        "skipped": [{"codes": s.code.split(","), "reason": s.reason} for s in result.skipped],
        **({"baseline": {"source": meta.baseline_source, "preexisting": sum(f.baseline for f in result.findings),
                         "fixed": meta.baseline_fixed,
                         "could_not_check": sum(meta.baseline_unchecked.values())}} if meta.baseline_source else {}),
    }


def render(result, meta) -> str:
    from drafterlint.safeio import json_safe

    return json_safe(json.dumps(document(result, meta), indent=2, ensure_ascii=False)) + "\n"
