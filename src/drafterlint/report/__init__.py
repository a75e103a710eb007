"""Reports: findings in, text out. Each format is a module with `render(result, meta) -> str`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

FORMATS = ("text", "json", "github", "sarif", "markdown")


@dataclass
class ReportMeta:
    version: str
    # Per repository name ("rules", "registry"): the root as given, for messages and links.
    roots: dict[str, str] = field(default_factory=dict)
    # Per repository name: (owner/repo, commit or ref) so reports can link to exact lines.
    github: dict[str, tuple[str, str]] = field(default_factory=dict)


def render(result, fmt: str, meta: ReportMeta) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    module = importlib.import_module(f"drafterlint.report.{fmt}_report")
    return module.render(result, meta)


def summary_counts(findings) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[str(f.severity)] += 1
    return counts
