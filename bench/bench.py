#!/usr/bin/env python3
"""Time a cold `drafterlint check` (median of repeated runs) and its peak memory, on the real
snapshot and on generated rules documents of 1x, 4x and 16x its size; a warm run (the
content-hash cache filled by a previous run on unchanged files, as in repeated pre-commit runs);
and, where installed, remark-validate-links and markdownlint-cli2 (MD051) on the same files.

Cold runs use an empty cache directory each time (so they include writing the cache);
`--no-cache` runs are shown too.

    python bench/bench.py [--snapshot ../shared/realworld] [--runs 7] [--peers DIR]

`--peers DIR` is a folder whose node_modules/.bin holds the peer tools (npm install
markdownlint-cli2 remark-cli remark-validate-links). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_once(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, int, int]:
    """Wall time (s), peak RSS (KiB) of the process tree's largest member, exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def measure(cmd: list[str], cwd: Path, runs: int, env: dict | None = None, cold_cache: Path | None = None) -> dict:
    """`cold_cache`: a cache directory emptied before every run (a cold drafterlint run)."""
    times, peaks, codes = [], [], set()
    run_once(cmd, cwd, env)  # warm the OS file cache, not the tool's
    for _ in range(runs):
        if cold_cache is not None:
            shutil.rmtree(cold_cache, ignore_errors=True)
        t, rss, code = run_once(cmd, cwd, env)
        times.append(t)
        peaks.append(rss)
        codes.add(code)
    return {"median": statistics.median(times), "min": min(times), "peak_mib": max(peaks) / 1024, "codes": codes}


def generate(size: int, seed: int = 7) -> str:
    """A synthetic rules document of about `size` characters: numbered headings, a table of
    contents, alerts, tables, hard-wrapped paragraphs and links (some broken)."""
    rng = random.Random(seed)
    words = ["model", "drafter", "cohort", "approved", "list", "checkpoint", "head", "latency", "accuracy", "submission", "round"]
    body: list[str] = []
    toc: list[str] = ["## Table of Contents", ""]
    n = 0
    major = 0
    while sum(map(len, body)) < size:
        major += 1
        toc.append(f"{major}. [Part {major}](#{major}-part-{major})")
        body += [f"## {major}. Part {major}", ""]
        for minor in range(1, 9):
            n += 1
            slug = f"{major}{minor}-topic-{n}"
            toc.append(f"   - [{major}.{minor} Topic {n}](#{slug})")
            body += [f"### {major}.{minor} Topic {n}", "", "> [!NOTE]", "> A note with a [link](#" + slug + ").", ""]
            for _ in range(4):
                line = " ".join(rng.choice(words) for _ in range(14))
                target = f"#{major}{rng.randint(1, 9)}-topic-{rng.randint(1, n + 3)}"
                body += [line, f"continued, see [§{major}.{minor}]({target}) and more text here.", ""]
            body += ["| Check | Validation |", "|---|---|", f"| **Row {n}** | see [§{major}.{minor}](#{slug}) |", ""]
    return "\n".join(["# Synthetic Rules", "", *toc, "", *body]) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshot", type=Path, default=HERE.parent.parent / "shared" / "realworld")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--peers", type=Path, default=None)
    ap.add_argument("--drafterlint", default=shutil.which("drafterlint") or str(Path(sys.executable).parent / "drafterlint"))
    args = ap.parse_args()

    rules = args.snapshot / "endpoints_policies"
    registry = args.snapshot / "endpoints"
    rows = []
    tool = [args.drafterlint, "check", "--exit-zero"]

    cache = Path(tempfile.mkdtemp(prefix="drafterlint-bench-cache-"))
    env = dict(os.environ, DRAFTERLINT_CACHE=str(cache))
    env.pop("DRAFTERLINT_NO_CACHE", None)
    if rules.is_dir():
        real = [*tool, "--rules-repo", str(rules), "--registry-repo", str(registry)]
        r = measure(real, Path.cwd(), args.runs, env, cold_cache=cache)
        rows.append(("drafterlint, real snapshot (both repositories), cold", r))
        r = measure([*real, "--no-cache"], Path.cwd(), args.runs, env)
        rows.append(("drafterlint, real snapshot, --no-cache", r))
        r = measure(real, Path.cwd(), args.runs, env)  # the first (untimed) run fills the cache
        rows.append(("drafterlint, real snapshot, warm (cached, unchanged files)", r))
        shutil.rmtree(cache, ignore_errors=True)
        base_size = (rules / "endpoints_rules.md").stat().st_size
    else:
        base_size = 245_000

    work = Path(tempfile.mkdtemp(prefix="drafterlint-bench-"))
    docs = {}
    for factor in (1, 4, 16):
        d = work / f"x{factor}"
        d.mkdir()
        (d / "endpoints_rules.md").write_text(generate(base_size * factor))
        docs[factor] = d
        r = measure([*tool, "--rules-repo", str(d), "--select", "DL1,DL2"], Path.cwd(), max(3, args.runs // 2 if factor == 16 else args.runs), env, cold_cache=cache)
        rows.append((f"drafterlint, generated {factor}x ({(d / 'endpoints_rules.md').stat().st_size // 1024} KiB)", r))

    bin_dir = (args.peers / "node_modules" / ".bin") if args.peers else None
    remark = bin_dir / "remark" if bin_dir else None
    mdl = bin_dir / "markdownlint-cli2" if bin_dir else None
    if rules.is_dir() and remark and remark.exists():
        copy = work / "peer-real"
        shutil.copytree(rules, copy)
        os.symlink(args.peers / "node_modules", copy / "node_modules")
        files = ["endpoints_rules.md", "endpoints_submission_rules.md"]
        r = measure([str(remark), "--use", "remark-validate-links", "--quiet", "--no-stdout", *files], copy, args.runs)
        rows.append(("remark-validate-links, real snapshot (rules docs)", r))
        if mdl and mdl.exists():
            (copy / ".markdownlint-cli2.jsonc").write_text('{"config":{"default":false,"MD051":true}}')
            r = measure([str(mdl), *files], copy, args.runs)
            rows.append(("markdownlint-cli2 (MD051), real snapshot (rules docs)", r))
        for factor, d in docs.items():
            os.symlink(args.peers / "node_modules", d / "node_modules")
            r = measure([str(remark), "--use", "remark-validate-links", "--quiet", "--no-stdout", "endpoints_rules.md"], d, max(3, args.runs // 2))
            rows.append((f"remark-validate-links, generated {factor}x", r))

    print("| run | median (s) | min (s) | peak RSS (MiB) |")
    print("|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['median']:.3f} | {r['min']:.3f} | {r['peak_mib']:.0f} |")
    one = next((r for n, r in rows if n.startswith("drafterlint, generated 1x")), None)
    sixteen = next((r for n, r in rows if n.startswith("drafterlint, generated 16x")), None)
    if one and sixteen:
        print(f"\n16x / 1x time ratio: {sixteen['median'] / one['median']:.1f}")
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
