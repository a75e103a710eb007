"""DL901 on the places the check is invoked: a pull request runs the workflow as it changed it,
so turning the drafterlint step down there (an input, `continue-on-error`, an `if:`, the step or
its trigger gone) or the pre-commit hook (its args, when it runs, the hook gone) is a weakening
of the check as much as `ignore:` in `.drafterlint.yaml`. Real git repositories, a base commit
and a change commit, `drafterlint check --base-ref`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import git_commit_all

RULES = "# Rules\n\n## 1. Links\n\nSee [a section](#1-links).\n"
CONFIG = "select: [DL2]\n"
WORKFLOW = """\
name: drafterlint
on:
  pull_request:
    paths: ["**.md", ".drafterlint.yaml"]
  push:
    branches: [main]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: drafterlint
        uses: mlcommons/drafterlint@v1
        with:
          rules-repo: .
          fail-on: warning
          only-new: "false"
  local:
    runs-on: ubuntu-latest
    steps:
      - run: pip install drafterlint
      - run: drafterlint check --base-ref origin/main --fail-on warning
"""
PRECOMMIT = """\
repos:
  - repo: https://github.com/mlcommons/drafterlint
    rev: v1.0.0
    hooks:
      - id: drafterlint
"""
CI = ".github/workflows/drafterlint.yml"
HOOKS = ".pre-commit-config.yaml"


def setup(tmp_path: Path) -> tuple[Path, str]:
    rules = tmp_path / "endpoints_policies"
    (rules / ".github/workflows").mkdir(parents=True)
    (rules / "endpoints_rules.md").write_text(RULES, encoding="utf-8")
    (rules / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    (rules / CI).write_text(WORKFLOW, encoding="utf-8")
    (rules / HOOKS).write_text(PRECOMMIT, encoding="utf-8")
    git_commit_all(rules, "2026-01-01", "base")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=rules, capture_output=True, text=True, check=True)
    return rules, head.stdout.strip()


def weakened(cli, rules: Path, base: str) -> tuple[int, list[dict]]:
    git_commit_all(rules, "2026-01-02", "the change")
    code, out, err = cli("check", "--base-ref", base, "--format", "json", cwd=rules)
    assert code in (0, 1), err
    return code, [f for f in json.loads(out)["findings"] if f["code"] == "DL901"]


def edit(rules: Path, path: str, old: str, new: str) -> str:
    text = (rules / path).read_text(encoding="utf-8")
    assert old in text, old
    text = text.replace(old, new, 1)
    (rules / path).write_text(text, encoding="utf-8")
    return text


STEP = "      - name: drafterlint\n        uses: mlcommons/drafterlint@v1\n"
# (what the change does, the file, the text replaced, its replacement, the line the finding is at
# (found by its text in the changed file), words of the message)
CASES = [
    ("fail-on raised", CI, "fail-on: warning", "fail-on: error", "fail-on: error",
     "`fail-on: error` no longer fails the drafterlint step of job `lint` on warnings"),
    ("fail-on dropped", CI, "          fail-on: warning\n", "", "with:", "`fail-on` (default error) no longer fails"),
    ("only-new turned on", CI, 'only-new: "false"', "only-new: true", "only-new: true",
     "`only-new: true` fails the drafterlint step of job `lint` only on findings the change introduces"),
    ("another configuration", CI, "rules-repo: .\n", "rules-repo: .\n          config: lax.yaml\n",
     "config: lax.yaml", "`config: lax.yaml` makes the drafterlint step of job `lint` read another configuration"),
    ("another scope", CI, "rules-repo: .\n", "rules-repo: .\n          scope: mlcommons/endpoints\n",
     "scope:", "`scope: mlcommons/endpoints` changes which repository fails"),
    ("another base", CI, "rules-repo: .\n", "rules-repo: .\n          base-ref: ${{ github.sha }}\n",
     "base-ref:", "`base-ref: ${{ github.sha }}` changes what counts as pre-existing"),
    ("another checkout", CI, "rules-repo: .", "rules-repo: empty", "rules-repo: empty",
     "`rules-repo: empty` points the drafterlint step of job `lint` at another checkout"),
    ("continue-on-error on the step", CI, STEP, STEP + "        continue-on-error: true\n", "continue-on-error",
     "`continue-on-error: true` lets the drafterlint step of job `lint` fail and the job pass"),
    ("continue-on-error on the job", CI, "  lint:\n    runs-on: ubuntu-latest\n",
     "  lint:\n    runs-on: ubuntu-latest\n    continue-on-error: true\n", "continue-on-error",
     "`continue-on-error: true` lets the drafterlint step of job `lint` fail and the job pass"),
    ("an if on the step", CI, STEP, STEP + "        if: github.actor != 'me'\n", "if:",
     "`if: github.actor != 'me'` may skip the drafterlint step of job `lint`"),
    ("an if on the job", CI, "  local:\n", "  local:\n    if: false\n", "if: false",
     "`if: false` may skip the drafterlint step of job `local`"),
    ("the step removed", CI, STEP + "        with:\n          rules-repo: .\n          fail-on: warning\n"
     "          only-new: \"false\"\n", "", "  lint:", "removes the drafterlint step of job `lint`"),
    ("the job removed", CI, "  local:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pip install drafterlint\n"
     "      - run: drafterlint check --base-ref origin/main --fail-on warning\n", "", "jobs:",
     "removes the drafterlint step of job `local`"),
    ("another action", CI, "uses: mlcommons/drafterlint@v1", "uses: actions/hello@v1", "  lint:",
     "removes the drafterlint step of job `lint`"),
    ("the pull_request trigger dropped", CI, '  pull_request:\n    paths: ["**.md", ".drafterlint.yaml"]\n', "",
     "on:", "the workflow no longer runs on `pull_request`"),
    ("paths narrowed", CI, 'paths: ["**.md", ".drafterlint.yaml"]', 'paths: ["docs/**"]', "paths:",
     "`on.pull_request.paths` no longer lists `**.md`, `.drafterlint.yaml`"),
    ("paths-ignore added", CI, '.drafterlint.yaml"]\n', '.drafterlint.yaml"]\n    paths-ignore: ["endpoints_*.md"]\n',
     "paths-ignore", "`on.pull_request.paths-ignore` adds `endpoints_*.md`"),
    ("run: --fail-on dropped", CI, "--fail-on warning", "", "run: drafterlint check",
     "`--fail-on` (default error) no longer fails the drafterlint step of job `local` on warnings"),
    ("run: --ignore", CI, "--fail-on warning", "--fail-on warning --ignore DL2", "run: drafterlint check",
     "`--ignore DL2` turns off DL2 in the drafterlint step of job `local`"),
    ("run: --exit-zero", CI, "--fail-on warning", "--fail-on warning --exit-zero", "run: drafterlint check",
     "`--exit-zero` makes the drafterlint step of job `local` pass whatever it finds"),
    ("run: || true", CI, "--fail-on warning", "--fail-on warning || true", "run: drafterlint check",
     "`|| true` after `drafterlint check` loses its exit status in the drafterlint step of job `local`"),
    ("the workflow deleted", CI, None, None, None, "removes the drafterlint step of job `lint`"),
    ("hook: --ignore", HOOKS, "- id: drafterlint\n", "- id: drafterlint\n        args: [--ignore, DL2]\n", "args:",
     "`--ignore DL2` turns off DL2 in the drafterlint hook `drafterlint`"),
    ("hook: exclude", HOOKS, "- id: drafterlint\n", "- id: drafterlint\n        exclude: '\\.md$'\n", "exclude:",
     "`exclude: \\.md$` changes when the drafterlint hook `drafterlint` runs"),
    ("hook: stages", HOOKS, "- id: drafterlint\n", "- id: drafterlint\n        stages: [manual]\n", "stages:",
     "`stages: [manual]` changes when the drafterlint hook `drafterlint` runs"),
    ("hook: files at the top", HOOKS, "repos:\n", "files: ^docs/\nrepos:\n", "files:",
     "`files: ^docs/` changes when the drafterlint hook `drafterlint` runs"),
    ("hook removed", HOOKS, "      - id: drafterlint\n", "      - id: check-yaml\n", "hooks:",
     "removes the drafterlint hook `drafterlint`"),
    ("hooks file deleted", HOOKS, None, None, None, "removes the drafterlint hook `drafterlint`"),
]


@pytest.mark.parametrize("what,path,old,new,at,words", CASES, ids=[c[0] for c in CASES])
def test_a_weakened_invocation_is_a_finding_at_its_line(tmp_path, cli, what, path, old, new, at, words):
    rules, base = setup(tmp_path)
    if old is None:  # the file gone: each of its drafterlint steps or hooks, at its first line
        (rules / path).unlink()
        expected = [(path, 1)] * (2 if path == CI else 1)
    else:
        text = edit(rules, path, old, new)
        expected = [(path, next(i for i, row in enumerate(text.splitlines(), 1) if at in row))]
    code, found = weakened(cli, rules, base)
    assert code == 1, found
    assert [(f["path"], f["line"]) for f in found] == expected, found
    assert any(words in f["message"] for f in found), [f["message"] for f in found]


@pytest.mark.parametrize("path,old,new", [
    (CI, "fail-on: warning", "fail-on: info"),  # stricter
    (CI, "      - uses: actions/checkout@v4\n", "      - uses: actions/checkout@v5\n"),
    (CI, "name: drafterlint\n", "name: lint the rules\n"),
    (CI, "    paths: [", "    paths: [docs/**, "),  # one more path runs it
    (HOOKS, "rev: v1.0.0", "rev: v1.1.0"),
], ids=["stricter", "another step", "renamed", "paths widened", "hook bumped"])
def test_a_change_that_does_not_weaken_is_not_a_finding(tmp_path, cli, path, old, new):
    rules, base = setup(tmp_path)
    edit(rules, path, old, new)
    code, found = weakened(cli, rules, base)
    assert (code, found) == (0, [])


def test_a_weakening_that_is_meant_says_so_on_its_line(tmp_path, cli):
    rules, base = setup(tmp_path)
    edit(rules, CI, "fail-on: warning", "fail-on: error  # drafterlint: disable=DL901")
    code, found = weakened(cli, rules, base)
    assert (code, found) == (0, [])


def test_the_base_is_what_it_answers_to(tmp_path, cli):
    """The change's own configuration cannot turn DL901 off for its workflow."""
    rules, base = setup(tmp_path)
    edit(rules, CI, "fail-on: warning", "fail-on: error")
    (rules / ".drafterlint.yaml").write_text(CONFIG + "ignore: [DL901]\n", encoding="utf-8")
    code, found = weakened(cli, rules, base)
    assert code == 1 and [f["path"] for f in found] == [CI], found


@pytest.mark.parametrize("broken", ["jobs: [\n", "jobs: !!python/object:os.system x\n",
                                    "a: &a [*a, *a]\n" + "b: &b [*a, *a, *a, *a]\n" * 3])
def test_a_workflow_that_cannot_be_read_says_why_without_a_traceback(tmp_path, cli, broken):
    rules, base = setup(tmp_path)
    (rules / CI).write_text(broken, encoding="utf-8")
    code, found = weakened(cli, rules, base)
    assert code == 1 and [f["path"] for f in found] == [CI], found
    assert "cannot be read" in found[0]["message"] and "Traceback" not in found[0]["message"]


def test_a_repository_without_a_configuration_file_is_judged_too(tmp_path, cli):
    rules, base = setup(tmp_path)
    (rules / ".drafterlint.yaml").unlink()
    git_commit_all(rules, "2026-01-01", "no configuration")
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=rules, capture_output=True, text=True,
                          check=True).stdout.strip()
    edit(rules, CI, "fail-on: warning", "fail-on: error")
    code, found = weakened(cli, rules, base)
    assert code == 1 and [f["path"] for f in found] == [CI], found


def test_a_weakened_check_leads_every_report(tmp_path, cli, monkeypatch):
    """Listed first, before the findings it may hide: in the text, the annotations, the job
    summary and the Markdown report, whatever file it is in (a baseline file in a folder sorts
    after the documents) and before a rename's section."""
    rules, _ = setup(tmp_path)
    doc = rules / "endpoints_rules.md"
    doc.write_text(RULES + "Again [the links](#1-links).\n", encoding="utf-8")
    (rules / ".drafterlint.yaml").write_text(CONFIG + "baseline: tools/baseline.json\n", encoding="utf-8")
    (rules / "tools").mkdir()
    assert cli("baseline", cwd=rules)[0] == 0
    git_commit_all(rules, "2026-01-01", "a baseline")
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=rules, capture_output=True, text=True,
                          check=True).stdout.strip()
    doc.write_text(doc.read_text(encoding="utf-8") + "\nA new one: [here](#nowhere).\n", encoding="utf-8")
    assert cli("baseline", cwd=rules)[0] == 0  # the new broken link recorded as if it had been there
    doc.write_text(doc.read_text(encoding="utf-8").replace("## 1. Links", "## 1. Links and anchors"),
                   encoding="utf-8")
    git_commit_all(rules, "2026-01-02", "a heading renamed, a broken link baselined")
    code, out, _ = cli("check", "--base-ref", base, "--format", "text", cwd=rules)
    assert code == 1 and out.splitlines()[0].startswith("tools/baseline.json:"), out
    assert "DL201" in out
    markdown = tmp_path / "report.md"
    code, out, _ = cli("check", "--base-ref", base, "--format", "markdown", "--output", str(markdown), cwd=rules)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, annotations, _ = cli("check", "--base-ref", base, "--format", "github", cwd=rules)
    assert annotations.splitlines()[0].startswith("::error file=tools/baseline.json,"), annotations
    for report in (markdown.read_text(encoding="utf-8"), summary.read_text(encoding="utf-8")):
        assert "was renamed" in report and "`DL201`" in report, report
        assert report.index("`DL901`") < min(report.index("was renamed"), report.index("`DL201`")), report


def test_a_weakening_is_seen_when_the_base_comes_from_the_cache(tmp_path, cli):
    # The first run writes the base's files out and reads the workflow there; the second finds
    # the base's findings in the cache, writes nothing out, and asks git for the base's copy.
    rules, base = setup(tmp_path)
    edit(rules, CI, "fail-on: warning", "fail-on: error")
    first = weakened(cli, rules, base)
    code, out, err = cli("check", "--base-ref", base, "--format", "json", cwd=rules)
    again = (code, [f for f in json.loads(out)["findings"] if f["code"] == "DL901"])
    assert first[1] and again == first
