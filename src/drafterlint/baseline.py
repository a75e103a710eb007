"""Telling pre-existing findings from new ones: by fingerprint, against the findings of the merge
base (`check --base-ref`) or of a baseline file (`drafterlint baseline`).

A finding is pre-existing when a known finding has its fingerprint. One that matches no
fingerprint is still pre-existing when a known finding of the same *group* (code, file and key:
the same defect on the same target) is left unmatched: a heading renamed around an old broken
link changes the link's section, not the defect. Whatever known findings are left after that no
longer occur: they were fixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from drafterlint.findings import Finding


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
    by_group: set[int] = set()
    for f in left:
        if groups[f.group]:
            groups[f.group] -= 1
            by_group.add(id(f))
    out = [replace(f, baseline=True) if exact[f.fingerprint] or id(f) in by_group else f for f in findings]
    return Matched(out, sum(groups.values()))
