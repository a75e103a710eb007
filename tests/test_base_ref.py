"""`check --base-ref`: only the findings a change introduces fail it (real git repositories)."""

from __future__ import annotations

import json
import subprocess

from tests.helpers import git_commit_all
from tests.helpers.samples import COMPANION, rules_text


def repo(tmp_path, text: str):
    root = tmp_path / "rules"
    root.mkdir(exist_ok=True)
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    (root / "endpoints_submission_rules.md").write_text(COMPANION, encoding="utf-8")
    git_commit_all(root, "2026-01-01", "base")
    return root


def change(root, text: str) -> None:
    (root / "endpoints_rules.md").write_text(text, encoding="utf-8")
    git_commit_all(root, "2026-01-02", "change")


def check_json(cli, root, *extra):
    code, out, err = cli("check", "--no-cache", "--select", "DL2", "--format", "json", *extra, cwd=root)
    return code, json.loads(out) if out.strip() else None, err


def broken(doc):
    return [f for f in doc["findings"] if f["code"] == "DL201"]


def test_a_typo_elsewhere_passes_and_the_old_defect_is_pre_existing(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    change(root, rules_text(typo=True))
    code, doc, _ = check_json(cli, root, "--base-ref", "HEAD~1")
    assert code == 0
    assert [f["baseline"] for f in broken(doc)] == [True]
    assert doc["baseline"]["preexisting"] == 1 and doc["baseline"]["fixed"] == 0
    # The scope's summary counts what fails the run; the top-level one counts every finding.
    assert doc["scope"]["summary"]["error"] == 0 and doc["scope"]["preexisting"]["error"] == 1
    assert doc["summary"]["error"] == 1
    code, _, _ = check_json(cli, root, "--base-ref", "HEAD~1", "--all")
    assert code == 1
    code, _, _ = check_json(cli, root)
    assert code == 1


def test_moving_a_broken_link_ten_lines_down_keeps_it_pre_existing(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    change(root, rules_text(pad=10))
    code, doc, _ = check_json(cli, root, "--base-ref", "HEAD~1")
    assert code == 0
    [f] = broken(doc)
    assert f["baseline"] is True and f["line"] > 10


def test_breaking_a_second_link_makes_only_that_one_new(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    change(root, rules_text(pad=10, second_broken=True))
    code, doc, _ = check_json(cli, root, "--base-ref", "HEAD~1")
    assert code == 1
    assert sorted((f["message"].split("`")[1], f["baseline"]) for f in broken(doc)) == [
        ("#12-updatez", False), ("#gone", True)]
    code, out, _ = cli("check", "--no-cache", "--select", "DL2", "--base-ref", "HEAD~1", cwd=root)
    assert "12-updatez" in out and "#gone" not in out
    assert "1 pre-existing finding (in the merge base " in out


def test_renaming_the_section_around_an_old_defect_keeps_it_pre_existing(cli, tmp_path):
    text = rules_text().replace("## 1.1 Links", "## 1.1 Links and more")
    root = repo(tmp_path, text)
    change(root, rules_text())
    code, doc, _ = check_json(cli, root, "--base-ref", "HEAD~1")
    assert code == 0 and [f["baseline"] for f in broken(doc)] == [True]


def test_a_defect_the_change_fixes_is_counted(cli, tmp_path):
    root = repo(tmp_path, rules_text(second_broken=True))
    change(root, rules_text())
    code, out, _ = cli("check", "--no-cache", "--select", "DL2", "--base-ref", "HEAD~1", cwd=root)
    assert code == 0
    assert "is fixed by this change" in out


def test_sarif_and_github_say_which_findings_are_new(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    change(root, rules_text(second_broken=True))
    _, out, _ = cli("check", "--no-cache", "--select", "DL201", "--base-ref", "HEAD~1", "--format", "sarif", cwd=root)
    states = sorted(r["baselineState"] for r in json.loads(out)["runs"][0]["results"])
    assert states == ["new", "unchanged"]
    _, out, _ = cli("check", "--no-cache", "--select", "DL201", "--base-ref", "HEAD~1", "--format", "github", cwd=root)
    commands = [ln.split(" ", 1)[0] for ln in out.splitlines() if ln.startswith("::")]
    assert commands == ["::error", "::notice"]  # the new one first


def test_the_working_tree_index_and_git_folder_are_not_touched(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    change(root, rules_text())
    (root / "endpoints_rules.md").write_text(rules_text(second_broken=True), encoding="utf-8")  # uncommitted

    def state():
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain=v2"], capture_output=True, text=True).stdout
        files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if "objects" not in p.parts)
        return status, files, (root / ".git" / "index").read_bytes()

    before = state()
    code, doc, _ = check_json(cli, root, "--base-ref", "HEAD~1")
    assert code == 1  # the uncommitted break is new
    assert state() == before


def test_a_ref_no_repository_has_is_a_usage_error(cli, tmp_path):
    root = repo(tmp_path, rules_text())
    code, out, err = cli("check", "--no-cache", "--base-ref", "no-such-branch", cwd=root)
    assert code == 2 and "no-such-branch" in err and "Traceback" not in err
    code, out, err = cli("check", "--no-cache", "--base-ref=--upload-pack=x", cwd=root)
    assert code == 2 and "not a revision" in err
