#!/usr/bin/env python3
"""What large tables cost `drafterlint check`: the hostile table cases, each run several times
(median wall, CPU and peak memory), against the budget of 2 s and 150 MB per case on an idle
machine. The test suite (tests/test_hostile_tables.py) only guards the same cases against hangs.

    python bench/tables.py --drafterlint VENV/bin/drafterlint [--runs 5]

Each case is a rules document: a few headings, one pipe table of 1-character cells, then a
section with a broken link (which must still be reported: the rest of the document is checked).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import machine, run_once

CASES = [(1000, 2900), (1000, 1000), (30, 30_000), (10_000, 100), (290, 100)]
BUDGET_S, BUDGET_MIB = 2.0, 150.0
HEAD = "# Rules\n\n## 2. Models\n\n### 2.9 Model Equivalence Rules\n\n#### 2.9.4 Speculative Decoding\n\n"
AFTER = "\n## After\n\nSee [gone](#no-such-section).\n"


def document(rows: int, columns: int) -> str:
    line = "|" + "|".join(["a"] * columns) + "|\n"
    return HEAD + line + "|" + "-|" * columns + "\n" + line * rows + AFTER


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drafterlint", type=Path, required=True, help="console script of an installed drafterlint")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    work = Path(tempfile.mkdtemp(prefix="drafterlint-tables-"))
    env["DRAFTERLINT_CACHE"] = str(work / "cache")
    print(f"drafterlint table bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"command: `python bench/tables.py {' '.join(sys.argv[1:])}`; median of {args.runs} runs, --no-cache\n")
    print("| table (rows x columns) | size (MiB) | wall (s) | CPU (s) | peak (MiB) | within 2 s / 150 MB |")
    print("|---|---|---|---|---|---|")
    for rows, columns in CASES:
        d = work / f"t{rows}x{columns}"
        d.mkdir()
        (d / "endpoints_rules.md").write_text(document(rows, columns), encoding="utf-8")
        cmd = [str(args.drafterlint), "check", "--no-cache", "--rules-repo", str(d), "--select", "DL201,DL702", "--format", "json"]
        run_once(cmd, d, env)
        samples = [run_once(cmd, d, env) for _ in range(args.runs)]
        wall = statistics.median(s.wall for s in samples)
        cpu = statistics.median(s.cpu for s in samples)
        peak = max(s.peak_mib for s in samples)
        size = (d / "endpoints_rules.md").stat().st_size / 2**20
        ok = "yes" if wall < BUDGET_S and peak < BUDGET_MIB else "NO"
        print(f"| {rows} x {columns} | {size:.1f} | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {ok} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
