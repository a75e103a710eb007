"""A contributor's first day, with the real pre-commit and real git commits, offline.

The rules repository has about twenty old defects of several kinds. The hooks are the ones
.pre-commit-hooks.yaml declares, installed as `repo: local` hooks with `language: system` whose
entry is this drafterlint (the manifest's entry with `drafterlint` replaced by this Python's
`-m drafterlint`): nothing is downloaded. The journey: the commit that adds the hook passes; a
typo commit passes; a heading rename fails with one line per link it broke, each naming the
rename and the command; the fix hook changes exactly those link lines and no old defect; the
next commit passes.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import pre_commit_exe

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"


pytestmark = pytest.mark.skipif(pre_commit_exe() is None, reason="pre-commit is not installed")

RENAMED_LINKS = 5  # links to §2.9.4 in both documents: what the rename breaks

RULES = """\
# Endpoints Rules

## Table of Contents

- [1. Basics](#1-basics)
- [2. Models](#2-models)
  - [2.9 Model Equivalence Rules](#28-model-equivalence-rules)

## 1. Basics

Results publish as [the submission rules](endpoints_submission_rules.md#42-publication) say.
Old links: [one](#gone-1), [two](#gone-2), [three](#gone-3), [four](#gone-4).
Missing files: [a](missing-a.md), [b](missing-b.md), [c](docs/missing-c.md).
Wrong sections: [§3.1](#29-model-equivalence-rules) and [§4.4](#1-basics).

### 1.1 Terms

A drafter is a small model; see [§2.9.4](#294-speculative-decoding).

### 1.2 Scope

The rules cover every submission.

## 2. Models

### 2.9 Model Equivalence Rules

The speculative decoding rules ([§2.9.4](#294-speculative-decoding)) come last.

#### 2.9.4 Speculative Decoding

Drafters must be approved; see [§2.9](#29-model-equivalence-rules). In the companion,
[the calendar](endpoints_submission_rules.md#no-such-section) and
[the window](endpoints_submission_rules.md#46-adoption).

## 3. Checks

### 3.1 Automated Checks

Each check enforces [§2.9.4](#294-speculative-decoding).
"""

COMPANION = """\
# Submission Rules

## 1. Basics

The drafter rules are in [§2.9.4](endpoints_rules.md#294-speculative-decoding); also
[this](endpoints_rules.md#294-speculative-decoding) and [that](endpoints_rules.md#gone-5).
Two old links: [x](#gone-6), [y](#gone-7), and [z](endpoints_rules.md#no-such-heading).

### 4.2 Publication

Results publish twice a month; see [Basics](#1-basics).
"""

CONFIG = "select: [DL104, DL2]\n"


def git(cwd: Path, *args: str, env=None, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stdout + proc.stderr)
    return proc


def local_hooks() -> str:
    """The manifest's hooks as `repo: local` hooks running this drafterlint (no install)."""
    hooks = []
    here = f"{shlex.quote(sys.executable)} -m drafterlint"
    for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8")):
        if hook["id"] not in ("drafterlint", "drafterlint-fix"):
            continue
        local = {k: v for k, v in hook.items() if k not in ("language", "minimum_pre_commit_version")}
        local["entry"] = re.sub(r"^drafterlint\b", here, hook["entry"])
        local["language"] = "system"
        if hook["id"] == "drafterlint-fix":
            local["stages"] = ["manual"]  # run on request below; `drafterlint` guards each commit
        hooks.append(local)
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}, sort_keys=False)


@pytest.fixture
def contributor(tmp_path):
    """A clone of the rules repository with its old defects, and an environment for git and
    pre-commit that reads nothing of the user's (home, caches, git configuration)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "PRE_COMMIT", "GITHUB_", "DRAFTERLINT_")) and k != "VIRTUAL_ENV"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "cache"), PRE_COMMIT_HOME=str(tmp_path / "pc"),
               PRE_COMMIT_COLOR="never", GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="C", GIT_AUTHOR_EMAIL="c@example.invalid",
               GIT_COMMITTER_NAME="C", GIT_COMMITTER_EMAIL="c@example.invalid")
    repo = tmp_path / "endpoints_policies"
    repo.mkdir()
    (repo / "endpoints_rules.md").write_text(RULES, encoding="utf-8")
    (repo / "endpoints_submission_rules.md").write_text(COMPANION, encoding="utf-8")
    (repo / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    git(repo, "init", "-q", "-b", "main", env=env)
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-qm", "the rules, as they are", env=env)
    return repo, env


def commit(repo: Path, env: dict, message: str) -> subprocess.CompletedProcess:
    git(repo, "add", "-A", env=env)
    return git(repo, "commit", "-m", message, env=env, check=False)


def findings_of(env_cwd, env) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "drafterlint", "check", "--all", "--no-cache"],
                          cwd=env_cwd, env=env, capture_output=True, text=True, timeout=120)
    return [ln for ln in proc.stdout.splitlines() if re.match(r"^\S+:\d+:\d+: DL", ln)]


def test_a_contributors_first_day(contributor):
    repo, env = contributor
    old = findings_of(repo, env)
    assert 18 <= len(old) <= 24, old
    assert {m.group(1) for ln in old if (m := re.search(r": (DL\d+) ", ln))} >= {"DL104", "DL201", "DL202", "DL203", "DL205"}

    # The commit that adds the hook (and says so in the configuration) passes, and so does a
    # first run over every file (nothing to commit: the branch is judged against the default
    # one, here itself): the old defects are the base's, not this commit's.
    (repo / ".pre-commit-config.yaml").write_text(local_hooks(), encoding="utf-8")
    subprocess.run([pre_commit_exe(), "install"], cwd=repo, env=env, check=True, capture_output=True)
    (repo / ".drafterlint.yaml").write_text("# checked on each commit (.pre-commit-config.yaml)\n" + CONFIG)
    proc = commit(repo, env, "add the drafterlint hook")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout + proc.stderr
    assert re.search(r"drafterlint \(rules documents\)\.+Passed", out), out
    proc = subprocess.run([pre_commit_exe(), "run", "--all-files", "--verbose"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = [ln for ln in proc.stdout.splitlines() if "pre-existing" in ln]
    assert summary == [f"{len(old)} pre-existing findings (in the merge base "
                       f"{git(repo, 'rev-parse', 'HEAD', env=env).stdout[:10]} of main) "
                       "do not fail this run: `pipx run drafterlint check --all` shows them"], proc.stdout

    # A wording fix passes.
    text = (repo / "endpoints_rules.md").read_text(encoding="utf-8")
    (repo / "endpoints_rules.md").write_text(text.replace("every submission", "each submission"), encoding="utf-8")
    proc = commit(repo, env, "wording")
    assert proc.returncode == 0, proc.stdout + proc.stderr

    # Renaming §2.9.4 breaks the links to it, in this file and in the companion the commit
    # does not touch: one group naming the rename and the hook that mends it, with every place.
    renamed = (repo / "endpoints_rules.md").read_text(encoding="utf-8").replace(
        "#### 2.9.4 Speculative Decoding", "#### 2.9.4 Draft Models")
    (repo / "endpoints_rules.md").write_text(renamed, encoding="utf-8")
    proc = commit(repo, env, "rename 2.9.4")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    (head,) = [ln for ln in out.splitlines() if "links point to the old anchor" in ln]
    assert head == ("§2.9.4 Speculative Decoding (`#294-speculative-decoding` in endpoints_rules.md) was renamed to "
                    f"§2.9.4 Draft Models (`#294-draft-models`): {RENAMED_LINKS} links point to the old anchor; to "
                    "repoint them all, run `pre-commit run --hook-stage manual drafterlint-fix`"), head
    places = [ln for ln in out.splitlines() if re.match(r"^  \S+\.md:\d+:\d+", ln)]
    assert sum(len(ln.split(", ")) for ln in places) == RENAMED_LINKS, out
    assert [ln.split(":")[0].strip() for ln in places] == ["endpoints_rules.md", "endpoints_submission_rules.md"]
    assert len(places[1].split(", ")) == 2
    assert f"{len(old)} pre-existing findings" in out

    # The fix hook mends exactly those links, in both files, and no old defect.
    before = {p: (repo / p).read_text(encoding="utf-8") for p in ("endpoints_rules.md", "endpoints_submission_rules.md")}
    proc = subprocess.run([pre_commit_exe(), "run", "--hook-stage", "manual", "drafterlint-fix"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "files were modified by this hook" in proc.stdout, proc.stdout + proc.stderr
    diff = git(repo, "diff", "-U0", "--no-color", env=env).stdout
    removed = [ln[1:] for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert len(removed) == len(added) == RENAMED_LINKS, diff  # one link a line
    assert added == [ln.replace("#294-speculative-decoding", "#294-draft-models") for ln in removed], diff
    assert sum(ln.count("#294-speculative-decoding") for ln in removed) == RENAMED_LINKS
    for path, text in before.items():  # every other line is as it was, old defects included
        now = (repo / path).read_text(encoding="utf-8")
        assert now.replace("#294-draft-models", "#294-speculative-decoding") == text
    assert "#28-model-equivalence-rules" in (repo / "endpoints_rules.md").read_text(encoding="utf-8")

    # The next commit passes, and the old defects are all still there for a later day.
    proc = commit(repo, env, "rename 2.9.4, links mended")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(findings_of(repo, env)) == len(old)


WORKFLOW = """\
name: drafterlint
on: [pull_request]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: drafterlint check --base-ref origin/main
"""


def _hook_args(text: str) -> str:
    data = yaml.safe_load(text)
    [hook] = [h for h in data["repos"][0]["hooks"] if h["id"] == "drafterlint"]
    hook["args"] = ["--ignore", "DL201"]
    return yaml.safe_dump(data, sort_keys=False)


# (what the commit weakens, the one file it changes, how)
WEAKENINGS = [
    ("the configuration", ".drafterlint.yaml", lambda text: text + "ignore: [DL201]\n"),
    ("the hook's args", ".pre-commit-config.yaml", _hook_args),
    ("the workflow", ".github/workflows/drafterlint.yml",
     lambda text: text.replace("      - run:", "      - continue-on-error: true\n        run:")),
]


@pytest.mark.parametrize("what,path,weaken", WEAKENINGS, ids=[w[0] for w in WEAKENINGS])
def test_a_commit_that_only_weakens_the_check_is_judged_by_the_hook(contributor, what, path, weaken):
    # CI judges such a change (DL901, the Action or `pre-commit run --all-files` against the
    # base): the hook runs on a commit that changes only the file, and gives the same verdict.
    repo, env = contributor
    (repo / ".pre-commit-config.yaml").write_text(local_hooks(), encoding="utf-8")
    (repo / ".github/workflows").mkdir(parents=True)
    (repo / ".github/workflows/drafterlint.yml").write_text(WORKFLOW, encoding="utf-8")
    subprocess.run([pre_commit_exe(), "install"], cwd=repo, env=env, check=True, capture_output=True)
    proc = commit(repo, env, "add the drafterlint hook and workflow")
    assert proc.returncode == 0, proc.stdout + proc.stderr

    (repo / path).write_text(weaken((repo / path).read_text(encoding="utf-8")), encoding="utf-8")
    proc = commit(repo, env, f"weaken {what}")
    out = proc.stdout + proc.stderr
    assert git(repo, "status", "--porcelain", env=env).stdout.strip() == f"M  {path}", out  # (only it)
    assert proc.returncode != 0 and re.search(r"drafterlint \(rules documents\)\.+Failed", out), out
    assert re.search(rf"^{re.escape(path)}:\d+:\d+: DL901 weakened-check: ", out, flags=re.M), out
