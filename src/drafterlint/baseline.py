"""Telling pre-existing findings from new ones: by fingerprint, against the findings of the merge
base (`check --base-ref`) or of a baseline file (`drafterlint baseline`).

A finding is pre-existing when a known finding has its fingerprint. One that matches no
fingerprint is still pre-existing when a known finding of the same *group* (code, file and key:
the same defect on the same target) is left unmatched: a heading renamed around an old broken
link changes the link's section, not the defect. Whatever known findings are left after that no
longer occur: they were fixed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from drafterlint.findings import Finding, InputError


@dataclass(frozen=True)
class Known:
    fingerprint: str
    group: str


@dataclass(frozen=True)
class Matched:
    findings: list[Finding]  # the run's findings, pre-existing ones marked `baseline=True`
    fixed: int  # known findings that no longer occur


def known_of(findings: Iterable[Finding]) -> list[Known]:
    return [Known(f.fingerprint, f.group) for f in findings]


def match(findings: list[Finding], known: Iterable[Known]) -> Matched:
    known = list(known)
    exact = Counter(k.fingerprint for k in known)
    left = [f for f in findings if not exact[f.fingerprint]]
    matched_prints = {f.fingerprint for f in findings} & set(exact)
    groups = Counter(k.group for k in known if k.fingerprint not in matched_prints)
    groups.pop("", None)  # a hand-written line without a group matches by fingerprint only
    by_group: set[int] = set()
    for f in left:
        if f.group and groups[f.group]:
            groups[f.group] -= 1
            by_group.add(id(f))
    out = [replace(f, baseline=True) if exact[f.fingerprint] or id(f) in by_group else f for f in findings]
    return Matched(out, sum(groups.values()))


# -- the baseline file (where it is: `baseline` in drafterlint.config.DEFAULTS) -----------------


def baseline_text(findings: Iterable[Finding]) -> str:
    """One JSON object a line, sorted by file, rule and fingerprint, so that the file reviews well
    in a diff and a second run writes the same bytes. `message` is for a person reading it."""
    rows = sorted(
        ({"fingerprint": f.fingerprint, "group": f.group, "code": f.code, "repo": f.location.repo,
          "path": f.location.path, "message": f.message} for f in findings),
        key=lambda r: (r["repo"], r["path"], r["code"], r["fingerprint"]),
    )
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)


def read_baseline(path: Path) -> list[Known]:
    """The known findings of a baseline file; InputError naming the file and line when it is not
    one (a usage error: the file is the user's, never rewritten here)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the baseline file: {exc}", str(path)) from None
    known = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise InputError(f"not a baseline line (one JSON object a line): {exc}", str(path), number) from None
        if not isinstance(row, dict) or not isinstance(row.get("fingerprint"), str):
            raise InputError("a baseline line needs a \"fingerprint\" string (write the file with "
                             "`drafterlint baseline`)", str(path), number)
        group = row.get("group")
        known.append(Known(row["fingerprint"], group if isinstance(group, str) else ""))
    return known
