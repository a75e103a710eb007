"""The command line's front (drafterlint.front, issue 39 item 1): a warm `check` printed from the
cache before the rest of the tool is imported. It derives the run's key with the full run's own
functions (drafterlint.inputs); these tests hold that it answers only where the full run, done
now, would print the same bytes on each stream and exit with the same status, and that an answer
imports only what deriving the key needs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from drafterlint import inputs
from drafterlint.config import Config
from tests.helpers import FIXTURES
from tests.helpers.imported import FRONT_AND_TRACE


@dataclass
class Ran:
    out: str
    err: str
    status: int
    modules: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        """Whether the front answered (the full command line was never imported)."""
        return "drafterlint.cli" not in self.modules

    @property
    def shown(self) -> tuple[str, str, int]:
        """What the user sees: each stream, and the exit status (but the line of -v that says
        whether the cache was used, which a run without one cannot say)."""
        err = "".join(line for line in self.err.splitlines(keepends=True) if not line.startswith("drafterlint: cache: "))
        return (self.out, err, self.status)


class Bench:
    """Two repositories copied from the example and a working folder, run through the front (with
    one cache kept across runs) and through the full run without any cache."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.work = tmp_path / "work"
        self.work.mkdir()
        shutil.copytree(FIXTURES / "example" / "rules", self.work / "rules")
        shutil.copytree(FIXTURES / "example" / "endpoints", self.work / "registry")
        self.cache = tmp_path / "cache"
        self.trace = tmp_path / "modules.json"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("DRAFTERLINT_", "GITHUB_", "PRE_COMMIT")) and k not in ("CI", "XDG_CACHE_HOME")}

    def _run(self, argv: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=300)

    def front(self, args: list[str], env: dict, cwd: Path) -> Ran:
        self.trace.unlink(missing_ok=True)
        proc = self._run([sys.executable, "-c", FRONT_AND_TRACE, str(self.trace), *args],
                         {**self.env, **env, "DRAFTERLINT_CACHE": str(self.cache)}, cwd)
        modules = json.loads(self.trace.read_text()) if self.trace.exists() else ["drafterlint.cli"]
        return Ran(proc.stdout, proc.stderr, proc.returncode, modules)

    def full(self, args: list[str], env: dict, cwd: Path) -> Ran:
        proc = self._run([sys.executable, "-m", "drafterlint", *args],
                         {**self.env, **env, "DRAFTERLINT_CACHE": str(self.tmp / "unused"), "DRAFTERLINT_NO_CACHE": "1"}, cwd)
        return Ran(proc.stdout, proc.stderr, proc.returncode)


@dataclass
class Step:
    name: str
    args: list[str]
    change: Callable[[Path], None] = lambda work: None
    env: dict = field(default_factory=dict)
    where: str = "."  # the working folder, under the bench's
    answerable: bool = True  # whether the front may answer this command at all


def _append(path: str, text: str) -> Callable[[Path], None]:
    def change(work: Path) -> None:
        with open(work / path, "a", encoding="utf-8") as fh:
            fh.write(text)
    return change


def _write(path: str, text: str) -> Callable[[Path], None]:
    return lambda work: (work / path).write_text(text, encoding="utf-8")


def _remove(path: str) -> Callable[[Path], None]:
    return lambda work: (work / path).unlink()


def _baseline(work: Path) -> None:
    subprocess.run([sys.executable, "-m", "drafterlint", "baseline", "--rules-repo", "rules", "--registry-repo",
                    "registry", "--output", str(work / ".drafterlint-baseline.json")],
                   cwd=work, check=True, capture_output=True, env={**os.environ, "DRAFTERLINT_NO_CACHE": "1"})


def _drop_first_line(path: str) -> Callable[[Path], None]:
    def change(work: Path) -> None:
        lines = (work / path).read_text(encoding="utf-8").splitlines(keepends=True)
        (work / path).write_text("".join(lines[1:]), encoding="utf-8")
    return change


def _repoint(work: Path) -> None:
    """`link` (the rules repository as given) now leads to a copy with one more broken link."""
    other = work.parent / "rules-copy"
    shutil.copytree(work / "rules", other)
    with open(other / "endpoints_submission_rules.md", "a", encoding="utf-8") as fh:
        fh.write("\nSee [nowhere](#no-such-heading).\n")
    (work / "link").unlink()
    (work / "link").symlink_to(other)


def _git_init(where: str) -> Callable[[Path], None]:
    return lambda work: subprocess.run(["git", "init", "-q", str(work / where)], check=True)


REPOS = ["--rules-repo", "rules", "--registry-repo", "registry"]
CHECK = ["check", *REPOS]

# Each step changes one input (or none) and runs a command; the order matters (a baseline file is
# written, then edited; a configuration file appears, then changes).
STEPS = [
    Step("first run", CHECK),
    Step("nothing changed", CHECK),
    Step("a document edited", CHECK, _append("rules/endpoints_rules.md", "\nSee [gone](#no-such-heading).\n")),
    Step("a document added", CHECK, _write("rules/new.md", "# New\n\n[broken](#nowhere)\n")),
    Step("a registry file edited", CHECK, _append("registry/examples/10_Agentic_Inference/README.md", "\n[x](#nope)\n")),
    Step("a document removed", CHECK, _remove("rules/new.md")),
    Step("--format json", [*CHECK, "--format", "json"]),
    Step("--format sarif", [*CHECK, "--format", "sarif"]),
    Step("--format markdown", [*CHECK, "--format=markdown"]),
    Step("DRAFTERLINT_FORMAT=json", CHECK, env={"DRAFTERLINT_FORMAT": "json"}),
    Step("DRAFTERLINT_FORMAT unusable", CHECK, env={"DRAFTERLINT_FORMAT": "yaml"}, answerable=False),
    Step("GITHUB_ACTIONS=true (annotations, the job summary)", CHECK, env={"GITHUB_ACTIONS": "true"}, answerable=False),
    Step("DRAFTERLINT_ACTION set", CHECK, env={"DRAFTERLINT_ACTION": "1"}),
    Step("CI=true (the front stays out of CI)", CHECK, env={"CI": "true"}, answerable=False),
    Step("GITHUB_REPOSITORY names the registry", [*CHECK, "--scope", "mlcommons/endpoints"],
         env={"GITHUB_REPOSITORY": "mlcommons/endpoints"}),
    Step("--scope rules", [*CHECK, "--scope", "rules"]),
    Step("-q", [*CHECK, "-q"]),
    Step("--show-info --statistics", [*CHECK, "--show-info", "--statistics"]),
    Step("--exit-zero", [*CHECK, "--exit-zero"]),
    Step("--today", [*CHECK, "--today", "2026-01-15"]),
    Step("another --today", [*CHECK, "--today", "2026-11-30"]),
    Step("--today in another spelling", [*CHECK, "--today", "20261130"]),
    Step("a baseline file written", CHECK, _baseline),
    Step("the baseline file edited", CHECK, _drop_first_line(".drafterlint-baseline.json")),
    Step("--all ignores the baseline", [*CHECK, "--all"]),
    Step("the baseline file removed", CHECK, _remove(".drafterlint-baseline.json")),
    Step("--baseline names a missing file", [*CHECK, "--baseline", "none.json"], answerable=False),
    Step("a configuration file appears", CHECK, _write(".drafterlint.yaml", "fail_on: warning\n")),
    Step("the configuration file edited", CHECK, _write(".drafterlint.yaml", "fail_on: warning\nignore: [DL2]\n")),
    Step("the configuration names the registry", ["check"],
         _write(".drafterlint.yaml", "rules:\n  path: rules\nregistry:\n  path: registry\n")),
    Step("the configured registry moved", ["check"],
         lambda work: (work / "registry").rename(work / "registry2")),
    Step("the configuration follows", ["check"],
         _write(".drafterlint.yaml", "rules:\n  path: rules\nregistry:\n  path: registry2\n")),
    Step("configuration removed, registry back", CHECK,
         lambda work: ((work / ".drafterlint.yaml").unlink(), (work / "registry2").rename(work / "registry"))),
    Step("--select (not followed)", [*CHECK, "--select", "DL2"], answerable=False),
    Step("-v (says whether the cache hit)", [*CHECK, "-v"], answerable=False),
    Step("in the rules repository", ["check", "--registry-repo", "../registry"], where="rules"),
    Step("the rules repository becomes a git checkout", ["check", "--registry-repo", "../registry"],
         _git_init("rules"), where="rules"),
    Step("the rules repository given through a link", ["check", "--rules-repo", "link", "--registry-repo", "registry"],
         lambda work: (work / "link").symlink_to(work / "rules")),
    Step("the link leads elsewhere", ["check", "--rules-repo", "link", "--registry-repo", "registry"], _repoint),
    Step("the rules document removed (a usage error)", CHECK, _remove("rules/endpoints_rules.md"), answerable=False),
]


def test_the_front_answers_only_what_the_full_run_would_print_now(tmp_path):
    """After each change, the command through the front (twice) and the full run without a cache
    print the same on each stream and exit the same; the second time, the front answers every
    command it follows, and never one it does not."""
    bench = Bench(tmp_path)
    answered = 0
    for step in STEPS:
        step.change(bench.work)
        cwd = bench.work / step.where
        full = bench.full(step.args, step.env, cwd)
        for attempt in (1, 2):
            ran = bench.front(step.args, step.env, cwd)
            assert ran.shown == full.shown, f"{step.name} (run {attempt}): {ran} != {full}"
        assert ran.answered == (step.answerable and full.status in (0, 1)), f"{step.name}: answered {ran.answered}"
        answered += ran.answered
    assert answered > 25


def test_an_answer_imports_only_what_the_key_needs(tmp_path):
    """In a fresh interpreter, an answered run imports none of the command line, the
    configuration's dataclass, the engine or the reports, nor argparse, pathlib or dataclasses."""
    bench = Bench(tmp_path)
    bench.front(CHECK, {}, bench.work)
    ran = bench.front(CHECK, {}, bench.work)
    assert ran.answered and ran.status == 1  # the example's planted defects
    ours = sorted(m for m in ran.modules if m.split(".")[0] == "drafterlint")
    # (lazyre: the cache's name patterns, compiled where first used)
    assert ours == ["drafterlint", "drafterlint.cache_codec", "drafterlint.cache_store", "drafterlint.config_defaults",
                    "drafterlint.front", "drafterlint.inputs", "drafterlint.lazyre"]
    # What the interpreter imports on its own here (an editable install's finder imports pathlib).
    startup = set(json.loads(subprocess.run([sys.executable, "-c", "import json, sys; print(json.dumps(list(sys.modules)))"],
                                            capture_output=True, text=True, check=True, env=bench.env).stdout))
    added = set(ran.modules) - startup
    assert not {"argparse", "pathlib", "dataclasses", "inspect", "yaml", "jsonschema", "mistune"} & added


def test_the_front_keys_a_configuration_as_the_config_it_stands_for(tmp_path):
    data = {"fail_on": "warning", "rules": {"path": "x", "sections": {}}, "select": ["DL2"]}
    for source, base in ((None, str(tmp_path)), (str(tmp_path / ".drafterlint.yaml"), str(tmp_path))):
        full = Config(data, None if source is None else Path(source), Path(base))
        assert inputs.canonical(full) == inputs.canonical(inputs.config_form(data, source, base))


@given(st.text(alphabet="/.a~", max_size=12))
@example("//a")
@example("///a/./b/")
@example("")
def test_a_path_is_keyed_as_pathlib_spells_it(text):
    assert inputs.path_text(text) == str(PurePosixPath(text))


@pytest.mark.parametrize("args", [["rules"], ["check", "--no-cache", *REPOS], ["explain", "DL201"]])
def test_what_the_front_does_not_answer_goes_to_the_command_line(tmp_path, args):
    bench = Bench(tmp_path)
    ran = bench.front(args, {}, bench.work)
    assert not ran.answered
    assert ran.shown == bench.full(args, {}, bench.work).shown


# `python -c KEYS_COUNTED ARGS...`: the console script through the front, then (on stderr, as
# JSON) how often the tool's fingerprint and a key of the cache were worked out.
KEYS_COUNTED = (
    "import json, sys\n"
    "from drafterlint import inputs\n"
    "counts = {'fingerprint': 0, 'key': 0}\n"
    "def counted(name):\n"
    "    real = getattr(inputs, name)\n"
    "    def call(*args, **kwargs):\n"
    "        counts[name] += 1\n"
    "        return real(*args, **kwargs)\n"
    "    setattr(inputs, name, call)\n"
    "counted('fingerprint')\n"
    "counted('key')\n"
    "from drafterlint.front import main\n"
    "code = main()\n"
    "print(json.dumps(counts), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


@pytest.mark.parametrize("flags", [["--no-cache"], ["--exit-zero", "--no-cache", "-q"]])
def test_a_check_without_the_cache_works_out_no_key(tmp_path, flags):
    """A run with --no-cache stores no answer, so the front looks for none: it does not work out
    the invocation's key (the tool's fingerprint, every file of the package and its dependencies
    stat'ed and hashed), and neither does the rest of the run. Without the flag, or with it as
    a file name after `--`, the front works the key out as before."""
    bench = Bench(tmp_path)

    def counts(args: list[str]) -> dict:
        proc = bench._run([sys.executable, "-c", KEYS_COUNTED, *args], {**bench.env, "DRAFTERLINT_CACHE": str(bench.cache)},
                          bench.work)
        assert proc.returncode in (0, 1), proc.stderr
        return json.loads(proc.stderr.splitlines()[-1])

    assert counts(["check", *flags, *REPOS]) == {"fingerprint": 0, "key": 0}
    assert counts(["check", *REPOS, "--", "--no-cache"])["fingerprint"] > 0
    assert counts(["check", *REPOS])["key"] > 0
