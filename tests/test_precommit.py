"""The pre-commit hooks, with the real pre-commit: the manifest, the file patterns, and the hook
installed from this checkout by `pre-commit try-repo` and run on a small rules repository.

try-repo installs this project into an isolated virtualenv, so it needs pip to reach the package
index for the dependencies (PyYAML, jsonschema, mistune, GitPython, requests); PRE_COMMIT_HOME is
a temporary directory so nothing outside the test's folders is touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"


def pre_commit_exe() -> str | None:
    beside = Path(sys.executable).parent / "pre-commit"
    return str(beside) if beside.exists() else shutil.which("pre-commit")


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
        assert hook["entry"] == ("drafterlint check --fix" if hook["id"] == "drafterlint-fix" else "drafterlint check")
        assert hook["pass_filenames"] is False
        assert hook["require_serial"] is True
        assert hook.get("always_run") is not True  # `files` decides when it runs


@pytest.mark.parametrize("hook_id, path, runs", [
    ("drafterlint", "endpoints_rules.md", True),
    ("drafterlint", "endpoints_submission_rules.md", True),
    ("drafterlint", "docs/notes.md", True),
    ("drafterlint", ".drafterlint.yaml", True),
    ("drafterlint", "review_cycle.svg", False),
    ("drafterlint", "README.mdx", False),
    ("drafterlint-registry", "src/inference_endpoint/validation/policies/2026-10-C0/catalog.yaml", True),
    ("drafterlint-registry", "src/inference_endpoint/validation/policies/2026-10-C0/point_checks.yml", True),
    ("drafterlint-registry", "examples/10_Agentic_Inference/README.md", True),
    ("drafterlint-registry", ".drafterlint.yml", True),
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


def rules_repo(base: Path, rules_doc: str) -> Path:
    repo = base / "endpoints_policies"
    repo.mkdir()
    (repo / "endpoints_rules.md").write_text(rules_doc, encoding="utf-8")
    (repo / "endpoints_submission_rules.md").write_text(COMPANION_DOC, encoding="utf-8")
    (repo / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "rules")
    return repo


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory):
    return tmp_path_factory.mktemp("pre-commit-home")


def try_repo(repo: Path, home: Path, hook: str = "drafterlint") -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    for var in ("DRAFTERLINT_CACHE", "GITHUB_STEP_SUMMARY", "VIRTUAL_ENV"):
        env.pop(var, None)
    env["XDG_CACHE_HOME"] = str(home / "xdg")  # no sync cache from the user's machine
    return subprocess.run(
        [pre_commit_exe(), "try-repo", str(ROOT), hook, "--all-files", "--verbose"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=900,
    )


@needs_pre_commit
def test_try_repo_passes_on_consistent_documents(tmp_path, pre_commit_home):
    repo = rules_repo(tmp_path, RULES_DOC)
    proc = try_repo(repo, pre_commit_home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.search(r"drafterlint \(rules documents\)\.+Passed", out), out
    assert "0 error(s)" in out


@needs_pre_commit
def test_try_repo_fails_on_a_broken_link(tmp_path, pre_commit_home):
    broken = RULES_DOC.replace("](#29-model-equivalence-rules).", "](#2-9-model-equivalence).")
    assert broken != RULES_DOC
    repo = rules_repo(tmp_path, broken)
    proc = try_repo(repo, pre_commit_home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert re.search(r"drafterlint \(rules documents\)\.+Failed", out), out
    line = broken.splitlines().index(
        next(ln for ln in broken.splitlines() if "#2-9-model-equivalence" in ln)) + 1
    assert f"endpoints_rules.md:{line}:" in out
    assert "DL201 broken-fragment" in out
    assert "#29-model-equivalence-rules" in out  # the suggestion


@needs_pre_commit
def test_try_repo_in_the_rules_repository_is_quiet_and_scoped(tmp_path, pre_commit_home):
    # The reference repository beside it (registry.path) has two defects of its own, and a link
    # into an unconfigured repository is an info: each is one summary line, never a path with `..`.
    broken = RULES_DOC.replace("](#29-model-equivalence-rules).", "](#2-9-model-equivalence).")
    broken += "\nSee [elsewhere](https://github.com/someone/else/blob/main/x.md).\n"
    repo = rules_repo(tmp_path, broken)
    policy = tmp_path / "endpoints" / "src/inference_endpoint/validation/policies/2026-10-C0"
    policy.mkdir(parents=True)
    (policy / "catalog.yaml").write_text(
        "version: 2026-10-C0\nrevision: 1\nversion: 2026-10-C0\ncatalogs:\n"
        "  approved_spec_decode_heads: []\n  approved_checkpoints: {}\n", encoding="utf-8")
    (repo / ".drafterlint.yaml").write_text(
        "select: [DL2, DL3, DL7, DL8]\nregistry:\n  path: ../endpoints\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "configure")
    proc = try_repo(repo, pre_commit_home)
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
def test_the_fixing_hook_mends_a_renumbered_link_then_passes(tmp_path, pre_commit_home):
    # §2.9 was §2.8 when the link was written: the same title under another number is mended.
    stale = RULES_DOC.replace("see [§2.9](#29-model-equivalence-rules).", "see [§2.9](#28-model-equivalence-rules).")
    assert stale != RULES_DOC
    repo = rules_repo(tmp_path, stale)
    proc = try_repo(repo, pre_commit_home, "drafterlint-fix")
    out = proc.stdout + proc.stderr
    # pre-commit fails a hook that modified files, even though nothing is left to report.
    assert proc.returncode == 1, out
    assert re.search(r"drafterlint \(fix and check rules documents\)\.+Failed", out), out
    assert "files were modified by this hook" in out
    assert (repo / "endpoints_rules.md").read_text(encoding="utf-8") == RULES_DOC
    git(repo, "add", "-A")
    proc = try_repo(repo, pre_commit_home, "drafterlint-fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
