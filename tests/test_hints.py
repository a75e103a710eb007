"""Hints name what the reader has: in the hook, the fix hook as pre-commit runs it when the
configuration lists it, else the command that works in their shell; in pre-push, the branch
beside the sha; in the GitHub Action, its inputs and outputs."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.helpers import committed, git

DOC = """\
# Rules

## 1. Basics

See [§2.1](#21-rotation).

## 2. Seeds

### 2.1 Rotation
"""



@pytest.fixture
def renamed(tmp_path, monkeypatch):
    """A committed rules repository whose working tree renames §2.1; PATH holds git and no
    drafterlint of its own."""
    root = committed(tmp_path / "rules", {"endpoints_rules.md": DOC, ".drafterlint.yaml": "select: [DL2]\n"})
    (root / "endpoints_rules.md").write_text(DOC.replace("2.1 Rotation", "2.1 Seed Rotation"), encoding="utf-8")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to(shutil.which("git"))
    monkeypatch.setenv("PATH", str(bare))
    for name in ("PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "PRE_COMMIT_REMOTE_NAME", "PRE_COMMIT_REMOTE_BRANCH"):
        monkeypatch.delenv(name, raising=False)
    return root


def _hint(cli, root) -> str:
    code, out, err = cli("check", "--hook", "--no-cache", cwd=root)
    assert code == 1, out + err
    (line,) = [ln for ln in out.splitlines() if " DL201 " in ln]
    return line.split("; ", 2)[2]


def test_in_the_hook_without_the_command_it_offers_pipx_and_the_fix_hook(cli, renamed):
    assert _hint(cli, renamed) == ("run `pipx run drafterlint fix --base-ref HEAD`, or list the drafterlint-fix "
                                   "hook in .pre-commit-config.yaml")


def test_in_the_hook_with_the_command_installed_it_names_the_command(cli, renamed, tmp_path, monkeypatch):
    installed = tmp_path / "pipx-bin"
    installed.mkdir()
    exe = installed / "drafterlint"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join([os.environ["PATH"], str(installed)]))
    assert _hint(cli, renamed) == "run `drafterlint fix --base-ref HEAD`"


@pytest.mark.parametrize("stages, command", [
    ("", "pre-commit run drafterlint-fix"),
    ("        stages: [manual]\n", "pre-commit run --hook-stage manual drafterlint-fix"),
])
def test_in_the_hook_the_listed_fix_hook_as_pre_commit_runs_it(cli, renamed, stages, command):
    (renamed / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/mlcommons/drafterlint\n    rev: v0.1.0\n    hooks:\n"
        "      - id: drafterlint\n      - id: drafterlint-fix\n" + stages)
    assert _hint(cli, renamed) == f"run `{command}`"


def test_a_commented_out_fix_hook_is_not_offered(cli, renamed):
    (renamed / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/mlcommons/drafterlint\n    rev: v0.1.0\n    hooks:\n"
        "      - id: drafterlint\n      # - id: drafterlint-fix\n")
    assert _hint(cli, renamed).startswith("run `pipx run drafterlint fix --base-ref HEAD`")


def test_in_pre_push_the_branch_stands_beside_the_sha(cli, renamed, monkeypatch):
    base = git(renamed, "rev-parse", "HEAD")
    git(renamed, "checkout", "-qb", "topic")
    git(renamed, "commit", "-qam", "rename")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", git(renamed, "rev-parse", "HEAD"))
    assert _hint(cli, renamed) == f"run `pipx run drafterlint fix --base-ref {base}` (main)"


def test_in_the_action_the_words_are_its_inputs(cli, renamed, monkeypatch, tmp_path):
    git(renamed, "checkout", "--", "endpoints_rules.md")  # the base gets a broken link of its own
    (renamed / "endpoints_rules.md").write_text(DOC + "\n[old](#1-gone)\n", encoding="utf-8")
    git(renamed, "commit", "-qam", "base with a broken link")
    base = git(renamed, "rev-parse", "HEAD")
    text = (renamed / "endpoints_rules.md").read_text().replace("2.1 Rotation", "2.1 Seed Rotation")
    (renamed / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git(renamed, "commit", "-qam", "rename")
    monkeypatch.setenv("DRAFTERLINT_ACTION", "suggest-fixes")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    code, out, err = cli("check", "--format", "github", "--base-ref", base, "--no-cache", cwd=renamed)
    (renamed_line,) = [ln for ln in out.splitlines() if "renamed it to" in ln]
    assert renamed_line.endswith(f"apply the job summary's patch (suggest-fixes), or run `drafterlint fix "
                                 f"--base-ref {base}`")
    assert (f"drafterlint: 1 pre-existing finding (in the base commit {base[:10]}) do not fail this run: folded "
            "in the job summary; the input only-new: false makes them count") in out
    assert "--all" not in out
