#!/usr/bin/env python3
"""What a user pays for `drafterlint check`, measured side by side with the tools it stands beside.

Every case alternates drafterlint (A) with what it is compared with (B) in one run, A B A B ...,
and reports the median of the pairs for wall time, CPU time (user + system of the child, from
wait4) and peak memory, and the median of the per-pair ratios A/B. On a machine shared with
other work, absolute figures drift from one minute to the next; ratios of alternating runs, and
CPU time, drift much less, so the targets are judged on those.

    python bench/bench.py --drafterlint VENV/bin/drafterlint --peers PEERS [--pairs 7]

`--drafterlint` is the console script of an installed (not editable) package; `--install VENV`
creates that virtual environment with `pip install .` first. `--peers` is a folder where
`npm install remark-cli remark-gfm remark-validate-links markdownlint-cli2` was run (outside the
repository). `L` is the physical floor of "read these documents": the Python of
`--floor-python` (default: this one) importing cmarkgfm and parsing the same documents with it.
`PYTHONDONTWRITEBYTECODE` is removed from the environment, as in a user's shell.

Cases (issue 39's targets): cold `--no-cache` on the real snapshot against remark-validate-links,
markdownlint-cli2 (MD051 only: its link-fragment rule) and L; warm (nothing changed) against L;
one document changed since the last run (a line appended to the rules document; the others come
from the cache) against a cold run; the Action's pull-request path (`--base-ref`, in CI with an
empty cache the runner throws away) against a cold plain check; generated rules documents of
1x, 4x and 16x the real one; a generated docs tree of `--tree-files` Markdown files against a
quarter of that, alternating (time, by the pairs' CPU ratio, and peak memory must grow in
proportion); the Action's pull-request path on that tree (action-tree: its peak memory, and its
time against a plain check). Prints Markdown tables
(with the date, the machine and the command) and each target, met or missed.
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
    for k, side in enumerate(sides):
        failed = [s.code for s in got[k] if s.code not in (0, 1)]
        if failed:  # exit 2 is a usage error: its time measures nothing
            raise SystemExit(f"{name}: `{' '.join(side.cmd)}` exited {failed[0]}")
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


FLOOR = ("import sys\nimport cmarkgfm\nfrom cmarkgfm.cmark import Options\n"
         "for p in sys.argv[1:]:\n"
         "    with open(p, encoding='utf-8') as fh:\n"
         "        cmarkgfm.github_flavored_markdown_to_html(fh.read(), options=Options.CMARK_OPT_UNSAFE)\n")
# markdownlint-cli2 with its link-fragment rule alone: what drafterlint's DL201 does for one file.
MD051_ONLY = '{"config": {"default": false, "MD051": true}}\n'


def generate_tree(root: Path, files: int, seed: int = 11) -> None:
    """A docs tree of `files` Markdown files, a hundred to a folder: numbered headings, links to
    other files' headings (1 in 50 broken) and to their own, a table and a code block each."""
    rng = random.Random(seed)
    words = ["model", "drafter", "cohort", "approved", "list", "checkpoint", "head", "latency", "round"]
    for i in range(files):
        d = root / "docs" / f"part{i // 100:03d}"
        d.mkdir(parents=True, exist_ok=True)
        lines = [f"# Page {i}", ""]
        for s in range(1, 5):
            lines += [f"## {s}. Section {s} of page {i}", ""]
            for _ in range(3):
                j, t = rng.randrange(files), rng.randint(1, 4)
                anchor = f"{t}-section-{t}-of-page-{j}" if rng.random() > 0.02 else f"{t}-gone-{j}"
                lines += [" ".join(rng.choice(words) for _ in range(12)),
                          f"See [page {j}](../part{j // 100:03d}/page{j}.md#{anchor}) and [here](#{s}-section-{s}-of-page-{i}).", ""]
            lines += ["| a | b |", "|---|---|", f"| {s} | `x` |", "", "```", "code", "```", ""]
        (d / f"page{i}.md").write_text("\n".join(lines), encoding="utf-8")
    (root / "endpoints_rules.md").write_text("# Rules\n\nThe pages: [the first](docs/part000/page0.md#1-section-1-of-page-0).\n",
                                           encoding="utf-8")  # what --rules-repo requires


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                    "-c", "commit.gpgsign=false", *args], cwd=cwd, check=True, capture_output=True)


def pull_request(rules: Path) -> None:
    """`rules` as a git repository whose branch `pr` changed one sentence of the rules document
    since `main`: what the Action checks on a pull request (`--base-ref main`)."""
    _git(rules, "init", "-q", "-b", "main")
    _git(rules, "add", "-A")
    _git(rules, "commit", "-qm", "base")
    _git(rules, "checkout", "-qb", "pr")
    doc = rules / "endpoints_rules.md"
    text = doc.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if len(line) > 60 and line[0].isalpha())
    doc.write_text(text.replace(first, first.replace(" the ", " this ", 1), 1), encoding="utf-8")
    _git(rules, "commit", "-qam", "a change")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshot", type=Path, default=_default_snapshot(),
                    help="the real repositories' snapshot (default: shared/realworld beside the checkout)")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--peers", type=Path, help="folder with node_modules/.bin/remark and markdownlint-cli2 "
                    "(npm install remark-cli remark-gfm remark-validate-links markdownlint-cli2)")
    ap.add_argument("--floor-python", type=Path, default=Path(sys.executable),
                    help="a Python that can import cmarkgfm, for L (default: this one)")
    ap.add_argument("--drafterlint", type=Path, help="console script of an installed (not editable) drafterlint")
    ap.add_argument("--install", type=Path, metavar="VENV", help="create VENV with `pip install .` and use its drafterlint")
    ap.add_argument("--peer-up-to", type=int, default=16, metavar="FACTOR",
                    help="run the peer on generated documents up to this size factor only (remark takes minutes and GBs on 16x)")
    ap.add_argument("--tree-files", type=int, default=20000, help="files in the generated docs tree (0: no tree case)")
    ap.add_argument("--tree-runs", type=int, default=3, help="alternating pairs of each tree case (they take minutes)")
    ap.add_argument("--only", default="", help="comma-separated case prefixes to run "
                    "(cold,one-core,warm,changed,pr,generated,tree,action-tree)")
    args = ap.parse_args()
    if args.pairs < 7:
        ap.error("--pairs: at least 7")
    if not (args.snapshot / "endpoints_policies").is_dir() or not (args.snapshot / "endpoints").is_dir():
        ap.error(f"--snapshot {args.snapshot}: no endpoints_policies/ and endpoints/ there")
    tool = install(args.install) if args.install else args.drafterlint
    if tool is None or not Path(tool).exists():
        ap.error("give --drafterlint VENV/bin/drafterlint (pip install ., not -e) or --install VENV")
    bins = args.peers / "node_modules" / ".bin" if args.peers else None
    remark = bins / "remark" if bins else None
    mdlint = bins / "markdownlint-cli2" if bins else None
    for b in (remark, mdlint):
        if b is not None and not b.exists():
            ap.error(f"{b} not found: npm install remark-cli remark-gfm remark-validate-links markdownlint-cli2 in {args.peers}")
    if subprocess.run([str(args.floor_python), "-c", "import cmarkgfm"], capture_output=True).returncode:
        ap.error(f"--floor-python {args.floor_python} cannot import cmarkgfm (pip install cmarkgfm)")
    only = [x for x in args.only.split(",") if x]

    work = Path(tempfile.mkdtemp(prefix="drafterlint-bench-"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "DRAFTERLINT_NO_CACHE", "CI", "GITHUB_ACTIONS")}
    cache = work / "cache"
    env["DRAFTERLINT_CACHE"] = str(cache)
    rules, registry = work / "rules", work / "registry"
    shutil.copytree(args.snapshot / "endpoints_policies", rules)
    shutil.copytree(args.snapshot / "endpoints", registry)
    for d in (rules, registry):
        for p in d.rglob("*"):
            p.chmod(p.stat().st_mode | 0o200)
    docs = sorted(p.name for p in rules.glob("*.md"))
    every_doc = [str(p) for p in sorted([*rules.rglob("*.md"), *registry.rglob("*.md")])]
    check = [str(tool), "check", "--exit-zero", "--rules-repo", str(rules), "--registry-repo", str(registry)]
    cold = Side([*check, "--no-cache"], work, env)
    floor = Side([str(args.floor_python), "-c", FLOOR, *every_doc], work, env)

    def link_modules(cwd: Path) -> None:
        if args.peers and not (cwd / "node_modules").exists():
            os.symlink(args.peers / "node_modules", cwd / "node_modules")

    def peer(cwd: Path, files: list[str], taskset: bool = False) -> Side | None:
        if remark is None:
            return None
        link_modules(cwd)
        cmd = [str(remark), "--no-stdout", "--quiet", "--use", "remark-gfm", "--use", "remark-validate-links", *files]
        return Side((["taskset", "-c", "0"] if taskset else []) + cmd, cwd, env)

    def md051(cwd: Path, files: list[str]) -> Side | None:
        if mdlint is None:
            return None
        link_modules(cwd)
        (work / "md051.jsonc").write_text(MD051_ONLY, encoding="utf-8")
        return Side([str(mdlint), "--config", str(work / "md051.jsonc"), *files], cwd, env)

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(o) for o in only)

    results: list[Result] = []
    named: dict[str, Result] = {}

    def measure(key: str, name: str, a: Side, b: Side | None) -> None:
        if b is None and key in ("cold-remark", "cold-md051"):
            return
        named[key] = alternate(name, a, b, args.pairs)
        results.append(named[key])

    if wanted("cold"):
        measure("cold-remark", "cold --no-cache, real snapshot (B: remark-validate-links)", cold, peer(rules, docs))
        measure("cold-md051", "cold --no-cache, real snapshot (B: markdownlint-cli2, MD051 only)", cold, md051(rules, docs))
        measure("cold-floor", "cold --no-cache, real snapshot (B: L)", cold, floor)
    if wanted("one-core") and shutil.which("taskset") and remark is not None:
        measure("one-core", "cold --no-cache, one core (taskset -c 0) (B: remark-validate-links)",
                Side(["taskset", "-c", "0", *cold.cmd], work, env), peer(rules, docs, taskset=True))
    if wanted("warm"):
        shutil.rmtree(cache, ignore_errors=True)
        measure("warm", "warm, nothing changed since the last run (B: L)", Side(check, work, env), floor)
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
            measure(f"changed-{doc}", f"one document changed ({doc}), the others cached (B: cold)",
                    Side(check, work, env, edit), cold)
            target.write_text(original, encoding="utf-8")
    if wanted("pr"):
        pr = work / "pr"
        # Not the peers' node_modules link the cold cases put in `rules`: copied, it would be a
        # folder of thousands of Markdown files in the branch (the full run measured 3.7x that way).
        shutil.copytree(rules, pr, ignore=shutil.ignore_patterns("node_modules"))
        pull_request(pr)
        runner = work / "runner-cache"
        # The Action: CI set, no $DRAFTERLINT_CACHE, the runner's cache folder new each job.
        ci_env = {k: v for k, v in env.items() if k != "DRAFTERLINT_CACHE"}
        ci_env.update(CI="true", GITHUB_ACTIONS="true", XDG_CACHE_HOME=str(runner))
        pr_check = [str(tool), "check", "--exit-zero", "--base-ref", "main", "--rules-repo", str(pr),
                    "--registry-repo", str(registry)]
        measure("pr", "the Action's pull-request path (--base-ref, CI, empty cache) (B: cold plain check)",
                Side(pr_check, pr, ci_env, lambda: shutil.rmtree(runner, ignore_errors=True)),
                Side([*pr_check[:3], *pr_check[5:], "--no-cache"], pr, env))
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
    tree: Result | None = None
    small, big = args.tree_files // 4, args.tree_files
    if wanted("tree") and args.tree_files:
        # The two sizes alternate, so that each pair ran under the same load: the median of the
        # pairs' CPU ratios says whether time grows with the files, where two medians taken
        # minutes apart measured the load as much (4.11x and 4.54x for the same build).
        sides = []
        for files in (big, small):
            d = work / f"tree{files}"
            generate_tree(d, files)
            sides.append(Side([str(tool), "check", "--exit-zero", "--no-cache", "--rules-repo", str(d)], d, env))
        tree = alternate(f"docs tree of {big} files, --no-cache (B: {small} files)", *sides, args.tree_runs)
        results.append(tree)
        for files in (big, small):
            shutil.rmtree(work / f"tree{files}", ignore_errors=True)
    action_tree: Result | None = None
    if wanted("action-tree") and args.tree_files:
        # The Action's path on the big tree: a pull request changing one page, CI set, no
        # $DRAFTERLINT_CACHE (the documents kept in memory for the base, bounded), against a
        # plain check of the same tree.
        d = work / f"tree{big}"
        generate_tree(d, big)
        page = d / "docs" / "part000" / "page1.md"
        _git(d, "init", "-q", "-b", "main")
        _git(d, "add", "-A")
        _git(d, "commit", "-qm", "base")
        _git(d, "checkout", "-qb", "pr")
        page.write_text(page.read_text(encoding="utf-8").replace("See [page", "See this [page", 1), encoding="utf-8")
        _git(d, "commit", "-qam", "a change")
        runner = work / "runner-cache"
        ci_env = {k: v for k, v in env.items() if k != "DRAFTERLINT_CACHE"}
        ci_env.update(CI="true", GITHUB_ACTIONS="true", XDG_CACHE_HOME=str(runner))
        action_tree = alternate(f"docs tree of {big} files, the Action's pull-request path (B: --no-cache)",
                                Side([str(tool), "check", "--exit-zero", "--base-ref", "main", "--rules-repo", str(d)],
                                     d, ci_env, lambda: shutil.rmtree(runner, ignore_errors=True)),
                                Side([str(tool), "check", "--exit-zero", "--no-cache", "--rules-repo", str(d)], d, env),
                                args.tree_runs)
        results.append(action_tree)
        shutil.rmtree(d, ignore_errors=True)

    command = " ".join(["python", "bench/bench.py", *sys.argv[1:]])
    print(f"drafterlint bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    trees = f", {args.tree_runs} alternating pairs of each tree case" if tree is not None or action_tree is not None else ""
    print(f"command: `{command}`; median of {args.pairs} alternating pairs (A = drafterlint; B as named){trees}\n")
    print("| case | wall A (s) | wall B (s) | wall A/B | CPU A (s) | CPU B (s) | CPU A/B | peak A (MiB) | peak B (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if r.b:
            print(f"| {r.name} | {r.median('a', 'wall'):.3f} | {r.median('b', 'wall'):.3f} | {r.ratio('wall'):.2f} "
                  f"| {r.median('a', 'cpu'):.3f} | {r.median('b', 'cpu'):.3f} | {r.ratio('cpu'):.2f} "
                  f"| {r.median('a', 'peak_mib'):.0f} | {r.median('b', 'peak_mib'):.0f} |")
        else:
            print(f"| {r.name} | {r.median('a', 'wall'):.3f} | | | {r.median('a', 'cpu'):.3f} | | | {r.median('a', 'peak_mib'):.0f} | |")

    print("\n| target (issue 39) | CPU | wall | met (CPU and wall) |")
    print("|---|---|---|---|")

    def target(label: str, key: str, limit: float) -> None:
        r = named.get(key)
        if r is not None:
            cpu, wall = r.ratio("cpu"), r.ratio("wall")
            print(f"| {label} | {cpu:.2f}× | {wall:.2f}× | {'yes' if max(cpu, wall) <= limit else 'NO'} |")

    target("warm ≤ 2 L", "warm", 2.0)
    target("one document changed (the rules document) ≤ 0.5× cold", "changed-endpoints_rules.md", 0.5)
    target("the pull-request path ≤ 1.2× cold", "pr", 1.2)
    target("cold ≤ 0.3× remark-validate-links", "cold-remark", 0.3)
    target("cold ≤ 0.35× markdownlint-cli2 (MD051 only)", "cold-md051", 0.35)
    if 1 in generated and 16 in generated:
        ratio = generated[16].median("a", "cpu") / generated[1].median("a", "cpu")
        print(f"| generated 16x ≤ 16× the 1x CPU | {ratio:.2f}× | | {'yes' if ratio <= 16 else 'NO'} |")
    def within_budget(label: str, files: int, peak: float) -> None:
        budget = 150 + files * 10 / 1024
        print(f"| {label}: peak ≤ 150 MB + 10 KB a file ({budget:.0f} MiB) | {peak:.0f} MiB "
              f"({(peak - 150) * 1024 / files:.1f} KiB a file over 150) | | {'yes' if peak <= budget else 'NO'} |")

    if tree is not None:
        grow, wall = tree.ratio("cpu"), tree.ratio("wall")
        per_file = ", ".join(f"{tree.median(side, 'cpu') / files * 1000:.2f} ms"
                             for side, files in (("b", small), ("a", big)))
        print(f"| docs tree: {big} files ≤ {big / small:.0f}× the CPU of {small} (linear; CPU a file {per_file}) "
              f"| {grow:.2f}× | {wall:.2f}× | {'yes' if grow <= (big / small) * 1.1 else 'NO'} |")
        within_budget(f"docs tree of {small} files", small, tree.median("b", "peak_mib"))
        within_budget(f"docs tree of {big} files", big, tree.median("a", "peak_mib"))
    if action_tree is not None:
        within_budget(f"docs tree of {big} files, the Action's pull-request path", big,
                      action_tree.median("a", "peak_mib"))
    print("\nThe hook's target (≤ 1.3× a plain check) is measured by bench/hook.py.")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
