#!/usr/bin/env python3
"""What the GitHub Action's install step costs: `action/entry.py install` of two commits, side by side.

    python bench/action_install.py [--runs 3] OLD_REF NEW_REF

Each commit's files (`git archive`) are the action's checkout. Runs alternate OLD NEW OLD NEW …
and each scenario reports the median wall time:

- cold: no virtualenv and an empty pip cache (a runner's first run, or any run whose cache key
  and restore keys all miss); packages come from the index as pip is configured here.
- warm: the virtualenv restored under the same key (CACHE_HIT=true), as on every later run of
  the same action version.
- bump: the virtualenv of the same action before a release that changed the package's files
  (one module of src/ here) and nothing else, left in place with CACHE_HIT empty, as the restore
  key brings it back (a commit whose restore key also names its lock brings back only a
  virtualenv with the same dependencies).

The last column is NEW's figure over OLD's, for wall and for CPU time.

Run it with the python3 a runner's action would use. The machine's load (`uptime`) is printed
before and after: on a shared machine, compare the two commits' figures with each other.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(ref: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def release_before(action: Path, into: Path) -> Path:
    """The same action with one module of the package different: what the previous release's
    virtualenv was built from when the dependencies did not change."""
    shutil.copytree(action, into)
    module = into / "src" / "drafterlint" / "cli.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# the release before\n", encoding="utf-8")
    return into


def install(action: Path, venv: Path, pip_cache: Path, cache_hit: bool) -> tuple[float, float]:
    """Wall time, and CPU time (user + system of every process the step ran, which a loaded
    machine inflates far less than wall time)."""
    env = dict(os.environ, DRAFTERLINT_VENV=str(venv), PIP_CACHE_DIR=str(pip_cache),
               CACHE_HIT="true" if cache_hit else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a runner
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, str(action / "action" / "entry.py"), "install"],
                          env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"install from {action} failed:\n{proc.stdout}\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load before: {load()}")
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        actions = {ref: checkout(ref, base / f"action-{i}") for i, ref in enumerate((args.old, args.new))}
        previous = {ref: release_before(action, base / f"previous-{i}") for i, (ref, action) in enumerate(actions.items())}
        for run in range(args.runs):
            for i, (ref, action) in enumerate(actions.items()):
                work = base / f"run-{run}-{i}"
                venv, cache = work / "venv", work / "pip-cache"
                cold = install(action, venv, cache, cache_hit=False)
                warm = install(action, venv, cache, cache_hit=True)
                # the virtualenv of the release before, as the restore key brings it back
                bump_venv, bump_cache = work / "bump-venv", work / "bump-pip-cache"
                install(previous[ref], bump_venv, bump_cache, cache_hit=False)
                bump = install(action, bump_venv, base / f"empty-cache-{run}-{i}", cache_hit=False)
                for scenario, took in (("cold", cold), ("warm", warm), ("bump", bump)):
                    times.setdefault((ref, scenario), []).append(took)
    print(f"load after: {load()}")
    print(f"\nmedian of {args.runs}, wall / CPU\n\n| scenario | {args.old} | {args.new} | {args.new} / {args.old} |\n"
          "|---|---|---|---|")
    for scenario in ("cold", "warm", "bump"):
        medians = [(statistics.median(w for w, _ in times[(ref, scenario)]),
                    statistics.median(c for _, c in times[(ref, scenario)])) for ref in (args.old, args.new)]
        cells = [f"{wall:.1f} s / {cpu:.1f} s" for wall, cpu in medians]
        (old_wall, old_cpu), (new_wall, new_cpu) = medians
        ratio = f"{new_wall / old_wall:.2f} / {new_cpu / old_cpu:.2f}" if old_wall and old_cpu else "-"
        print(f"| {scenario} | {' | '.join(cells)} | {ratio} |")


if __name__ == "__main__":
    main()
