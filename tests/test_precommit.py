"""The pre-commit hooks, with the real pre-commit: the manifest, the file patterns, and the hook
installed from this project by pre-commit and run on a small rules repository.

pre-commit installs the project into a virtualenv of its own with `pip install .`. The tests give
it a local wheelhouse (tests/helpers/wheelhouse.py: the installed dependencies and setuptools
packed as wheels) and no package index, and one PRE_COMMIT_HOME and one snapshot of the project
for the whole session, so the hook is installed once and no test needs the network. One test,
marked `network`, installs the hook as a user's `pre-commit try-repo` does, from the package index.
PRE_COMMIT_HOME and XDG_CACHE_HOME are temporary directories: nothing outside the test's folders
is touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT, pre_commit_exe, wheelhouse

MANIFEST = ROOT / ".pre-commit-hooks.yaml"


needs_pre_commit = pytest.mark.skipif(pre_commit_exe() is None, reason="pre-commit is not installed")


def hooks() -> dict[str, dict]:
    return {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}


@needs_pre_commit
def test_validate_manifest():
    proc = subprocess.run([pre_commit_exe(), "validate-manifest", str(MANIFEST)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hooks_check_the_whole_repository_once():
    for hook in hooks().values():
        assert hook["language"] == "python"
        # --hook: the commit is judged against HEAD, not the whole repository's past
        assert hook["entry"] == ("drafterlint check --fix --hook" if hook["id"] == "drafterlint-fix"
                                 else "drafterlint check --hook")
        assert hook["pass_filenames"] is False
        assert hook["require_serial"] is True
        assert hook.get("always_run") is not True  # `files` decides when it runs


@pytest.mark.parametrize("hook_id, path, runs", [
    ("drafterlint", "endpoints_rules.md", True),
    ("drafterlint", "endpoints_submission_rules.md", True),
    ("drafterlint", "docs/notes.md", True),
    ("drafterlint", ".drafterlint.yaml", True),
    ("drafterlint", ".pre-commit-config.yaml", True),  # DL901 judges a change of these alone
    ("drafterlint", ".github/workflows/drafterlint.yml", True),
    ("drafterlint", "docs/.pre-commit-config.yaml", False),
    ("drafterlint", ".github/workflows/scripts/x.yml", False),
    ("drafterlint", "review_cycle.svg", False),
    ("drafterlint", "README.mdx", False),
    ("drafterlint-registry", "src/inference_endpoint/validation/policies/2026-10-C0/catalog.yaml", True),
    ("drafterlint-registry", "src/inference_endpoint/validation/policies/2026-10-C0/point_checks.yml", True),
    ("drafterlint-registry", "examples/10_Agentic_Inference/README.md", True),
    ("drafterlint-registry", ".drafterlint.yml", True),
    ("drafterlint-registry", ".pre-commit-config.yaml", True),
    ("drafterlint-registry", ".github/workflows/ci.yaml", True),
    ("drafterlint-registry", ".github/dependabot.yml", False),
    ("drafterlint-registry", "src/inference_endpoint/validation/rules.py", False),
    ("drafterlint-registry", "examples/04_GPTOSS120B_Example/README.md", False),
    ("drafterlint-registry", "docs/src/inference_endpoint/validation/policies/x.yaml", False),
])
def test_files_patterns_match_the_real_layouts(hook_id, path, runs):
    # pre-commit matches `files` with re.search.
    assert bool(re.search(hooks()[hook_id]["files"], path)) is runs


def test_the_fixing_hook_runs_on_the_same_files_as_the_checking_one():
    assert hooks()["drafterlint-fix"]["files"] == hooks()["drafterlint"]["files"]


RULES_DOC = """\
# Endpoints Rules

## Table of Contents

- [1. Basics](#1-basics)
- [2. Models](#2-models)
  - [2.9 Model Equivalence Rules](#29-model-equivalence-rules)

## 1. Basics

The calendar is in [the submission rules](endpoints_submission_rules.md#42-publication).

## 2. Models

### 2.9 Model Equivalence Rules

#### 2.9.4 Speculative Decoding

Drafters must be approved; see [§2.9](#29-model-equivalence-rules).
"""

COMPANION_DOC = """\
# Submission Rules

## 1. Basics

See [the rules](endpoints_rules.md#294-speculative-decoding).

### 4.2 Publication

Results publish twice a month; see [Basics](#1-basics).
"""

# The hook is about links: select the link rules so that the fixture does not have to be a
# complete rules document for every other rule.
CONFIG = "select: [DL2]\n"


def git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid",
         "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    )


def rules_repo(base: Path, rules_doc: str, committed: str = RULES_DOC) -> Path:
    """The rules repository with `committed` at HEAD and `rules_doc` staged: the hooks judge
    what is being committed against HEAD."""
    repo = base / "endpoints_policies"
    repo.mkdir()
    (repo / "endpoints_rules.md").write_text(committed, encoding="utf-8")
    (repo / "endpoints_submission_rules.md").write_text(COMPANION_DOC, encoding="utf-8")
    (repo / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "rules")
    (repo / "endpoints_rules.md").write_text(rules_doc, encoding="utf-8")
    git(repo, "add", ".")
    return repo


# What `pip install .` of this project reads (pyproject.toml names the readme and the license).
_PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml", "src", "schemas")


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    """The project's current files (committed or not) as a clean git repository, and its commit:
    the same repository and revision in every test, so pre-commit installs the hook once."""
    snap = tmp_path_factory.mktemp("hook-repo") / "drafterlint"
    for name in _PROJECT_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, snap / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            snap.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, snap / name)
    git(snap, "init", "-q")
    git(snap, "add", ".")
    git(snap, "commit", "-qm", "snapshot")
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=snap, check=True, capture_output=True,
                         text=True).stdout.strip()
    return snap, rev


@pytest.fixture(scope="session")
def hook_env(tmp_path_factory) -> dict[str, str]:
    """pre-commit's environment: a PRE_COMMIT_HOME shared by the session, pip limited to a local
    wheelhouse (no package index), no cache or settings from the user's machine."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = _clean_env(home)
    env.update(wheelhouse.offline_pip_env(wheelhouse.build(tmp_path_factory.mktemp("wheelhouse"))))
    return env


def _clean_env(home: Path) -> dict[str, str]:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    for var in ("DRAFTERLINT_CACHE", "GITHUB_STEP_SUMMARY", "VIRTUAL_ENV"):
        env.pop(var, None)
    env["XDG_CACHE_HOME"] = str(home / "xdg")  # no sync cache from the user's machine
    return env


@pytest.fixture
def run_hook(hook_repo, hook_env, tmp_path_factory):
    """Run one hook of the manifest with `pre-commit run --all-files` in a rules repository, the
    hook coming from the session's snapshot of the project (installed on first use)."""
    repo_path, rev = hook_repo
    config = tmp_path_factory.mktemp("pre-commit-config") / "pre-commit-config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": str(repo_path), "rev": rev, "hooks": [
        {"id": "drafterlint"}, {"id": "drafterlint-fix"}]}]}), encoding="utf-8")

    def run(repo: Path, hook: str = "drafterlint") -> subprocess.CompletedProcess:
        return subprocess.run(
            [pre_commit_exe(), "run", "--config", str(config), hook, "--all-files", "--verbose"],
            cwd=repo, env=hook_env, capture_output=True, text=True, timeout=900,
        )

    return run


@needs_pre_commit
def test_hook_passes_on_consistent_documents(tmp_path, run_hook):
    repo = rules_repo(tmp_path, RULES_DOC)
    proc = run_hook(repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.search(r"drafterlint \(rules documents\)\.+Passed", out), out
    assert "0 error(s)" in out


@needs_pre_commit
def test_hook_fails_on_a_broken_link(tmp_path, run_hook):
    broken = RULES_DOC.replace("](#29-model-equivalence-rules).", "](#2-9-model-equivalence).")
    assert broken != RULES_DOC
    repo = rules_repo(tmp_path, broken)
    proc = run_hook(repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert re.search(r"drafterlint \(rules documents\)\.+Failed", out), out
    line = broken.splitlines().index(
        next(ln for ln in broken.splitlines() if "#2-9-model-equivalence" in ln)) + 1
    assert f"endpoints_rules.md:{line}:" in out
    assert "DL201 broken-fragment" in out
    assert "#29-model-equivalence-rules" in out  # the suggestion


@needs_pre_commit
def test_hook_in_the_rules_repository_is_quiet_and_scoped(tmp_path, run_hook):
    # The reference repository beside it (registry.path) has two defects of its own, and a link
    # into an unconfigured repository is an info: each is one summary line, never a path with `..`.
    broken = RULES_DOC.replace("](#29-model-equivalence-rules).", "](#2-9-model-equivalence).")
    broken += "\nSee [elsewhere](https://github.com/someone/else/blob/main/x.md).\n"
    repo = rules_repo(tmp_path, RULES_DOC)
    policy = tmp_path / "endpoints" / "src/inference_endpoint/validation/policies/2026-10-C0"
    policy.mkdir(parents=True)
    (policy / "catalog.yaml").write_text(
        "version: 2026-10-C0\nrevision: 1\nversion: 2026-10-C0\ncatalogs:\n"
        "  approved_spec_decode_heads: []\n  approved_checkpoints: {}\n", encoding="utf-8")
    (repo / ".drafterlint.yaml").write_text(
        "select: [DL2, DL3, DL7, DL8]\nregistry:\n  path: ../endpoints\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "configure")
    (repo / "endpoints_rules.md").write_text(broken, encoding="utf-8")
    git(repo, "add", ".")
    proc = run_hook(repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    tool = [ln for ln in out.splitlines() if ": DL" in ln or "not shown" in ln or "skipped" in ln
            or "not changed here" in ln or "error(s)" in ln]
    findings = [ln for ln in tool if ": DL" in ln]
    assert len(findings) == 1 and findings[0].startswith("endpoints_rules.md:"), out
    assert "1 info not shown: --show-info" in tool
    assert "1 finding in mlcommons/endpoints, not changed here (1 error): -v shows them" in tool
    assert sum("checks skipped" in ln for ln in tool) == 1
    assert not any("/.." in ln or str(tmp_path) in ln for ln in tool), tool


@needs_pre_commit
def test_the_fixing_hook_mends_a_renumbered_link_then_passes(tmp_path, run_hook):
    # The change renumbers §2.8 to §2.9: the links it broke are mended to the heading's new anchor.
    before = RULES_DOC.replace("2.9 Model Equivalence", "2.8 Model Equivalence").replace(
        "#29-model-equivalence-rules", "#28-model-equivalence-rules").replace("[§2.9]", "[§2.8]")
    stale = RULES_DOC.replace("see [§2.9](#29-model-equivalence-rules).", "see [§2.9](#28-model-equivalence-rules).")
    stale = stale.replace("[2.9 Model Equivalence Rules](#29-model-equivalence-rules)",
                          "[2.9 Model Equivalence Rules](#28-model-equivalence-rules)")
    assert stale != RULES_DOC
    repo = rules_repo(tmp_path, stale, committed=before)
    proc = run_hook(repo, "drafterlint-fix")
    out = proc.stdout + proc.stderr
    # pre-commit fails a hook that modified files, even though nothing is left to report.
    assert proc.returncode == 1, out
    assert re.search(r"drafterlint \(fix and check rules documents\)\.+Failed", out), out
    assert "files were modified by this hook" in out
    assert (repo / "endpoints_rules.md").read_text(encoding="utf-8") == RULES_DOC
    git(repo, "add", "-A")
    proc = run_hook(repo, "drafterlint-fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_pre_commit
@pytest.mark.network
def test_try_repo_installs_the_hook_from_the_package_index(tmp_path):
    """What a user's `pre-commit try-repo` does: install this checkout with its dependencies
    resolved from the package index (the declared ranges, not what this machine has)."""
    if not (ROOT / ".git").exists():
        pytest.skip("try-repo needs the project as a git checkout")
    repo = rules_repo(tmp_path, RULES_DOC)
    env = _clean_env(tmp_path / "pre-commit-home")
    for var in ("PIP_NO_INDEX", "PIP_FIND_LINKS"):
        env.pop(var, None)
    proc = subprocess.run([pre_commit_exe(), "try-repo", str(ROOT), "drafterlint", "--all-files", "--verbose"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.search(r"drafterlint \(rules documents\)\.+Passed", out), out


def _sha(repo: Path, rev: str = "HEAD") -> str:
    return subprocess.run(["git", "rev-parse", rev], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


@needs_pre_commit
def test_pre_push_judges_the_pushed_range_and_says_when_it_is_not_checked_out(tmp_path, hook_repo, hook_env):
    # `git push` through the hook pre-commit installs: pre-commit passes the range (the remote's
    # commit, the pushed one) in PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF.
    repo_path, rev = hook_repo
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": str(repo_path), "rev": rev, "hooks": [
        {"id": "drafterlint", "stages": ["pre-push"], "verbose": True}]}]}), encoding="utf-8")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    repo = rules_repo(tmp_path, RULES_DOC)
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "origin", "main")
    subprocess.run([pre_commit_exe(), "install", "--config", str(config), "--hook-type", "pre-push"],
                   cwd=repo, env=hook_env, check=True, capture_output=True, text=True)

    def push(*refs: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "push", "origin", *refs], cwd=repo, env=hook_env,
                              capture_output=True, text=True, timeout=900)

    broken = RULES_DOC.replace("](#29-model-equivalence-rules).", "](#2-9-model-equivalence).")
    (repo / "endpoints_rules.md").write_text(broken, encoding="utf-8")
    git(repo, "commit", "-qam", "break a link")
    proc = push("main")  # TO_REF is HEAD
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "DL201 broken-fragment" in out and "#2-9-model-equivalence" in out, out
    assert "is not checked out" not in out, out
    assert _sha(origin, "main") != _sha(repo)  # the push was refused

    # A branch that is not checked out: its tree is not the one on disk, and the hook says so.
    git(repo, "branch", "other", "HEAD~1")
    git(repo, "checkout", "-q", "other")
    (repo / "endpoints_submission_rules.md").write_text(COMPANION_DOC + "\nMore.\n", encoding="utf-8")
    git(repo, "commit", "-qam", "a harmless change")
    git(repo, "checkout", "-q", "main")
    proc = push("other")
    out = proc.stdout + proc.stderr
    assert f"drafterlint: {_sha(repo, 'other')} is not checked out: the working tree is judged against" in out, out


OLD_DEFECT = "\nAn old one: [gone](#gone).\n"
NEW_DEFECT = "\nA new one: [nowhere](#nowhere).\n"


def _origin_with_a_branch(tmp_path: Path, *, baseline: bool = False) -> Path:
    """A bare origin whose `main` has an old broken link (and, with `baseline`, the baseline file
    recording it) and whose branch `feature` adds one more."""
    work = rules_repo(tmp_path, RULES_DOC + OLD_DEFECT)
    if baseline:
        (work / ".drafterlint.yaml").write_text(CONFIG + "baseline: .drafterlint-baseline.json\n", encoding="utf-8")
        subprocess.run([*_drafterlint(), "baseline"], cwd=work, check=True, capture_output=True)
        assert "#gone" in (work / ".drafterlint-baseline.json").read_text(encoding="utf-8")
        git(work, "add", ".")
    git(work, "commit", "-qm", "an old defect")
    git(work, "checkout", "-qb", "feature")
    (work / "endpoints_rules.md").write_text(RULES_DOC + OLD_DEFECT + NEW_DEFECT, encoding="utf-8")
    git(work, "commit", "-qam", "a new defect")
    git(work, "checkout", "-q", "main")  # the origin's default branch
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(origin))
    return origin


def _drafterlint() -> list[str]:
    import sys

    return [sys.executable, "-m", "drafterlint"]


def _ci_run(config: Path, repo: Path, env: dict) -> tuple[int, str, list[str]]:
    """`pre-commit run --all-files` as a CI job runs it: CI=true, a clean checkout, nothing staged."""
    proc = subprocess.run([pre_commit_exe(), "run", "--config", str(config), "drafterlint", "--all-files",
                           "--verbose"], cwd=repo, env=dict(env, CI="true"), capture_output=True, text=True,
                          timeout=900)
    out = proc.stdout + proc.stderr
    return proc.returncode, out, [ln for ln in out.splitlines() if re.match(r"^\S+:\d+:\d+: DL", ln)]


@pytest.fixture
def ci_config(hook_repo, tmp_path_factory) -> Path:
    repo_path, rev = hook_repo
    config = tmp_path_factory.mktemp("pre-commit-config") / "pre-commit-config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": str(repo_path), "rev": rev, "hooks": [
        {"id": "drafterlint"}]}]}), encoding="utf-8")
    return config


@needs_pre_commit
def test_in_ci_the_hook_judges_the_branch_against_the_default_one(tmp_path, ci_config, hook_env):
    origin = _origin_with_a_branch(tmp_path)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))  # origin/HEAD: main
    git(clone, "checkout", "-q", "feature")
    code, out, findings = _ci_run(ci_config, clone, hook_env)
    assert code == 1, out
    assert len(findings) == 1 and "#nowhere" in findings[0], out
    assert "1 pre-existing finding (in the merge base " in out and " of origin/HEAD)" in out
    git(clone, "checkout", "-q", "main")
    code, out, findings = _ci_run(ci_config, clone, hook_env)
    assert code == 0 and findings == [], out
    assert re.search(r"drafterlint \(rules documents\)\.+Passed", out), out


@needs_pre_commit
@pytest.mark.parametrize("baseline", [True, False], ids=["with-baseline", "without"])
def test_a_shallow_ci_clone_falls_back_to_the_committed_baseline(tmp_path, ci_config, hook_env, baseline):
    origin = _origin_with_a_branch(tmp_path, baseline=baseline)
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", origin.as_uri(), str(clone))
    code, out, findings = _ci_run(ci_config, clone, hook_env)
    assert code == 1, out
    said = [ln for ln in out.splitlines() if ln.startswith("drafterlint: ")]
    if baseline:  # the new link alone fails, against the file
        assert len(findings) == 1 and "#nowhere" in findings[0], out
        assert said == ["drafterlint: no default branch (origin/HEAD, main, master, origin/main, origin/master) "
                        "in this clone, a shallow one perhaps: judged against the baseline file "
                        ".drafterlint-baseline.json"], out
    else:  # every finding counts, and one line says why and how to give a base
        assert sorted("#nowhere" in ln for ln in findings) == [False, True], out
        assert len(said) == 1 and said[0].startswith("drafterlint: nothing to commit, and no default branch "), out
        assert "`args: [--base-ref, origin/main]`" in said[0] and "`drafterlint baseline`" in said[0]
