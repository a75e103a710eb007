#!/usr/bin/env python3
"""The hostile corpus against its budgets: each case's wall time and peak memory, flagged when
over the case's budget (5 s and 300 MB unless the case names its own), on this machine.

The cases are the tests of tests/test_hostile.py and tests/test_hostile_bounds.py (the inputs
that used to cost minutes or gigabytes: issue 24), and any other test that runs the command line
through tests/helpers/hostile.run_cli: this script runs them with pytest, one at a time, with
DRAFTERLINT_HOSTILE_RECORD pointing at a file where the runner appends one line per run, then
prints a Markdown table. The tests themselves only guard against hangs and blow-ups, so that a
busy machine cannot fail them; run this on an idle machine to see whether the budgets hold.

    python bench/hostile.py [--runs 3] [-k EXPR] [pytest paths...]

With `--runs N` each case runs N times and its fastest time and smallest peak are reported (the
nearest to an idle machine). Exit status: 0 all within budget, 1 some case over budget (or a
test failed), 2 nothing was measured.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(paths: list[str], keyword: str | None, record: Path) -> int:
    # -m "": every case, the slow ones too (the default run leaves them out).
    cmd = [sys.executable, "-m", "pytest", "-q", "-m", "", "-p", "no:cacheprovider", "-p", "no:randomly", *paths]
    if keyword:
        cmd += ["-k", keyword]
    env = dict(os.environ, DRAFTERLINT_HOSTILE_RECORD=str(record))
    return subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL).returncode


def summarize(lines: list[dict]) -> dict[str, dict]:
    """Per case of one pytest run: its commands' times add up, its peak is the largest."""
    cases: dict[str, dict] = {}
    for rec in lines:
        cur = cases.setdefault(rec["case"], {"seconds": 0.0, "peak_mb": 0.0, "killed": None,
                                             "budget_seconds": rec["budget_seconds"],
                                             "budget_mb": rec["budget_mb"]})
        cur["seconds"] += rec["seconds"]
        cur["peak_mb"] = max(cur["peak_mb"], rec["peak_mb"])
        cur["killed"] = cur["killed"] or rec["killed"]
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="run each case this many times; report the best")
    ap.add_argument("-k", dest="keyword", help="only the cases pytest -k selects")
    ap.add_argument("paths", nargs="*", default=["tests/test_hostile.py", "tests/test_hostile_bounds.py"])
    args = ap.parse_args(argv)

    runs: list[list[dict]] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="drafterlint-hostile-") as tmp:
        for n in range(args.runs):
            record = Path(tmp) / f"run-{n}.jsonl"
            record.touch()
            failed |= measure(args.paths, args.keyword, record) != 0
            runs.append([json.loads(line) for line in record.read_text().splitlines() if line])
    if not any(runs):
        print("no case ran the command line: nothing measured", file=sys.stderr)
        return 2

    cases: dict[str, dict] = {}
    for lines in runs:  # the best of the runs: the nearest to an idle machine
        for case, cur in summarize(lines).items():
            old = cases.setdefault(case, cur)
            old["seconds"] = min(old["seconds"], cur["seconds"])
            old["peak_mb"] = min(old["peak_mb"], cur["peak_mb"])
            old["killed"] = old["killed"] and cur["killed"]

    over = 0
    print("| case | time (s) | peak (MB) | budget | |\n|---|--:|--:|--:|---|")
    for case, c in sorted(cases.items(), key=lambda kv: -kv[1]["seconds"]):
        flags = []
        if c["seconds"] > c["budget_seconds"]:
            flags.append("OVER TIME")
        if c["peak_mb"] > c["budget_mb"]:
            flags.append("OVER MEMORY")
        if c["killed"]:
            flags.append(f"KILLED ({c['killed']})")
        over += bool(flags)
        name = case.split("::", 1)[-1]
        print(f"| {name} | {c['seconds']:.2f} | {c['peak_mb']:.0f} | "
              f"{c['budget_seconds']:g} s, {c['budget_mb']:g} MB | {' '.join(flags)} |")
    print(f"\n{len(cases)} cases, {over} over budget"
          + (f", best of {args.runs} runs" if args.runs > 1 else "")
          + ("; some tests FAILED (run pytest on them for details)" if failed else ""))
    return 1 if over or failed else 0


if __name__ == "__main__":
    sys.exit(main())
