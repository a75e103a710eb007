"""SARIF 2.1.0, for GitHub code scanning (`github/codeql-action/upload-sarif`) and other viewers.

One run; `tool.driver.rules` lists every rule (id = the stable code, help = the rule's own
documentation), each result points at a repository-relative path with `uriBaseId` RULES or
REGISTRY (resolved through `originalUriBaseIds` when the local roots are known) — or, when one
repository is under change (drafterlint.scope), only that repository's results, each relative
to `%SRCROOT%` as code scanning expects of the uploading repository — and carries
our own line-independent fingerprint under `partialFingerprints["drafterlint/v1"]`, so code
scanning keeps an alert's identity when unrelated edits move it. Checks that could not run are
tool execution notifications, not results.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from drafterlint.findings import RuleInfo, Severity
from drafterlint.safeio import visible

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/drafterlint/"
FINGERPRINT = "drafterlint/v1"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_BASE_ID = {"rules": "RULES", "registry": "REGISTRY"}


def base_id(repo: str) -> str:
    return _BASE_ID.get(repo, repo.upper().replace("-", "_") or "REPO")


def _first_paragraph(text: str) -> str:
    return " ".join(text.split("\n\n", 1)[0].split())


def rule_descriptor(r: RuleInfo) -> dict:
    doc = r.doc
    # The docstring opens "DL201 broken-fragment — <what it means>"; drop the code and name.
    first = _first_paragraph(doc)
    for sep in (" — ", " - "):
        head, found, rest = first.partition(sep)
        if found and r.code in head:
            first = rest
            break
    return {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": first or r.summary},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": _LEVEL[r.severity]},
        "properties": {"tags": ["drafterlint", r.code[:3] + "xx"], "needs": list(r.needs)},
    }


def _uri(path: str) -> str:
    return quote(path, safe="/-._~")


SRCROOT = "%SRCROOT%"


def physical(loc, single: str | None = None) -> dict:
    """`single`: the one repository under change, whose root is %SRCROOT%."""
    base = SRCROOT if single is not None and loc.repo == single else base_id(loc.repo)
    return {
        "artifactLocation": {"uri": _uri(loc.path), "uriBaseId": base},
        "region": {"startLine": max(1, loc.line), "startColumn": max(1, loc.column)},
    }


def result_entry(f, index: dict[str, int], single: str | None = None, compared: bool = False) -> dict:
    text = f.message if not f.suggestion else f"{f.message} ({f.suggestion})"
    entry = {
        "ruleId": f.code,
        "level": _LEVEL[f.severity],
        # A viewer shows the text as it is: a bidi control in it would reorder what people read.
        "message": {"text": visible(text)},
        "locations": [{"physicalLocation": physical(f.location, single)}],
        "partialFingerprints": {FINGERPRINT: f.fingerprint},
    }
    if f.code in index:
        entry["ruleIndex"] = index[f.code]
    if compared:  # against a base ref or a baseline file
        entry["baselineState"] = "unchanged" if f.baseline else "new"
    # Written for one repository, a place in the other would name a path it does not have.
    related = [loc for loc in f.related if single is None or loc.repo == single]
    if related:
        entry["relatedLocations"] = [
            {"id": i, "physicalLocation": physical(loc, single), "message": {"text": "related location"}}
            for i, loc in enumerate(related, 1)
        ]
    return entry


def _root_uri(root) -> str:
    uri = Path(root).resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def document(result, meta) -> dict:
    # Written for upload: only the repository under change, paths relative to its root.
    single = meta.scope.single
    rules = [rule_descriptor(r) for r in meta.rules]
    index = {r.code: i for i, r in enumerate(meta.rules)}
    # A finding from a rule that is not a module (should not happen) still gets a descriptor.
    for f in result.findings:
        if f.code not in index:
            index[f.code] = len(rules)
            rules.append({"id": f.code, "name": f.name, "shortDescription": {"text": f.name}})
    run: dict = {
        "tool": {
            "driver": {
                "name": "drafterlint",
                "version": meta.version,
                "semanticVersion": meta.version,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": [
            result_entry(f, index, single, compared=meta.baseline_source is not None)
            for f in result.findings
            if single is None or f.location.repo == single
        ],
    }
    roots = {
        (SRCROOT if repo == single else base_id(repo)): {"uri": _root_uri(root)}
        for repo, root in meta.local_roots.items()
        if root is not None and (single is None or repo == single)
    }
    if roots:
        run["originalUriBaseIds"] = roots
    notes = [
        {
            "level": "note",
            "message": {"text": visible(f"skipped {s.code}: {s.reason}")},
            "descriptor": {"id": s.code.split(",")[0]},
        }
        for s in result.skipped
    ]
    run["invocations"] = [
        {"executionSuccessful": True, **({"toolExecutionNotifications": notes} if notes else {})}
    ]
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(result, meta) -> str:
    from drafterlint.safeio import json_safe

    return json_safe(json.dumps(document(result, meta), indent=2, ensure_ascii=False)) + "\n"
