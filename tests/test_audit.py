"""`drafterlint audit` end to end: real git repositories with dated commits, a loopback fake of
the GitHub issues API and of the model hub."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import FIXTURES, git_commit_all

POL = "src/inference_endpoint/validation/policies"
CAT = f"{POL}/2026-11-C0/catalog.yaml"
TODAY = "2026-12-02"


@pytest.fixture
def rules_repo(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", root)
    git_commit_all(root, "2026-08-01", "rules")
    return root


def make_registry(tmp_path, added_on: str, name: str = "registry"):
    """The example reference repository, its policies added by a commit on `added_on`."""
    root = tmp_path / name
    root.mkdir()
    (root / "README.md").write_text("reference repository\n")
    git_commit_all(root, "2026-07-01", "start")
    shutil.copytree(FIXTURES / "example" / "endpoints", root, dirs_exist_ok=True)
    sha = git_commit_all(root, added_on, "add the 2026-11-C0 policy")
    return root, sha


def audit(cli, tmp_path, rules, registry, *extra):
    out, js = tmp_path / "audit.md", tmp_path / "audit.json"
    code, stdout, stderr = cli("audit", "--rules-repo", rules, f"--registry-repo={registry}",
                               "--today", TODAY, "--output", out, "--json", js,
                               "--cache-dir", tmp_path / "cache", *extra)
    text = out.read_text() if out.exists() else ""
    data = json.loads(js.read_text()) if js.exists() else None
    return code, text, data, stderr


def test_backdated_head_names_head_commit_cohorts_and_earliest_target(cli, tmp_path, rules_repo):
    registry, sha = make_registry(tmp_path, "2026-10-05")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry)
    assert code == 1
    dl403 = [f for f in data["findings"] if f["code"] == "DL403"]
    assert len(dl403) == 3  # the three heads approved 2026-09-C1; the 2026-10-C1 one is honest
    eagle = next(f for f in dl403 if "quickdraft/Atlas-30B-Eagle" in f["message"])
    msg = eagle["message"]
    assert "approved_cohort 2026-09-C1" in msg
    assert f"commit {sha[:7]} on 2026-10-05" in msg
    assert "published in 2026-10-C0" in msg
    assert "earliest legal target cohort is 2026-11-C0" in msg
    assert (eagle["path"], eagle["line"], eagle["column"]) == (CAT, 16, 24)
    assert eagle["link"] == f"https://github.com/mlcommons/endpoints/blob/{sha}/{CAT}#L16"
    # the Markdown report says the same, with the link to the exact line at the audited commit
    assert "quickdraft/Atlas-30B-Eagle" in text and sha[:7] in text and "2026-11-C0" in text
    assert f"/blob/{sha}/{CAT}#L16" in text


def test_honest_approvals_are_not_reported(cli, tmp_path, rules_repo):
    registry, _ = make_registry(tmp_path, "2026-09-10")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry)
    assert not [f for f in data["findings"] if f["code"] == "DL403"]
    assert data["audit"]["history"]["complete"] is True


def test_checkpoint_added_too_late(cli, tmp_path, rules_repo):
    registry, _ = make_registry(tmp_path, "2026-09-10")
    cat = registry / CAT
    cat.write_text(cat.read_text().replace(
        "        revision: a1b2c3d4e5f60718293a4b5c6d7e8f9011223344\n",
        "        revision: a1b2c3d4e5f60718293a4b5c6d7e8f9011223344\n"
        "      - repository: atlaslab/Atlas-30B\n        revision: 0000000000000000000000000000000000000001\n"))
    late = git_commit_all(registry, "2026-11-20", "a new checkpoint, four weeks before the round")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry)
    dl402 = [f for f in data["findings"] if f["code"] == "DL402"]
    assert len(dl402) == 1
    assert late[:7] in dl402[0]["message"] and "2026-11-04" in dl402[0]["message"]
    assert "2026-12-16" in dl402[0]["message"]


def test_report_shape_timeline_and_json(cli, tmp_path, rules_repo):
    registry, _ = make_registry(tmp_path, "2026-09-10")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry)
    assert text.startswith(f"# drafterlint audit — {TODAY}")
    for heading in ("## Counts by rule", "## Since the previous audit", "## Cohort timeline", "## Findings"):
        assert heading in text
    charts = re.findall(r"```mermaid\n(.*?)```", text, re.S)
    assert len(charts) == 2  # one per model
    for chart in charts:
        lines = chart.strip().splitlines()
        assert lines[0] == "gantt" and "    dateFormat YYYY-MM-DD" in lines
        for line in lines[1:]:
            s = line.strip()
            if s.startswith(("title ", "dateFormat", "axisFormat", "todayMarker", "section ")):
                assert ":" not in s.split(" ", 1)[1] or s.startswith(("dateFormat", "axisFormat"))
                continue
            name, _, spec = s.partition(" :")
            assert name and ":" not in name and "#" not in name
            assert re.fullmatch(r"[a-z, ]*\w+, \d{4}-\d{2}-\d{2}, (\d{4}-\d{2}-\d{2}|0d)", spec), s
    assert "publication 2026-12-C1 :milestone" in text
    # JSON: the check contract's keys, plus the audit
    for key in ("tool", "version", "findings", "summary", "skipped"):
        assert key in data
    audit_part = data["audit"]
    assert audit_part["today_cohort"] == "2026-12-C0"
    assert [c["cohort"] for c in audit_part["next_cohorts"]][:2] == ["2026-12-C0", "2026-12-C1"]
    assert {h["model"] for h in audit_part["timeline"]} == {"atlas-30b", "borealis-12b"}
    eagle3 = next(h for h in audit_part["timeline"] if h["repository"] == "fastheads/Atlas-30B-Eagle3")
    assert (eagle3["approved"], eagle3["eligible"], eagle3["eligible_date"]) == ("2026-10-C1", "2026-11-C1", "2026-11-18")
    assert audit_part["counts_by_rule"] == {k: v for k, v in audit_part["counts_by_rule"].items() if v}


def test_changes_since_previous_audit(cli, tmp_path, rules_repo):
    registry, _ = make_registry(tmp_path, "2026-10-05")
    code, text, first, _ = audit(cli, tmp_path, rules_repo, registry, "--select", "DL4")
    prev = tmp_path / "previous.json"
    prev.write_text(json.dumps(first))
    # Fix one head's approval, and push lines down (fingerprints, not line numbers, match).
    cat = registry / CAT
    fixed = cat.read_text().replace(
        "quickdraft/Atlas-30B-Eagle\n      revision: b2c3d4e5f60718293a4b5c6d7e8f901122334455\n      approved_cohort: 2026-09-C1",
        "quickdraft/Atlas-30B-Eagle\n      revision: b2c3d4e5f60718293a4b5c6d7e8f901122334455\n      approved_cohort: 2026-10-C0")
    cat.write_text("# moved\n# down\n" + fixed)
    git_commit_all(registry, "2026-11-01", "fix one approval")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry, "--select", "DL4", "--previous", prev)
    changes = data["audit"]["changes"]
    assert len(changes["fixed"]) == 1 and "quickdraft/Atlas-30B-Eagle" in changes["fixed"][0]["message"]
    assert changes["new"] == []
    assert len(changes["still_open"]) == len(data["findings"]) == len(first["findings"]) - 1
    assert "**0 new**, **1 fixed**" in text
    assert all(f["status"] == "still-open" for f in data["findings"])


def test_issue_created_then_updated_then_closed(cli, tmp_path, rules_repo, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    for i in range(3):
        fake_api.add_issue(f"unrelated {i}", "someone else's issue")
    registry, _ = make_registry(tmp_path, "2026-10-05")
    args = ("--select", "DL403", "--open-issue", "o/r", "--github-api-url", fake_api.url)
    code, text, _, err = audit(cli, tmp_path, rules_repo, registry, *args)
    assert code == 1 and "tracking issue created" in err
    ours = [n for n, i in fake_api.issues.items() if "drafterlint" in i["title"]]
    assert len(ours) == 1
    number = ours[0]
    assert "3 error(s)" in fake_api.issues[number]["title"]
    code, text, data, err = audit(cli, tmp_path, rules_repo, registry, *args)
    assert "tracking issue updated" in err
    assert [n for n, i in fake_api.issues.items() if "drafterlint" in i["title"]] == [number]
    # the second audit compared itself with the state the first left in the issue
    assert data["audit"]["changes"]["previous"] == f"the tracking issue #{number}"
    assert len(data["audit"]["changes"]["still_open"]) == 3
    assert fake_api.TOKEN not in text and fake_api.TOKEN not in err
    # the findings go away: the issue is closed with a comment
    cat = registry / CAT
    cat.write_text(cat.read_text().replace("approved_cohort: 2026-09-C1", "approved_cohort: 2026-10-C0"))
    git_commit_all(registry, "2026-11-01", "fix the approvals")
    code, text, data, err = audit(cli, tmp_path, rules_repo, registry, *args)
    assert code == 0 and "tracking issue closed" in err
    assert fake_api.issues[number]["state"] == "closed"
    assert fake_api.comments and fake_api.comments[-1][0] == number
    assert len(data["audit"]["changes"]["fixed"]) == 3


def test_network_failing_still_writes_the_report(cli, tmp_path, rules_repo, fake_api, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    fake_api.always = 503
    registry, _ = make_registry(tmp_path, "2026-10-05")
    code, text, data, err = audit(cli, tmp_path, rules_repo, registry, "--online", "--hub-api-url",
                                  fake_api.url, "--open-issue", "o/r", "--github-api-url", fake_api.url)
    assert code == 1  # the offline findings, not 3
    assert "Could not check" in text and "model hub" in text and "tracking issue in o/r" in text
    assert any(f["code"] == "DL403" for f in data["findings"])
    assert not any(f["code"] == "DL803" for f in data["findings"])  # unknown is never "missing"
    assert any("model hub" in n for n in data["audit"]["not_checked"])
    assert fake_api.TOKEN not in text + err


def test_online_reports_missing_revisions(cli, tmp_path, rules_repo, fake_api):
    registry, _ = make_registry(tmp_path, "2026-09-10")
    fake_api.hub = {"quickdraft/Atlas-30B-Eagle@b2c3d4e5f60718293a4b5c6d7e8f901122334455": 200,
                    "fastheads/Atlas-30B-Eagle3@c3d4e5f60718293a4b5c6d7e8f90112233445566": 200,
                    "atlaslab/Atlas-30B@a1b2c3d4e5f60718293a4b5c6d7e8f9011223344": 200,
                    "northwind/Borealis-12B@d4e5f60718293a4b5c6d7e8f9011223344556677": 200,
                    "northwind/Borealis-12B@e5f60718293a4b5c6d7e8f901122334455667788": 200}
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry, "--online", "--hub-api-url", fake_api.url)
    missing = [f for f in data["findings"] if f["code"] == "DL803"]
    assert len(missing) == 1 and "f60718293a4b5c6d7e8f90112233445566778899" in missing[0]["message"]


def test_plain_folders_skip_history_with_a_note(cli, tmp_path):
    rules = tmp_path / "plain_rules"
    registry = tmp_path / "plain_registry"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    shutil.copytree(FIXTURES / "example" / "endpoints", registry)
    code, text, data, _ = audit(cli, tmp_path, rules, registry)
    assert code in (0, 1)
    assert "not a git checkout" in text
    assert any("DL403" in s["codes"] and "not a git checkout" in s["reason"] for s in data["skipped"])
    assert data["audit"]["repositories"]["registry"]["commit"] is None


def test_exit_3_only_when_a_repository_cannot_be_brought(cli, tmp_path, rules_repo):
    code, text, data, err = audit(cli, tmp_path, rules_repo, tmp_path / "does-not-exist")
    assert code == 3 and "could not be brought" in text and data is None
    code, *_ = audit(cli, tmp_path, rules_repo, "https://127.0.0.1:9/o/r.git")
    assert code == 3
    registry, _ = make_registry(tmp_path, "2026-09-10")
    code, *_ = audit(cli, tmp_path, rules_repo, registry, "--registry-ref", "no-such-branch")
    assert code == 3


@pytest.mark.parametrize("bad", ["ssh://example.com/o/r", "ext::sh -c id", "--upload-pack=x"])
def test_unsafe_sources_are_usage_errors(cli, tmp_path, rules_repo, bad):
    code, *_ = audit(cli, tmp_path, rules_repo, bad)
    assert code == 2


def test_a_ref_of_a_local_repository_is_cloned_at_that_ref(cli, tmp_path, rules_repo):
    registry, first = make_registry(tmp_path, "2026-10-05")
    cat = registry / CAT
    cat.write_text(cat.read_text().replace("approved_cohort: 2026-09-C1", "approved_cohort: 2026-10-C0"))
    git_commit_all(registry, "2026-11-01", "fix")
    code, text, data, _ = audit(cli, tmp_path, rules_repo, registry, "--registry-ref", first, "--select", "DL403")
    assert data["audit"]["repositories"]["registry"]["commit"] == first
    assert len(data["findings"]) == 3
