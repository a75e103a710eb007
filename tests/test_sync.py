"""`drafterlint sync` and the git helpers, against real git repositories built in tmp_path."""

from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

import pytest

from drafterlint import gitops
from drafterlint.config import Config
from drafterlint.findings import FetchError, InputError
from drafterlint.sources import cached_checkout, cached_checkout_dir


def git(cwd, *args) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid",
         "-c", "init.defaultBranch=main", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    ).stdout.strip()


@pytest.fixture
def source(tmp_path) -> Path:
    """A registry-like repository with two commits on main and a tag on the first."""
    repo = tmp_path / "source"
    policies = repo / "src/inference_endpoint/validation/policies"
    policies.mkdir(parents=True)
    git(repo, "init", "-q")
    (policies / "README.md").write_text("first\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first")
    git(repo, "tag", "v1")
    (policies / "README.md").write_text("second\n")
    git(repo, "commit", "-qam", "second")
    return repo


@pytest.fixture
def local_ok(monkeypatch):
    monkeypatch.setenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", "1")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    c = tmp_path / "cache"
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(c))
    monkeypatch.chdir(tmp_path)
    return c


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "https://github.com/mlcommons/endpoints.git",
    "https://github.com/mlcommons/endpoints",
    "https://git.example.org:8443/group/sub/repo.git",
])
def test_https_urls_are_accepted(url):
    assert gitops.validate_url(url) == url


@pytest.mark.parametrize("url", [
    "ext::sh -c touch% /tmp/pwned",
    "ext::sh",
    "fd::17",
    "file:///tmp/repo",
    "/tmp/repo",
    "--upload-pack=touch /tmp/pwned",
    "-uhttps://github.com/a/b",
    "http://github.com/a/b.git",
    "git://github.com/a/b.git",
    "ssh://git@github.com/a/b.git",
    "git@github.com:a/b.git",
    "https://token:x@github.com/a/b.git",
    "https://github.com/a/b\n.git",
    "https://github.com/a/b.git\x00",
    "https://github.com/",
    "https://-oProxyCommand=x/a/b",
    "",
])
def test_unsafe_urls_are_refused(url):
    with pytest.raises(InputError):
        gitops.validate_url(url)


def test_local_urls_only_when_allowed(source):
    with pytest.raises(InputError):
        gitops.validate_url(str(source))
    assert gitops.validate_url(str(source), allow_local=True) == str(source.resolve())
    assert gitops.validate_url(source.as_uri(), allow_local=True) == source.as_uri()
    with pytest.raises(InputError):
        gitops.validate_url(str(source / "missing"), allow_local=True)
    with pytest.raises(InputError):  # transport helpers stay refused even then
        gitops.validate_url("ext::sh -c id", allow_local=True)


@pytest.mark.parametrize("ref", ["main", "v1.2.3", "release/2026-10", "a" * 40, "feature_x-1"])
def test_good_refs(ref):
    assert gitops.validate_ref(ref) == ref


@pytest.mark.parametrize("ref", [
    "", "-b", "--upload-pack=x", "a..b", "../etc", "a b", "a\tb", "a\nb", "x\x7f", "a~1", "a^",
    "a:b", "a?", "a*", "a[", "a\\b", "@", "a@{1}", "/a", "a/", "a.", "a//b", ".hidden", "x/.y",
    "a.lock", "x" * 300,
])
def test_bad_refs(ref):
    with pytest.raises(InputError):
        gitops.validate_ref(ref)


# -- bring -----------------------------------------------------------------------------------


def test_bring_shallow_and_full(source, tmp_path):
    head = git(source, "rev-parse", "HEAD")
    dest = tmp_path / "out" / "checkout"
    sha = gitops.bring(str(source), "main", dest, allow_local=True)
    assert sha == head
    assert (dest / "src/inference_endpoint/validation/policies/README.md").read_text() == "second\n"
    assert git(dest, "rev-list", "--count", "HEAD") == "1"  # shallow
    full = tmp_path / "out" / "full"
    gitops.bring(source.as_uri(), "main", full, full_history=True, allow_local=True)
    assert git(full, "rev-list", "--count", "HEAD") == "2"
    # A tag and a bare commit work too.
    first = git(source, "rev-parse", "v1")
    assert gitops.bring(str(source), "v1", tmp_path / "out" / "tag", allow_local=True) == first
    assert gitops.bring(str(source), first, tmp_path / "out" / "sha", allow_local=True) == first
    # Nothing but the checkouts is left beside them.
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["checkout", "full", "sha", "tag"]


def test_bring_refuses_local_paths_unless_allowed(source, tmp_path):
    with pytest.raises(InputError):
        gitops.bring(str(source), "main", tmp_path / "dest")
    assert not (tmp_path / "dest").exists()


def test_bring_unknown_ref_is_a_fetch_error_and_keeps_the_old_checkout(source, tmp_path):
    dest = tmp_path / "out" / "checkout"
    gitops.bring(str(source), "v1", dest, allow_local=True)
    with pytest.raises(FetchError):
        gitops.bring(str(source), "no-such-branch", dest, allow_local=True)
    assert (dest / "src/inference_endpoint/validation/policies/README.md").read_text() == "first\n"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["checkout"]


def test_changed_lines(source):
    base = git(source, "rev-parse", "v1")
    changed = gitops.changed_lines(source, base)
    assert changed == {"src/inference_endpoint/validation/policies/README.md": {1}}
    assert gitops.changed_lines(source, "0" * 40) is None
    assert gitops.changed_lines(source, "--output=/tmp/x") is None
    assert gitops.changed_lines(source.parent, base) is None  # not a repository


# -- the command -----------------------------------------------------------------------------


def test_sync_writes_checkout_and_fetched_json(source, cache, local_ok, cli):
    code, out, err = cli("sync", "registry", "--url", source)
    assert code == 0, err
    config = Config()
    base = cached_checkout_dir(config, "registry")
    assert base == cache / "repos" / "mlcommons__endpoints"
    record = json.loads((base / "fetched.json").read_text())
    assert record["url"] == str(source.resolve())
    assert record["ref"] == "main"
    assert record["commit"] == git(source, "rev-parse", "HEAD")
    stamp = datetime.datetime.fromisoformat(record["fetched_at"].replace("Z", "+00:00"))
    assert stamp.tzinfo is not None and record["fetched_at"].endswith("Z")
    assert cached_checkout(config, "registry") == base / "checkout"
    assert record["commit"][:12] in out

    # Again at a tag, into an explicit --cache-dir: replaces atomically, records the new ref.
    other = cache.parent / "other-cache"
    code, _, err = cli("sync", "registry", "--url", source.as_uri(), "--ref", "v1", "--cache-dir", other)
    assert code == 0, err
    rec2 = json.loads((other / "repos/mlcommons__endpoints/fetched.json").read_text())
    assert rec2["ref"] == "v1" and rec2["commit"] == git(source, "rev-parse", "v1")


def test_sync_refuses_local_without_the_variable(source, cache, cli, monkeypatch):
    monkeypatch.delenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", raising=False)
    code, _, err = cli("sync", "registry", "--url", source)
    assert code == 2
    assert "https" in err
    assert not cache.exists() or cached_checkout(Config(), "registry") is None


def test_sync_bad_ref_is_exit_2_and_unreachable_repository_exit_3(source, cache, local_ok, cli):
    code, _, err = cli("sync", "registry", "--url", source, "--ref", "a..b")
    assert code == 2, err
    code, _, err = cli("sync", "registry", "--url", source, "--ref", "nope")
    assert code == 3, err
    assert "could not fetch" in err
    code, _, err = cli("sync", "registry", "--url", source.parent / "missing-repo")
    assert code == 2, err  # not an existing directory: bad input


def test_failed_resync_keeps_the_previous_cache_usable(source, cache, local_ok, cli):
    assert cli("sync", "registry", "--url", source)[0] == 0
    before = json.loads((cache / "repos/mlcommons__endpoints/fetched.json").read_text())
    assert cli("sync", "registry", "--url", source, "--ref", "nope")[0] == 3
    after = json.loads((cache / "repos/mlcommons__endpoints/fetched.json").read_text())
    assert before == after
    assert cached_checkout(Config(), "registry") is not None


def test_interrupted_swap_leaves_nothing_check_would_accept(source, cache, local_ok, cli, monkeypatch):
    assert cli("sync", "registry", "--url", source)[0] == 0

    def boom(new, dest):
        raise KeyboardInterrupt  # killed between dropping the marker and renaming into place

    monkeypatch.setattr(gitops, "_swap_into_place", boom)
    assert cli("sync", "registry", "--url", source, "--ref", "v1")[0] == 130
    assert cached_checkout(Config(), "registry") is None
    base = cache / "repos/mlcommons__endpoints"
    assert not [p for p in base.iterdir() if ".tmp-" in p.name]
    monkeypatch.undo()
    monkeypatch.setenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", "1")
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(cache))
    assert cli("sync", "registry", "--url", source, "--ref", "v1")[0] == 0
    assert cached_checkout(Config(), "registry") == base / "checkout"


def test_check_uses_the_synced_registry(source, cache, local_ok, cli, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text("# Rules\n\n## 2.9 Model Equivalence Rules\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--format", "json")
    before = json.loads(out)
    assert any("reference repository" in s["reason"] for s in before["skipped"])
    assert cli("sync", "registry", "--url", source)[0] == 0
    code, out, err = cli("check", "--rules-repo", rules, "--format", "json")
    after = json.loads(out)
    assert not any("no reference repository" in s["reason"] for s in after["skipped"]), after["skipped"]
