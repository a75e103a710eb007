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
from collections.abc import Iterable, Iterator
from dataclasses import field, replace
from pathlib import Path

from drafterlint.findings import Finding, InputError
from drafterlint.records import dataclass
from drafterlint.unchecked import Blind, unreadable_code


@dataclass(frozen=True)
class Known:
    """A finding known before: one line of the baseline (or of the base's run)."""

    fingerprint: str
    group: str
    code: str = ""  # "" in a hand-written baseline line: then it is never taken for unchecked
    path: str = ""


@dataclass(frozen=True)
class Matched:
    """The run's findings matched against the known ones."""

    findings: list[Finding]  # the run's findings, pre-existing ones marked `baseline=True`
    fixed: int  # known findings that no longer occur
    # Known findings that no longer occur but that the run could not have seen (drafterlint.
    # unchecked): how many, per why; never counted fixed.
    unchecked: dict[str, int] = field(default_factory=dict)


def known_of(findings: Iterable[Finding]) -> list[Known]:
    return [Known(f.fingerprint, f.group, f.code, f.location.path) for f in findings]


def match(findings: list[Finding], known: Iterable[Known], blind: Blind | None = None) -> Matched:
    """`blind`: what the run of `findings` could not look at; without it a known finding that
    no longer occurs is fixed."""
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
    unchecked: Counter[str] = Counter()
    if blind:
        code_of = {k.group: k.code for k in known if k.code}
        for group, n in groups.items():
            why = blind.why(code_of[group]) if n and group in code_of else None
            if why is not None:
                unchecked[why] += n
                groups[group] = 0
    return Matched(out, sum(groups.values()), dict(unchecked))


def unreadable_of(known: Iterable[Known]) -> set[str]:
    """The paths the known findings say could not be read (their DL702)."""
    unreadable = unreadable_code()
    return {k.path for k in known if k.code == unreadable}


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
    for number, row in baseline_rows(text):
        if isinstance(row, str):
            raise InputError(row, str(path), number)
        known.append(row)
    return known


def baseline_rows(text: str) -> Iterator[tuple[int, "Known | str"]]:
    """(line number, what it records or why it records nothing) of each line of a baseline
    file's `text` that is not blank: the one reading of its lines, the run's and DL901's. A line
    ends at "\n" only: a message may hold U+2028 or \x85 as it is (json.dumps leaves them)."""
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            yield number, f"not a baseline line (one JSON object a line): {exc}"
            continue
        if not isinstance(row, dict) or not isinstance(row.get("fingerprint"), str):
            yield number, ("a baseline line needs a \"fingerprint\" string (write the file with "
                           "`drafterlint baseline`)")
            continue
        group, code, where = row.get("group"), row.get("code"), row.get("path")
        yield number, Known(row["fingerprint"], group if isinstance(group, str) else "",
                            code if isinstance(code, str) else "", where if isinstance(where, str) else "")


def marked_by(findings: Iterable[Finding], kept: Iterable[Known], added: Iterable[Known]) -> list[Finding]:
    """The findings a baseline file marks pre-existing with the lines `added` to it and would not
    with the lines `kept` alone: matched as the run matches (by fingerprint, then by group)."""
    fresh = [replace(f, baseline=False) for f in findings]
    kept = list(kept)
    before = match(fresh, kept).findings
    after = match(fresh, [*kept, *added]).findings
    return [f for f, was in zip(after, before) if f.baseline and not was.baseline]
