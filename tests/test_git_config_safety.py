"""A checkout's own git configuration never runs code when drafterlint reads it.

Each key below is set in the repository's `.git/config` to a script that leaves a marker file;
`check --base-ref`, `fix --base-ref --diff`, `audit` and `sync` then run against that repository
(real git, no mocks) and the marker must not exist. The repositories carry a `.gitattributes`
naming the `x` filter and diff driver, so that filter and textconv keys have something to act on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, git_commit_all

ATTRIBUTES = "* filter=x diff=x\n"
KEYS = ["core.fsmonitor", "core.hooksPath", "core.sshCommand", "diff.external", "filter.x.smudge",
        "filter.x.clean", "filter.x.process", "diff.x.textconv", "uploadpack.packObjectsHook"]
HOOKS = ["post-checkout", "reference-transaction", "post-index-change", "pre-auto-gc", "post-merge",
         "fsmonitor-watchman", "pre-push"]


def arm(repo: Path, key: str, marker: Path) -> None:
    """Point `key` in repo/.git/config at a script that creates `marker`."""
    script = marker.parent / f"{marker.name}.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    script.chmod(0o755)
    value = str(script)
    if key == "core.hooksPath":
        hooks = marker.parent / f"{marker.name}-hooks"
        hooks.mkdir()
        for name in HOOKS:
            shutil.copy(script, hooks / name)
        value = str(hooks)
    subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)


@pytest.fixture(params=KEYS)
def key(request):
    return request.param


@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "MARKER"


def rules_change(tmp_path) -> Path:
    """A rules repository with two commits; the second renames a heading a link points to."""
    root = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", root)
    (root / ".gitattributes").write_text(ATTRIBUTES)
    git_commit_all(root, "2026-08-01", "base")
    doc = next(p for p in sorted(root.glob("*.md")))
    doc.write_text(doc.read_text() + "\n## An added heading\n\nText.\n")
    git_commit_all(root, "2026-08-02", "change")
    return root


def registry(tmp_path) -> Path:
    root = tmp_path / "registry"
    root.mkdir()
    (root / ".gitattributes").write_text(ATTRIBUTES)
    (root / "README.md").write_text("reference repository\n")
    git_commit_all(root, "2026-07-01", "start")
    shutil.copytree(FIXTURES / "example" / "endpoints", root, dirs_exist_ok=True)
    git_commit_all(root, "2026-09-01", "add the policies")
    return root


def test_check_and_fix_with_base_ref_run_nothing(cli, tmp_path, key, marker):
    root = rules_change(tmp_path)
    arm(root, key, marker)
    code, _, err = cli("check", "--no-cache", "--base-ref", "HEAD~1", cwd=root)
    assert code in (0, 1), err
    assert not marker.exists(), f"check --base-ref ran {key}"
    code, _, err = cli("fix", "--diff", "--base-ref", "HEAD~1", cwd=root)
    assert code in (0, 1), err
    assert not marker.exists(), f"fix --base-ref ran {key}"


def test_audit_reads_history_without_running_anything(cli, tmp_path, key, marker):
    rules = tmp_path / "rules"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    git_commit_all(rules, "2026-08-01", "rules")
    reg = registry(tmp_path)
    arm(reg, key, marker)
    arm(rules, key, tmp_path / "MARKER-rules")
    out = tmp_path / "audit.json"
    code, _, err = cli("audit", "--rules-repo", rules, f"--registry-repo={reg}", "--today", "2026-12-02",
                       "--json", out, "--output", tmp_path / "audit.md", "--cache-dir", tmp_path / "cache")
    assert out.exists(), err
    assert '"complete": true' in out.read_text()  # the history was read
    assert not marker.exists() and not (tmp_path / "MARKER-rules").exists(), f"audit ran {key}"


@pytest.mark.parametrize("as_uri", [False, True], ids=["path", "file-url"])
def test_sync_from_an_armed_source_runs_nothing(cli, tmp_path, key, marker, monkeypatch, as_uri):
    monkeypatch.setenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", "1")
    source = registry(tmp_path)
    arm(source, key, marker)
    url = source.as_uri() if as_uri else str(source)
    code, _, err = cli("sync", "registry", "--url", url, "--cache-dir", tmp_path / "cache")
    assert code == 0, err
    assert list((tmp_path / "cache").rglob("catalog.yaml")), "nothing was checked out"
    assert not marker.exists(), f"sync ran {key}"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_a_checkout_owned_by_another_user_is_still_read(cli, tmp_path):
    """git refuses a repository another user owns (`safe.directory`); the ones the user points
    drafterlint at are read all the same, since nothing in them runs."""
    rules = rules_change(tmp_path)
    reg = registry(tmp_path)
    for root in (rules, reg):
        subprocess.run(["chown", "-R", "nobody", str(root)], check=True)
    out = tmp_path / "audit.json"
    cli("audit", "--rules-repo", rules, f"--registry-repo={reg}", "--today", "2026-12-02",
        "--json", out, "--output", tmp_path / "audit.md", "--cache-dir", tmp_path / "cache")
    assert '"complete": true' in out.read_text()
    base = subprocess.run(["git", "-c", f"safe.directory={rules}", "-C", str(rules), "rev-parse", "HEAD~1"],
                          check=True, capture_output=True, text=True).stdout.strip()
    code, out, err = cli("check", "--no-cache", "--format", "json", "--base-ref", "HEAD~1", cwd=rules)
    assert code in (0, 1), err
    assert json.loads(out)["baseline"]["source"] == f"the merge base {base[:10]} of HEAD~1"
