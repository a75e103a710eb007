"""First appearances of heads and checkpoints, read from real git repositories with dated commits."""

from __future__ import annotations

import subprocess

import pytest

from drafterlint.history import build_history
from tests.helpers import git_commit_all

POL = "src/inference_endpoint/validation/policies"


def catalog(folder: str, heads: list[tuple[str, str]], checkpoints: list[str] = ()) -> str:
    lines = [f"version: {folder}", "revision: 1", "catalogs:", "  approved_spec_decode_heads:"]
    if not heads:
        lines[-1] += " []"
    for repo, approved in heads:
        lines += ["    - model: m1", f"      repository: {repo}", f"      revision: {'a' * 40}",
                  f"      approved_cohort: {approved}", "      method: eagle3"]
    lines.append("  approved_checkpoints:" + ("" if checkpoints else " {}"))
    if checkpoints:
        lines.append("    m1:")
        for repo in checkpoints:
            lines += [f"      - repository: {repo}", f"        revision: {'b' * 40}"]
    return "\n".join(lines) + "\n"


def put(root, folder, text):
    p = root / POL / folder / "catalog.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def test_first_commit_that_lists_each_entry(tmp_path):
    root = tmp_path / "reg"
    put(root, "2026-10-C1", catalog("2026-10-C1", []))
    git_commit_all(root, "2026-08-01", "empty")
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1")], ["o/ck"]))
    first = git_commit_all(root, "2026-09-03T09:30:00+02:00", "add a")
    (root / "README.md").write_text("unrelated\n")
    git_commit_all(root, "2026-09-20", "unrelated")
    put(root, "2026-11-C0", catalog("2026-11-C0", [("o/a", "2026-09-C1"), ("o/b", "2026-10-C0")], ["o/ck"]))
    second = git_commit_all(root, "2026-10-09", "add b in a new folder")
    hist = build_history(root, POL)
    a = hist.head_first_seen(("m1", "o/a", "a" * 40))
    b = hist.head_first_seen(("m1", "o/b", "a" * 40))
    assert a.sha == first and a.day.isoformat() == "2026-09-03"
    assert b.sha == second and b.day.isoformat() == "2026-10-09"
    assert hist.checkpoint_first_seen(("m1", "o/ck", "b" * 40)).sha == first
    assert hist.complete and hist.commits_read == 3  # the README commit does not touch the policies


def test_a_root_commit_dates_what_it_lists(tmp_path):
    root = tmp_path / "reg"
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1")]))
    sha = git_commit_all(root, "2026-09-10")
    hist = build_history(root, POL)
    assert hist.head_first_seen(("m1", "o/a", "a" * 40)).sha == sha


def test_a_truncated_walk_does_not_date_what_was_already_there(tmp_path):
    root = tmp_path / "reg"
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1")]))
    git_commit_all(root, "2026-09-01")
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1"), ("o/b", "2026-09-C1")]))
    git_commit_all(root, "2026-09-05")
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1"), ("o/b", "2026-09-C1"), ("o/c", "2026-09-C1")]))
    third = git_commit_all(root, "2026-09-09")
    hist = build_history(root, POL, max_commits=2)
    assert not hist.complete and hist.notes
    assert hist.head_first_seen(("m1", "o/a", "a" * 40)) is None
    assert hist.head_first_seen(("m1", "o/b", "a" * 40)) is None  # in the oldest commit read
    assert hist.head_first_seen(("m1", "o/c", "a" * 40)).sha == third


def test_a_shallow_clone_dates_nothing_it_cannot_see(tmp_path):
    root = tmp_path / "reg"
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1")]))
    git_commit_all(root, "2026-09-01")
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1"), ("o/b", "2026-09-C1")]))
    git_commit_all(root, "2026-09-05")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "--quiet", "--depth=1", f"file://{root}", str(clone)], check=True)
    hist = build_history(clone, POL)
    assert not hist.complete
    assert hist.heads == {}


def test_unreadable_versions_list_nothing_and_the_rest_still_counts(tmp_path):
    root = tmp_path / "reg"
    put(root, "2026-10-C1", "catalogs: [unclosed\n")
    git_commit_all(root, "2026-09-01")
    put(root, "2026-10-C1", catalog("2026-10-C1", [("o/a", "2026-09-C1")]))
    sha = git_commit_all(root, "2026-09-08")
    assert build_history(root, POL).head_first_seen(("m1", "o/a", "a" * 40)).sha == sha


def test_not_a_repository(tmp_path):
    with pytest.raises(ValueError):
        build_history(tmp_path, POL)
