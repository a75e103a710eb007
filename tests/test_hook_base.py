"""What `check --hook` and `check --base-ref` compare with: HEAD (or the pre-push range), the
repository under change at its base and the other one shared by both runs, the base's findings
cached by content; a configured sibling checkout that is not there is a skipped check."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from drafterlint.hints import command_here
from tests.helpers import git_commit_all

RULES = """\
# Rules

## 1. Links

Into the reference repository: [ok](https://github.com/mlcommons/endpoints/blob/main/README.md),
[a missing file](https://github.com/mlcommons/endpoints/blob/main/docs/missing.md),
[a missing anchor](https://github.com/mlcommons/endpoints/blob/main/README.md#nope) and
[one more](https://github.com/mlcommons/endpoints/blob/main/docs/gone.md).
An old broken link: [gone](#gone).
"""

CONFIG = """\
select: [DL2]
rules:
  github: mlcommons/endpoints_policies
registry:
  github: mlcommons/endpoints
  path: ../endpoints
"""


def setup(tmp_path: Path, *, registry_is_git: bool) -> tuple[Path, Path]:
    rules, registry = tmp_path / "endpoints_policies", tmp_path / "endpoints"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text(RULES, encoding="utf-8")
    (rules / "endpoints_submission_rules.md").write_text("# Submission\n", encoding="utf-8")
    (rules / ".drafterlint.yaml").write_text(CONFIG, encoding="utf-8")
    git_commit_all(rules, "2026-01-01", "rules")
    (registry / "src/inference_endpoint/validation/policies").mkdir(parents=True)
    (registry / "README.md").write_text("# Endpoints\n\n## Usage\n", encoding="utf-8")
    if registry_is_git:
        git_commit_all(registry, "2026-01-01", "registry")
    return rules, registry


def new_and_old(out: str) -> tuple[list[dict], list[dict]]:
    findings = json.loads(out)["findings"]
    return [f for f in findings if not f["baseline"]], [f for f in findings if f["baseline"]]


@pytest.mark.parametrize("registry_is_git", [False, True], ids=["other-partial", "other-complete"])
def test_an_unchanged_clone_has_no_new_finding(tmp_path, cli, registry_is_git):
    rules, _ = setup(tmp_path, registry_is_git=registry_is_git)
    code, out, _ = cli("check", "--all", "--format", "json", cwd=rules)
    everything = json.loads(out)["findings"]
    codes = {f["code"] for f in everything if f["repo"] == "rules"}
    assert codes == ({"DL201", "DL204"} if registry_is_git else {"DL201", "DL204", "DL206"}), everything
    for run in ("first", "second"):
        code, out, err = cli("check", "--base-ref", "HEAD", "--format", "json", "-v", cwd=rules)
        new, old = new_and_old(out)
        assert code == 0 and new == [], (run, new)
        assert len(old) == len(everything)
        assert ("base cache: hit" if run == "second" else "base cache: miss") in err
    code, out, _ = cli("check", "--hook", cwd=rules)  # nothing to commit: judged against the default branch
    assert code == 0
    assert out.splitlines()[0] == (f"{len([f for f in everything if f['repo'] == 'rules'])} pre-existing findings "
                                   f"(in the merge base {_head(rules)[:10]} of main) do not fail this run: "
                                   f"`{command_here()} check --all` shows them")


def _head(repo: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_cached_base_follows_the_other_repository(tmp_path, cli):
    rules, registry = setup(tmp_path, registry_is_git=True)
    code, out, err = cli("check", "--base-ref", "HEAD", "--format", "json", "-v", cwd=rules)
    assert code == 0 and "base cache: miss" in err
    # The missing file appears in the reference repository: both runs see it, so nothing is new
    # and nothing of the base "is fixed by this change" (a stale base would say so).
    (registry / "docs").mkdir()
    (registry / "docs" / "missing.md").write_text("# Missing no more\n", encoding="utf-8")
    git_commit_all(registry, "2026-01-02", "add the file")
    code, out, err = cli("check", "--base-ref", "HEAD", "-v", cwd=rules)
    assert code == 0 and "base cache: miss" in err
    assert "fixed by this change" not in out
    # The commit itself fixes one: that is said.
    text = (rules / "endpoints_rules.md").read_text(encoding="utf-8").replace("[gone](#gone)", "[links](#1-links)")
    (rules / "endpoints_rules.md").write_text(text, encoding="utf-8")
    code, out, err = cli("check", "--hook", "-v", cwd=rules)
    assert code == 0 and "base cache: hit" in err
    assert "1 finding of HEAD" in out and "is fixed by this change" in out


def test_the_hook_judges_the_change_against_head(tmp_path, cli):
    rules, _ = setup(tmp_path, registry_is_git=False)
    text = (rules / "endpoints_rules.md").read_text(encoding="utf-8")
    (rules / "endpoints_rules.md").write_text(text + "\nA new one: [here](#nowhere).\n", encoding="utf-8")
    code, out, _ = cli("check", "--hook", cwd=rules)
    lines = out.splitlines()
    assert code == 1
    assert [ln for ln in lines if ": DL" in ln] == [
        "endpoints_rules.md:11:12: DL201 broken-fragment: no heading or anchor `#nowhere` in endpoints_rules.md"]
    assert any(ln.startswith("4 pre-existing findings") for ln in lines), out
    assert not any(ln.startswith("to fail only on") for ln in lines)  # there is a base
    # One word to see everything: --all (also as the hook's `args: [--all]`).
    code, out, _ = cli("check", "--hook", "--all", cwd=rules)
    assert code == 1 and sum(": DL" in ln for ln in out.splitlines()) == 3  # and two infos, not shown
    assert "pre-existing" not in out


def test_before_the_first_commit_every_finding_counts_and_the_last_line_says_how_to_adopt(tmp_path, cli):
    rules = tmp_path / "endpoints_policies"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text("# Rules\n\n[gone](#gone)\n", encoding="utf-8")
    (rules / ".drafterlint.yaml").write_text("select: [DL2]\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=rules, check=True)
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("endpoints_rules.md:3:1: DL201 broken-fragment")
    assert lines[-1].startswith("to fail only on what a change introduces: record today's findings with "
                                "`drafterlint baseline` and commit the file")


def test_pre_push_judges_the_range_pre_commit_passes(tmp_path, cli, monkeypatch):
    rules, _ = setup(tmp_path, registry_is_git=False)
    pushed_from = _head(rules)
    text = (rules / "endpoints_rules.md").read_text(encoding="utf-8")
    (rules / "endpoints_rules.md").write_text(text + "\n[one](#nowhere-1)\n", encoding="utf-8")
    git_commit_all(rules, "2026-01-02", "one")
    (rules / "endpoints_rules.md").write_text(text + "\n[one](#nowhere-1) [two](#nowhere-2)\n", encoding="utf-8")
    git_commit_all(rules, "2026-01-03", "two")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", pushed_from)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", _head(rules))
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 1
    assert [ln.split(": ")[-1] for ln in out.splitlines() if ": DL" in ln] == [
        "no heading or anchor `#nowhere-1` in endpoints_rules.md",
        "no heading or anchor `#nowhere-2` in endpoints_rules.md"]
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "HEAD~1")  # only the last commit is pushed
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert [ln.split(": ")[-1] for ln in out.splitlines() if ": DL" in ln] == [
        "no heading or anchor `#nowhere-2` in endpoints_rules.md"]


def test_a_configured_checkout_that_is_not_there_is_skipped_in_one_line(tmp_path, cli):
    rules, registry = setup(tmp_path, registry_is_git=False)
    (rules / ".drafterlint.yaml").write_text(CONFIG.replace("select: [DL2]", "select: [DL2, DL3]"), encoding="utf-8")
    git_commit_all(rules, "2026-01-02", "config")
    registry.rename(tmp_path / "elsewhere")
    code, out, err = cli("check", "--hook", cwd=rules)
    assert code == 0, out + err
    skipped = [ln for ln in out.splitlines() if "skipped" in ln]
    assert len(skipped) == 1 and "need the reference repository (registry.path `../endpoints` does not exist)" in skipped[0]
    # Given on the command line, a missing checkout stays a usage error.
    code, out, err = cli("check", "--registry-repo", str(registry), cwd=rules)
    assert code == 2 and "does not exist" in err


def test_without_a_base_the_did_you_mean_names_the_heading_that_has_the_number_now(tmp_path, cli):
    rules = tmp_path / "endpoints_policies"
    rules.mkdir()
    (rules / ".drafterlint.yaml").write_text("select: [DL201]\n", encoding="utf-8")
    (rules / "endpoints_rules.md").write_text(
        "# Rules\n\n## 3.2 Supported Models\n\n#### 2.9.4 Drafters\n\nSee [§2.9.4](#294-draft-models) "
        "and [§2](#2-modelz).\n\n## 2. Models\n", encoding="utf-8")
    code, out, _ = cli("check", "--all", cwd=rules)
    lines = [ln for ln in out.splitlines() if ": DL201" in ln]
    # Not `#32-supported-models`, the closest spelling: §2.9.4 is the same section, renamed.
    assert lines[0].endswith("(did you mean `#294-drafters`?)"), lines
    assert lines[1].endswith("(did you mean `#2-models`?)"), lines  # one digit: by spelling


def test_pre_push_of_a_branch_that_is_not_checked_out_says_what_it_judged(tmp_path, cli, monkeypatch):
    rules, _ = setup(tmp_path, registry_is_git=False)
    base = _head(rules)
    subprocess.run(["git", "branch", "other"], cwd=rules, check=True)
    git_commit_all(rules, "2026-01-02", "an empty change")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", "other")
    code, _, err = cli("check", "--hook", cwd=rules)
    assert code == 0
    assert f"drafterlint: other is not checked out: the working tree is judged against {base}" in err


def test_what_an_unreadable_file_hides_could_not_be_checked_never_fixed(tmp_path, cli):
    rules, _ = setup(tmp_path, registry_is_git=False)
    (rules / ".drafterlint.yaml").write_text(CONFIG.replace("select: [DL2]", "select: [DL2, DL7]"), encoding="utf-8")
    git_commit_all(rules, "2026-01-02", "DL702 too")
    doc = rules / "endpoints_rules.md"
    text = doc.read_text(encoding="utf-8")
    # The change leaves a byte that is not UTF-8: the document cannot be read, its old broken
    # links are not looked at, so they are not fixed by it.
    doc.write_bytes(text.encode("utf-8") + b"\n\xff\n")
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 1
    assert [ln.split(": DL")[1][:3] for ln in out.splitlines() if ": DL" in ln] == ["702"]
    assert "fixed" not in out.replace("not counted fixed", "")
    [line] = [ln for ln in out.splitlines() if "could not be checked" in ln]
    assert line.startswith("4 findings of HEAD ") and line.endswith(
        " could not be checked because endpoints_rules.md is unreadable: not counted fixed"), line
    code, out, _ = cli("check", "--hook", "--format", "json", cwd=rules)
    assert json.loads(out)["baseline"]["fixed"] == 0 and json.loads(out)["baseline"]["could_not_check"] == 4
    # Read again and mended: now the fix is a fix.
    doc.write_text(text.replace("An old broken link: [gone](#gone).", "No old broken link."), encoding="utf-8")
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert "1 finding of HEAD" in out and "is fixed by this change" in out and "could not be checked" not in out


def test_a_baseline_file_does_not_count_unchecked_findings_fixed(tmp_path, cli):
    # DL702 is not chosen (select: [DL2]): the file is still known unreadable.
    rules, _ = setup(tmp_path, registry_is_git=False)
    code, out, _ = cli("baseline", cwd=rules)
    assert code == 0
    doc = rules / "endpoints_rules.md"
    doc.write_bytes(doc.read_bytes() + b"\n\xff\n")
    code, out, _ = cli("check", "--baseline", rules / ".drafterlint-baseline.json", cwd=rules)
    assert "baselined finding" not in out, out
    assert "could not be checked because endpoints_rules.md is unreadable: not counted fixed" in out


def test_a_clean_checkout_is_judged_against_the_default_branch_but_a_commit_against_head(tmp_path, cli,
                                                                                         monkeypatch):
    rules, _ = setup(tmp_path, registry_is_git=False)
    subprocess.run(["git", "checkout", "-qb", "feature"], cwd=rules, check=True)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\nA new one: [here](#nowhere).\n", encoding="utf-8")
    git_commit_all(rules, "2026-01-02", "a new broken link")
    # Nothing to commit, no pre-commit range (CI): the branch against main.
    monkeypatch.delenv("GIT_INDEX_FILE", raising=False)
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 1 and "#nowhere" in out and "of main) do not fail this run" in out
    # `git commit --amend` with nothing staged: the index is HEAD's too, but git's hook
    # environment says a commit is being made, judged against HEAD.
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/index")
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 0 and f"(in HEAD {_head(rules)[:10]})" in out
    # Something not committed: what it changes is judged against HEAD, as before.
    monkeypatch.delenv("GIT_INDEX_FILE")
    doc.write_text(doc.read_text(encoding="utf-8") + "\nWording.\n", encoding="utf-8")
    code, out, _ = cli("check", "--hook", cwd=rules)
    assert code == 0 and f"(in HEAD {_head(rules)[:10]})" in out


def _baselined_new_link(tmp_path: Path, cli) -> tuple[Path, str]:
    """(the rules repository, its base commit with a baseline file): a broken link added since,
    and recorded in the baseline file as if it had been there (not committed)."""
    rules, _ = setup(tmp_path, registry_is_git=False)
    assert cli("baseline", cwd=rules)[0] == 0
    git_commit_all(rules, "2026-01-02", "baseline")
    base = _head(rules)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\nA new one: [here](#nowhere).\n", encoding="utf-8")
    assert cli("baseline", cwd=rules)[0] == 0
    return rules, base


def test_a_change_that_grows_the_baseline_or_turns_checks_down_is_a_finding(tmp_path, cli):
    rules, base = _baselined_new_link(tmp_path, cli)
    git_commit_all(rules, "2026-01-03", "a new broken link, baselined")
    code, out, _ = cli("check", "--base-ref", base, "--format", "json", cwd=rules)
    assert code == 1
    [finding] = [f for f in json.loads(out)["findings"] if not f["baseline"]]
    added = (rules / ".drafterlint-baseline.json").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(added, 1) if "nowhere" in text)
    assert (finding["code"], finding["path"], finding["line"]) == ("DL901", ".drafterlint-baseline.json", line)
    assert finding["message"] == ("the change adds 1 line(s) to the baseline file: they mark 1 finding (1 error) "
                                  "of this change's findings pre-existing")
    # Reported lower: the findings that failed the base and would not now are counted.
    (rules / ".drafterlint.yaml").write_text(CONFIG + "severity:\n  DL204: warning\n", encoding="utf-8")
    git_commit_all(rules, "2026-01-04", "DL204 down")
    code, out, _ = cli("check", "--base-ref", "HEAD~1", cwd=rules)
    [line] = [ln for ln in out.splitlines() if ": DL901 " in ln]
    assert line.startswith(".drafterlint.yaml:8:3: DL901 weakened-check: `severity: DL204: warning` reports DL204 "
                           "as warning, not error: it stops failing the check on 1 finding (1 error) the base "
                           "shows"), line
    # An unchanged configuration says nothing.
    code, out, _ = cli("check", "--base-ref", "HEAD", cwd=rules)
    assert "DL901" not in out


def test_a_grown_baseline_counts_what_the_run_marks_when_the_section_was_renamed_too(tmp_path, cli):
    """The baseline line a change adds marks its broken link pre-existing by the link's group
    (code, file, target) once the same change renamed the section around it (the section's title
    is in the fingerprint): DL901 counts what the run marks, not only exact fingerprints."""
    rules, base = _baselined_new_link(tmp_path, cli)
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("## 1. Links", "## 1. Hyperlinks"), encoding="utf-8")
    git_commit_all(rules, "2026-01-03", "a new broken link baselined, its section renamed")
    code, out, _ = cli("check", "--base-ref", base, "--format", "json", cwd=rules)
    findings = json.loads(out)["findings"]
    marked = [f for f in findings if f["baseline"] and "#nowhere" in f["message"]]
    [dl901] = [f for f in findings if f["code"] == "DL901"]
    assert code == 1 and len(marked) == 1, out  # the run takes the new link for a pre-existing one
    assert dl901["message"] == ("the change adds 1 line(s) to the baseline file: they mark 1 finding (1 error) "
                                "of this change's findings pre-existing"), dl901
    # Without the added line the run reports the link as new: that is what the line hides.
    (rules / ".drafterlint-baseline.json").write_text(
        git_show(rules, f"{base}:.drafterlint-baseline.json"), encoding="utf-8")
    git_commit_all(rules, "2026-01-04", "the baseline as it was")
    code, out, _ = cli("check", "--base-ref", base, "--format", "json", cwd=rules)
    new, _ = new_and_old(out)
    assert code == 1 and [f["code"] for f in new] == ["DL201"] and "#nowhere" in new[0]["message"], out


def git_show(root: Path, spec: str) -> str:
    return subprocess.run(["git", "show", spec], cwd=root, check=True, capture_output=True, text=True).stdout
