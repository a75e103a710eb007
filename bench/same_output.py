#!/usr/bin/env python3
"""Prove a refactoring changed no output (issue 30): capture a fixed list of runs, then diff.

    python bench/same_output.py --python VENV/bin/python OUTDIR   # capture
    python bench/same_output.py --compare BEFORE AFTER            # exit 1 on any difference

Capture runs `drafterlint check --no-cache` (JSON, text, Markdown, SARIF) with the given
interpreter on the real snapshot (/work/shared/realworld, skipped with a message when absent) and
on every example under rules_fixtures/ (taken from this script's own checkout, so two interpreters
see the same files and the same paths). Each run writes NAME.out (stdout, stderr appended after a
marker) and NAME.rc; `drafterlint fix --diff` on each of them (NAME.fix-diff.out, .rc: the
edits fix would make, written nowhere). Then `drafterlint audit`, offline, on the snapshot and
two example pairs committed into fresh git repositories (one fixed date and author, so both
captures audit the same commits): audit-NAME.md, .json, .out and .rc. `--today` is pinned so that captures taken on
different days compare equal.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "rules_fixtures"
REALWORLD = Path("/work/shared/realworld")
TODAY = "2026-12-04"
FORMATS = ("json", "text", "markdown", "sarif")

# (name, working directory, arguments after `check`). The rules-side runs name both
# repositories explicitly, so nothing depends on a configuration file being found.
Run = tuple[str, Path, list[str]]


def _rules_run(name: str, rules: Path, registry: Path) -> Run:
    return (name, rules, ["--rules-repo", ".", "--registry-repo", os.path.relpath(registry, rules)])


def _fixture_runs() -> list[Run]:
    runs = [
        _rules_run("example", FIXTURES / "example/rules", FIXTURES / "example/endpoints"),
        _rules_run("crossval", FIXTURES / "crossval/rules", FIXTURES / "crossval/registry"),
    ]
    for era in ("wip", "designated", "v1"):
        runs.append(_rules_run(f"eras-{era}", FIXTURES / "eras" / era / "rules", FIXTURES / "eras/registry"))
    for case in sorted(p for p in (FIXTURES / "registry_cases").iterdir() if p.is_dir()):
        runs.append((f"registry_cases-{case.name}", case, ["--registry-repo", "."]))
    return runs


def _realworld_runs() -> list[Run]:
    if not REALWORLD.is_dir():
        print(f"same_output: {REALWORLD} is absent; the real snapshot is skipped", file=sys.stderr)
        return []
    rules = REALWORLD / "endpoints_policies"
    return [("realworld", rules, ["--registry-repo", "../endpoints"])]


# The audit reads git history: the same folders are committed into fresh repositories with one
# fixed date and author, so both captures audit the same commits. (name, rules, registry)
AUDITS = (
    ("realworld", REALWORLD / "endpoints_policies", REALWORLD / "endpoints"),
    ("example", FIXTURES / "example/rules", FIXTURES / "example/endpoints"),
    ("crossval", FIXTURES / "crossval/rules", FIXTURES / "crossval/registry"),
)
GIT_ENV = {"GIT_AUTHOR_DATE": "2026-11-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-11-01T00:00:00Z",
           "GIT_AUTHOR_NAME": "same_output", "GIT_AUTHOR_EMAIL": "same@output",
           "GIT_COMMITTER_NAME": "same_output", "GIT_COMMITTER_EMAIL": "same@output",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _committed(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    env = {**os.environ, **GIT_ENV}
    for git in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "snapshot"]):
        subprocess.run(["git", *git], cwd=dest, env=env, check=True)
    return dest


def capture_audits(python: str, out: Path, env: dict[str, str]) -> int:
    """`drafterlint audit` (offline, --today pinned) on each pair: its Markdown report, its JSON
    and what it printed, with the temporary folder's name replaced by `TMP`."""
    count = 0
    for name, rules, registry in AUDITS:
        if not rules.is_dir():
            continue
        with tempfile.TemporaryDirectory(prefix="same-output-") as tmp:
            top = Path(tmp)
            args = ["--rules-repo", str(_committed(rules, top / "rules")),
                    "--registry-repo", str(_committed(registry, top / "registry"))]
            cmd = [python, "-m", "drafterlint", "audit", "--today", TODAY, "--cache-dir", str(top / "cache"),
                   "--json", str(top / "audit.json"), "--output", str(top / "audit.md"), *args]
            proc = subprocess.run(cmd, cwd=top, env=env, capture_output=True, check=False)
            said = proc.stdout + b"\n--- stderr ---\n" + proc.stderr
            for suffix, data in ((".out", said), (".md", _read(top / "audit.md")), (".json", _read(top / "audit.json"))):
                (out / f"audit-{name}{suffix}").write_bytes(data.replace(str(top).encode(), b"TMP"))
            (out / f"audit-{name}.rc").write_text(f"{proc.returncode}\n")
            count += 1
    return count


def _read(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b"(not written)\n"


def capture(python: str, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NO_COLOR": "1", "PYTHONHASHSEED": "0"}
    count = 0
    for name, cwd, args in _realworld_runs() + _fixture_runs():
        for fmt in FORMATS:
            cmd = [python, "-m", "drafterlint", "check", "--no-cache", "--format", fmt, "--show-info", "--today", TODAY, *args]
            proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
            stem = f"{name}.{fmt}"
            (out / f"{stem}.out").write_bytes(proc.stdout + b"\n--- stderr ---\n" + proc.stderr)
            (out / f"{stem}.rc").write_text(f"{proc.returncode}\n")
            count += 1
        proc = subprocess.run([python, "-m", "drafterlint", "fix", "--diff", "--today", TODAY, *args],
                              cwd=cwd, env=env, capture_output=True, check=False)
        (out / f"{name}.fix-diff.out").write_bytes(proc.stdout + b"\n--- stderr ---\n" + proc.stderr)
        (out / f"{name}.fix-diff.rc").write_text(f"{proc.returncode}\n")
        count += 1
    count += capture_audits(python, out, env)
    print(f"same_output: {count} runs written to {out}")
    return 0


def compare(left: Path, right: Path) -> int:
    names = sorted({p.name for p in left.iterdir()} | {p.name for p in right.iterdir()})
    differ = [
        n
        for n in names
        if not ((left / n).is_file() and (right / n).is_file() and filecmp.cmp(left / n, right / n, shallow=False))
    ]
    for name in differ:
        print(f"differs: {name}")
    print(f"same_output: {len(names) - len(differ)} same, {len(differ)} different")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter with drafterlint")
    parser.add_argument("--compare", nargs=2, metavar="DIR", type=Path, help="diff two captures")
    parser.add_argument("out", nargs="?", type=Path, help="folder to capture into")
    ns = parser.parse_args(argv)
    if ns.compare:
        return compare(*ns.compare)
    if ns.out is None:
        parser.error("give an output folder, or --compare DIR1 DIR2")
    return capture(ns.python, ns.out)


if __name__ == "__main__":
    sys.exit(main())
