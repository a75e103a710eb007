#!/usr/bin/env python3
"""What the pre-commit hook's comparison with HEAD costs over a plain check (issue 23).

The real snapshot is put into git repositories (the rules repository, and the reference
repository beside it as `registry.path: ../endpoints`), and one sentence of endpoints_rules.md is
reworded and staged: the commit a contributor makes. Then, alternating in one run:

* `hook, base cached` (A) against `plain check` (B): `check --hook` where the base's findings
  are in the cache (the previous commit's hook run put them there; the usual case);
* `hook, base not cached` (A) against `plain check` (B): the base is checked in the run;
* the same two with `--no-cache` on both sides (no cache at all).

Before every run the cache directory is restored to the state a contributor's has before the
commit: filled by a run on HEAD (parsed documents, HEAD's findings), plus the base's findings
for the "cached" case. CPU time (user + system, from wait4) and wall time; median of the pairs
and the median of the per-pair ratios. Targets: base cached <= 1.3x, not cached <= 2.2x the
plain check's CPU.

    python bench/hook.py --drafterlint VENV/bin/drafterlint [--pairs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Side, _default_snapshot, alternate, machine

CONFIG = "registry:\n  path: ../endpoints\n"
TARGETS = {"hook, base cached": 1.3, "hook, base not cached": 2.2}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                    "-c", "commit.gpgsign=false", *args], cwd=cwd, check=True, capture_output=True)


def prepare(snapshot: Path, work: Path) -> Path:
    """The snapshot as two git repositories; the rules one with a reworded sentence staged."""
    for name in ("endpoints_policies", "endpoints"):
        shutil.copytree(snapshot / name, work / name)
        if name == "endpoints_policies":
            (work / name / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
        _git(work / name, "init", "-q")
        _git(work / name, "add", "-A")
        _git(work / name, "commit", "-qm", "snapshot")
    rules = work / "endpoints_policies"
    doc = rules / "endpoints_rules.md"
    text = doc.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if len(line) > 60 and line[0].isalpha())
    doc.write_text(text.replace(first, first.replace(" the ", " this ", 1), 1), encoding="utf-8")
    _git(rules, "add", "-A")
    return rules


def cache_state(drafterlint: str, rules: Path, env: dict, dest: Path, *, with_base: bool) -> None:
    """The cache a contributor has before committing: a run on HEAD (and its base's findings)."""
    _git(rules, "stash", "-q")  # this throwaway repository's own stash: HEAD's tree for a moment
    try:
        run_env = dict(env, DRAFTERLINT_CACHE=str(dest))
        subprocess.run([drafterlint, "check"], cwd=rules, env=run_env, capture_output=True)
        if with_base:  # the previous commit's hook: its working tree is this commit's base
            _git(rules, "commit", "-q", "--allow-empty", "-m", "tmp")
            subprocess.run([drafterlint, "check", "--hook"], cwd=rules, env=run_env, capture_output=True)
            _git(rules, "reset", "-q", "--soft", "HEAD~1")
    finally:
        _git(rules, "stash", "pop", "-q")
        _git(rules, "add", "-A")


def restore(saved: Path, live: Path):
    def before() -> None:
        shutil.rmtree(live, ignore_errors=True)
        shutil.copytree(saved, live)
    return before


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--drafterlint", required=True, help="the console script of an installed drafterlint")
    ap.add_argument("--snapshot", type=Path, default=_default_snapshot())
    ap.add_argument("--pairs", type=int, default=7)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DRAFTERLINT_", "PRE_COMMIT"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="drafterlint-hook-bench-") as tmp:
        work = Path(tmp)
        rules = prepare(args.snapshot, work)
        warm, warm_base, live = work / "cache-head", work / "cache-head-and-base", work / "cache"
        cache_state(args.drafterlint, rules, env, warm, with_base=False)
        cache_state(args.drafterlint, rules, env, warm_base, with_base=True)
        env["DRAFTERLINT_CACHE"] = str(live)
        check, hook = [args.drafterlint, "check"], [args.drafterlint, "check", "--hook"]
        plain = Side(check, rules, env, restore(warm, live))
        rows = [
            alternate("hook, base cached", Side(hook, rules, env, restore(warm_base, live)), plain, args.pairs),
            alternate("hook, base not cached", Side(hook, rules, env, restore(warm, live)), plain, args.pairs),
            alternate("hook vs plain, --no-cache", Side([*hook, "--no-cache"], rules, env),
                      Side([*check, "--no-cache"], rules, env), args.pairs),
        ]
        out = subprocess.run(hook, cwd=rules, env=dict(env, DRAFTERLINT_CACHE=str(work / "c2")),
                             capture_output=True, text=True)
    print(f"Machine: {machine()}; load {os.getloadavg()[0]:.2f}; {args.pairs} pairs\n")
    print("| case | A wall s | A CPU s | B (plain check) CPU s | A/B wall | A/B CPU | target (CPU) |")
    print("|---|---|---|---|---|---|---|")
    met = True
    for r in rows:
        target = TARGETS.get(r.name)
        verdict = "" if target is None else (f"<= {target} " + ("met" if r.ratio("cpu") <= target else "MISSED"))
        met &= target is None or r.ratio("cpu") <= target
        print(f"| {r.name} | {r.median('a', 'wall'):.3f} | {r.median('a', 'cpu'):.3f} | {r.median('b', 'cpu'):.3f} "
              f"| {r.ratio('wall'):.2f} | {r.ratio('cpu'):.2f} | {verdict} |")
    print(f"\nThe hook on the reworded commit: exit {out.returncode}, {len(out.stdout.splitlines())} lines of output.")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
