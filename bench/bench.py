#!/usr/bin/env python3
"""What a user pays for `drafterlint check`, measured side by side with remark-validate-links.

Every case alternates drafterlint (A) with its peer (B) in one run, A B A B ..., and reports the
median of the pairs for wall time, CPU time (user + system of the process, from wait4) and peak
memory, and the ratios A/B. On a machine shared with other work, absolute figures drift from one
minute to the next; the ratios of alternating runs and CPU time do not drift as much, so the
targets are judged on those.

    python bench/bench.py --drafterlint VENV/bin/drafterlint --peers PEERS [--pairs 7]

`--drafterlint` is the console script of an installed (not editable) package; `--install VENV`
creates that virtual environment with `pip install .` first. `--peers` is a folder where
`npm install remark-cli remark-gfm remark-validate-links` was run (outside the repository).
`PYTHONDONTWRITEBYTECODE` is removed from the environment, as in a user's shell.

Cases: cold `--no-cache` on the real snapshot (both cores, and one core with `taskset -c 0`);
the pre-commit run where one document changed since the last run (the others come from the
cache); warm (nothing changed); generated rules documents of 1x, 4x and 16x the real one.
Prints a Markdown table (with the date, the machine and the command) and the targets of the
speed issue, each met or missed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _default_snapshot() -> Path:
    # the checkout is /work/main or a worktree /work/wt/NAME; the snapshot is /work/shared/realworld
    for up in (REPO.parent, REPO.parent.parent):
        if (up / "shared" / "realworld").is_dir():
            return up / "shared" / "realworld"
    return REPO.parent / "shared" / "realworld"


@dataclass
class Sample:
    wall: float
    cpu: float
    peak_mib: float
    code: int


def run_once(cmd: list[str], cwd: Path, env: dict[str, str]) -> Sample:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode)


@dataclass
class Side:
    """One side of a comparison: a command, where it runs, and what to do before each run."""

    cmd: list[str]
    cwd: Path
    env: dict[str, str]
    before: Callable[[], None] | None = None


@dataclass
class Result:
    name: str
    a: list[Sample]
    b: list[Sample]

    def median(self, side: str, what: str) -> float:
        samples = self.a if side == "a" else self.b
        return statistics.median(getattr(s, what) for s in samples)

    def ratio(self, what: str) -> float:
        """Median of the per-pair ratios A/B (each pair ran back to back)."""
        return statistics.median(getattr(x, what) / max(getattr(y, what), 1e-9) for x, y in zip(self.a, self.b))


def alternate(name: str, a: Side, b: Side | None, pairs: int) -> Result:
    """A B A B ...; one untimed run of each first (file cache, the tool's own cache state)."""
    sides = [a] if b is None else [a, b]
    for side in sides:
        if side.before:
            side.before()
        run_once(side.cmd, side.cwd, side.env)
    got: dict[int, list[Sample]] = {0: [], 1: []}
    for _ in range(pairs):
        for k, side in enumerate(sides):
            if side.before:
                side.before()
            got[k].append(run_once(side.cmd, side.cwd, side.env))
    result = Result(name, got[0], got[1])
    line = f"  {name}: A wall {result.median('a', 'wall'):.3f} s, CPU {result.median('a', 'cpu'):.3f} s"
    if got[1]:
        line += f"; A/B wall {result.ratio('wall'):.2f}, CPU {result.ratio('cpu'):.2f}"
    print(line, file=sys.stderr)  # as it goes: a long run that is stopped still tells something
    return result


def generate(size: int, seed: int = 7) -> str:
    """A synthetic rules document of about `size` characters: numbered headings, a table of
    contents, alerts, tables, hard-wrapped paragraphs and links (some broken)."""
    rng = random.Random(seed)
    words = ["model", "drafter", "cohort", "approved", "list", "checkpoint", "head", "latency", "accuracy", "submission", "round"]
    body: list[str] = []
    toc: list[str] = ["## Table of Contents", ""]
    n = total = major = 0
    while total < size:
        major += 1
        toc.append(f"{major}. [Part {major}](#{major}-part-{major})")
        chunk = [f"## {major}. Part {major}", ""]
        for minor in range(1, 9):
            n += 1
            slug = f"{major}{minor}-topic-{n}"
            toc.append(f"   - [{major}.{minor} Topic {n}](#{slug})")
            chunk += [f"### {major}.{minor} Topic {n}", "", "> [!NOTE]", "> A note with a [link](#" + slug + ").", ""]
            for _ in range(4):
                line = " ".join(rng.choice(words) for _ in range(14))
                target = f"#{major}{rng.randint(1, 9)}-topic-{rng.randint(1, n + 3)}"
                chunk += [line, f"continued, see [§{major}.{minor}]({target}) and more text here.", ""]
            chunk += ["| Check | Validation |", "|---|---|", f"| **Row {n}** | see [§{major}.{minor}](#{slug}) |", ""]
        total += sum(len(x) + 1 for x in chunk)
        body += chunk
    return "\n".join(["# Synthetic Rules", "", *toc, "", *body]) + "\n"


def install(venv: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(REPO)], check=True)
    return venv / "bin" / "drafterlint"


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = f" load average at start {os.getloadavg()[0]:.1f}"
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs ({model}), Python {platform.python_version()},{load}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshot", type=Path, default=_default_snapshot(),
                    help="the real repositories' snapshot (default: shared/realworld beside the checkout)")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--peers", type=Path, help="folder with node_modules/.bin/remark (npm install remark-cli remark-gfm remark-validate-links)")
    ap.add_argument("--drafterlint", type=Path, help="console script of an installed (not editable) drafterlint")
    ap.add_argument("--install", type=Path, metavar="VENV", help="create VENV with `pip install .` and use its drafterlint")
    ap.add_argument("--peer-up-to", type=int, default=16, metavar="FACTOR",
                    help="run the peer on generated documents up to this size factor only (remark takes minutes and GBs on 16x)")
    ap.add_argument("--only", default="", help="comma-separated case prefixes to run (cold,one-core,changed,warm,generated)")
    args = ap.parse_args()
    if args.pairs < 7:
        ap.error("--pairs: at least 7")
    if not (args.snapshot / "endpoints_policies").is_dir() or not (args.snapshot / "endpoints").is_dir():
        ap.error(f"--snapshot {args.snapshot}: no endpoints_policies/ and endpoints/ there")
    tool = install(args.install) if args.install else args.drafterlint
    if tool is None or not Path(tool).exists():
        ap.error("give --drafterlint VENV/bin/drafterlint (pip install ., not -e) or --install VENV")
    remark = args.peers / "node_modules" / ".bin" / "remark" if args.peers else None
    if remark is not None and not remark.exists():
        ap.error(f"{remark} not found: npm install remark-cli remark-gfm remark-validate-links in {args.peers}")
    only = [x for x in args.only.split(",") if x]

    work = Path(tempfile.mkdtemp(prefix="drafterlint-bench-"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "DRAFTERLINT_NO_CACHE")}
    cache = work / "cache"
    env["DRAFTERLINT_CACHE"] = str(cache)
    rules, registry = work / "rules", work / "registry"
    shutil.copytree(args.snapshot / "endpoints_policies", rules)
    shutil.copytree(args.snapshot / "endpoints", registry)
    for d in (rules, registry):
        for p in d.rglob("*"):
            p.chmod(p.stat().st_mode | 0o200)
    docs = sorted(p.name for p in rules.glob("*.md"))
    check = [str(tool), "check", "--exit-zero", "--rules-repo", str(rules), "--registry-repo", str(registry)]

    def peer(cwd: Path, files: list[str], taskset: bool = False) -> Side | None:
        if remark is None:
            return None
        if not (cwd / "node_modules").exists():
            os.symlink(args.peers / "node_modules", cwd / "node_modules")
        cmd = [str(remark), "--no-stdout", "--quiet", "--use", "remark-gfm", "--use", "remark-validate-links", *files]
        return Side((["taskset", "-c", "0"] if taskset else []) + cmd, cwd, env)

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(o) for o in only)

    results: list[Result] = []
    if wanted("cold"):
        results.append(alternate("cold --no-cache, real snapshot", Side([*check, "--no-cache"], work, env), peer(rules, docs), args.pairs))
    if wanted("one-core") and shutil.which("taskset"):
        results.append(alternate("cold --no-cache, real snapshot, one core (taskset -c 0)",
                                 Side(["taskset", "-c", "0", *check, "--no-cache"], work, env), peer(rules, docs, taskset=True), args.pairs))
    if wanted("changed"):
        for doc in ("endpoints_rules.md", "MLPerf_Endpoints_Audit_Guidelines.md"):
            target = rules / doc
            original = target.read_text(encoding="utf-8")
            flip = [0]

            def edit(target: Path = target, original: str = original, flip: list[int] = flip) -> None:
                flip[0] += 1  # a different edit each run: the run cache and this document miss
                target.write_text(original + f"\nEdited paragraph {flip[0]}.\n", encoding="utf-8")

            shutil.rmtree(cache, ignore_errors=True)
            run_once(check, work, env)  # the last run, before the edit: fills the cache
            results.append(alternate(f"one document changed ({doc}), the others cached", Side(check, work, env, edit), peer(rules, docs), args.pairs))
            target.write_text(original, encoding="utf-8")
    if wanted("warm"):
        shutil.rmtree(cache, ignore_errors=True)
        results.append(alternate("warm (nothing changed since the last run)", Side(check, work, env), peer(rules, docs), args.pairs))
    base_size = (args.snapshot / "endpoints_policies" / "endpoints_rules.md").stat().st_size
    generated: dict[int, Result] = {}
    if wanted("generated"):
        for factor in (1, 4, 16):
            d = work / f"x{factor}"
            d.mkdir()
            (d / "endpoints_rules.md").write_text(generate(base_size * factor), encoding="utf-8")
            kib = (d / "endpoints_rules.md").stat().st_size // 1024
            side = Side([str(tool), "check", "--exit-zero", "--no-cache", "--rules-repo", str(d), "--select", "DL1,DL2"], work, env)
            other = peer(d, ["endpoints_rules.md"]) if factor <= args.peer_up_to else None
            r = alternate(f"generated {factor}x ({kib} KiB), --no-cache", side, other, args.pairs)
            generated[factor] = r
            results.append(r)

    command = " ".join(["python", "bench/bench.py", *sys.argv[1:]])
    print(f"drafterlint bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"command: `{command}`; median of {args.pairs} alternating pairs (A = drafterlint, B = remark-validate-links with remark-gfm)\n")
    print("| case | wall A (s) | wall B (s) | wall A/B | CPU A (s) | CPU B (s) | CPU A/B | peak A (MiB) | peak B (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if r.b:
            print(f"| {r.name} | {r.median('a', 'wall'):.3f} | {r.median('b', 'wall'):.3f} | {r.ratio('wall'):.2f} "
                  f"| {r.median('a', 'cpu'):.3f} | {r.median('b', 'cpu'):.3f} | {r.ratio('cpu'):.2f} "
                  f"| {r.median('a', 'peak_mib'):.0f} | {r.median('b', 'peak_mib'):.0f} |")
        else:
            print(f"| {r.name} | {r.median('a', 'wall'):.3f} | | | {r.median('a', 'cpu'):.3f} | | | {r.median('a', 'peak_mib'):.0f} | |")

    print("\n| target | measured | met |")
    print("|---|---|---|")

    def target(label: str, value: float, limit: float, unit: str = "") -> None:
        print(f"| {label} | {value:.3f}{unit} | {'yes' if value <= limit else 'NO'} |")

    for r in results:
        if r.name.startswith("cold") and r.b:
            cores = "one core" if "one core" in r.name else "two cores"
            target(f"cold CPU ≤ 0.5× remark ({cores})", r.ratio("cpu"), 0.5, "×")
            target(f"cold wall ≤ 0.5× remark ({cores})", r.ratio("wall"), 0.5, "×")
        if r.name.startswith("cold --no-cache, real snapshot") and "one core" not in r.name:
            target("peak memory ≤ 60 MiB (real snapshot)", r.median("a", "peak_mib"), 60, " MiB")
        if r.name.startswith("one document changed"):
            target(f"{r.name.split(',')[0]} ≤ 0.15 s wall", r.median("a", "wall"), 0.15, " s")
        if r.name.startswith("warm"):
            target("warm ≤ 0.06 s wall", r.median("a", "wall"), 0.06, " s")
    if 1 in generated and 16 in generated:
        ratio = generated[16].median("a", "wall") / generated[1].median("a", "wall")
        target("generated 16x ≤ 16× the 1x time", ratio, 16, "×")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
