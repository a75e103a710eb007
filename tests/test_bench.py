"""bench/bench.py says what it measured: its header names the tree cases' pairs only when one ran.
(Its figures are never asserted: no test is timed.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT


def header(tmp_path: Path, *args: str) -> str:
    """The first paragraph bench.py prints, run on a snapshot of two small repositories."""
    snapshot = tmp_path / "snapshot"
    for repo in ("endpoints_policies", "endpoints"):
        (snapshot / repo).mkdir(parents=True)
    (snapshot / "endpoints_policies" / "endpoints_rules.md").write_text("# Rules\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench.py"), "--snapshot", str(snapshot),
         "--drafterlint", str(Path(sys.executable).parent / "drafterlint"), "--floor-python", sys.executable, *args],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.split("\n\n")[0]


def test_the_header_names_the_tree_cases_pairs_only_when_one_ran(tmp_path):
    none = header(tmp_path / "none", "--only", "tree", "--tree-files", "0")
    assert none.endswith("median of 7 alternating pairs (A = drafterlint; B as named)"), none
    ran = header(tmp_path / "ran", "--only", "tree", "--tree-files", "8", "--tree-runs", "1")
    assert ran.endswith("B as named), 1 alternating pairs of each tree case"), ran
