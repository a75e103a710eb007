"""Triage for the differential test: the distinct minimal disagreements among N generated documents.

    python tests/gfm_triage.py [N]

Draws N documents from test_gfm_differential.py's strategy (derandomized, but not the test's own
draws: hypothesis seeds each test function apart, so these are other documents), shrinks each
disagreeing one (first whole lines, then runs of characters) to a smallest text that still
disagrees, and prints each distinct minimal text with how many documents shrank to it and what
differs.  Not a test: a tool for working through the classes before they become regressions.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, for `tests.`

from hypothesis import HealthCheck, given, settings

from tests import test_gfm_differential as diff


def _disagrees(text: str) -> bool:
    try:
        return bool(diff.disagreements(text))
    except Exception:  # a crash is a disagreement worth keeping
        return True


def shrink(text: str) -> str:
    lines = text.split("\n")
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            fewer = lines[:i] + lines[i + 1 :]
            if fewer and _disagrees("\n".join(fewer)):
                lines, changed = fewer, True
                break
    small = "\n".join(lines)
    for size in (8, 4, 2, 1):
        i = 0
        while i < len(small):
            cut = small[:i] + small[i + size :]
            if cut.strip() and _disagrees(cut):
                small = cut
            else:
                i += 1
    return small


def generated(count: int) -> list[str]:
    found: list[str] = []

    @settings(
        max_examples=count,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=["generate"],
    )
    @given(diff.documents)
    def draw(text: str) -> None:
        if _disagrees(text):
            found.append(text)

    draw()
    return found


def main(argv: list[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 2000
    bad = generated(count)
    classes = Counter(shrink(text) for text in bad)
    for text, n in sorted(classes.items(), key=lambda kv: (len(kv[0]), kv[0])):
        print(n, repr(text))
        try:
            for line in diff.disagreements(text):
                print("    ", line[:400])
        except Exception as exc:
            print("     crash:", type(exc).__name__, exc)
    print(f"{len(bad)} of {count} documents disagree, {len(classes)} minimal classes", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
