"""A hostile repository is contained (issue 22): nothing outside the repository, the temporary
folder and the user's chosen cache is written, deleted or overwritten, whatever the repository
and its `.drafterlint.yaml` hold; and a write that fails is one line, never a traceback.

Real symbolic links, hard links, git trees and (where root may mount one) a full tmpfs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, git_commit_all

RULES = "# Rules\n\n## 2. Models\n\n## 8. Changes\n\n### 8.2 Withdrawal\n\nSee [§8.3](#83-withdrawal).\n"
CAT = "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"


def snapshot(top: Path, skip: tuple[Path, ...] = ()) -> dict[str, tuple]:
    """Every entry under `top` (links not followed), but `skip`: its kind, mode, size, contents
    (or link target) and modification time."""
    out: dict[str, tuple] = {}
    for here, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if Path(here, d) not in skip]
        for name in [*dirs, *files]:
            p = Path(here, name)
            if p in skip:
                continue
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                what: object = os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                what = hashlib.sha256(p.read_bytes()).hexdigest()
            else:
                what = None
            out[str(p.relative_to(top))] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_size,
                                            what, None if stat.S_ISDIR(st.st_mode) else st.st_mtime_ns)
    return out


def rules_repo(root: Path, config: str | None = None) -> Path:
    root.mkdir(parents=True)
    (root / "endpoints_rules.md").write_text(RULES)
    (root / "endpoints_submission_rules.md").write_text("# S\n")
    if config is not None:
        (root / ".drafterlint.yaml").write_text(config)
    return root


# -- the cache ---------------------------------------------------------------------------------


@pytest.fixture(params=["dir_fd", "lstat"])
def opening(request, monkeypatch):
    """Both ways the cache opens its files: relative to the directory's descriptor with
    O_NOFOLLOW, and (where the system has neither, as Windows) each name checked with lstat."""
    from drafterlint import cache_store

    if request.param == "lstat":
        monkeypatch.setattr(cache_store, "_DIR_FD", False)
    elif not cache_store._DIR_FD:
        pytest.skip("this system has no dir_fd and O_NOFOLLOW")
    return request.param


def victims(folder: Path, n: int = 250) -> dict[str, tuple]:
    folder.mkdir(parents=True)
    for i in range(n):
        p = folder / f"photo-{i:03}.jpg"
        p.write_text(f"photo {i}\n")
        os.utime(p, (1_600_000_000 + i, 1_600_000_000 + i))
    return snapshot(folder)


def test_a_repository_cannot_place_the_cache_nor_prune_through_a_link(cli, tmp_path, monkeypatch):
    """Repro 01, route A: `cache_dir: .` and a committed link `check-cache -> ../../victim`."""
    before = victims(tmp_path / "victim")
    repo = rules_repo(tmp_path / "src" / "repo", "cache_dir: .\n")
    (repo / ".git").mkdir()
    (repo / "check-cache").symlink_to("../../victim")
    code, _, err = cli("check", cwd=repo)
    assert code == 1
    assert "`cache_dir` is ignored in a configuration file" in err and ".drafterlint.yaml" in err
    assert snapshot(tmp_path / "victim") == before
    assert (Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache").is_dir()  # the user's cache is used


@pytest.mark.parametrize("variable", ["DRAFTERLINT_CACHE", "XDG_CACHE_HOME"])
def test_a_relative_cache_variable_is_refused_with_one_line(cli, tmp_path, monkeypatch, variable):
    # Relative, it would put the cache (and its pruning) inside the repository the hook runs in.
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("DRAFTERLINT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(variable, "cache")
    repo = rules_repo(tmp_path / "repo")
    code, _, err = cli("check", cwd=repo)
    assert code == 1
    assert err.count(f"${variable} is ignored") == 1
    assert (f"drafterlint: warning: ${variable} is ignored: `cache` is a relative path, which would put the cache "
            "inside whatever folder drafterlint runs in (a repository, under the hook); set an absolute path") in err
    assert not (repo / "cache").exists()
    used = tmp_path / "xdg" if variable == "DRAFTERLINT_CACHE" else home / ".cache"
    assert (used / "drafterlint" / "check-cache").is_dir()  # the next place in the order is used


def test_a_cache_variable_under_the_home_folder_is_absolute(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DRAFTERLINT_CACHE", "~/dl-cache")
    code, _, err = cli("check", cwd=rules_repo(tmp_path / "repo"))
    assert code == 1 and "is ignored" not in err
    assert (tmp_path / "home" / "dl-cache" / "check-cache").is_dir()


def test_a_linked_check_cache_is_not_used(cli, tmp_path, monkeypatch, opening):
    """Repro 01, route B: $DRAFTERLINT_CACHE/check-cache is a link: one warning, uncached run."""
    before = victims(tmp_path / "victim")
    cache = tmp_path / "usercache"
    cache.mkdir()
    (cache / "check-cache").symlink_to(tmp_path / "victim")
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(cache))
    repo = rules_repo(tmp_path / "repo")
    for _ in range(2):
        code, _, err = cli("check", cwd=repo)
        assert code == 1
        assert err.count("warning: cache") == 1 and "symbolic link" in err and "running without it" in err
    assert snapshot(tmp_path / "victim") == before


def test_a_cache_holding_a_link_is_not_used(cli, tmp_path, monkeypatch, opening):
    cache = Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache"
    cache.mkdir(parents=True, mode=0o700)
    (cache / f"run-{'0' * 64}.json").symlink_to(tmp_path / "elsewhere.json")
    code, _, err = cli("check", cwd=rules_repo(tmp_path / "repo"))
    assert code == 1
    assert "holds a symbolic link" in err and "running without it" in err
    assert not (tmp_path / "elsewhere.json").exists()


def test_pruning_deletes_only_what_the_cache_wrote(tmp_path, monkeypatch, opening):
    from drafterlint import cache_store

    store = cache_store.Store(tmp_path / "check-cache")
    assert store.usable()
    foreign = {"notes.txt": b"mine\n", f"run-{'a' * 64}.json": b"not an entry of yours\n",
               ".tmp-" + "b" * 32: b"someone else's temporary file"}
    for name, data in foreign.items():
        (store.dir / name).write_bytes(data)
        os.utime(store.dir / name, (1, 1))  # the oldest: pruned first if they were the cache's
    monkeypatch.setattr(cache_store, "MAX_ENTRIES", 3)
    for i in range(6):
        assert store.save(f"doc-{i:064x}.json", {"i": i})
    names = sorted(p.name for p in store.dir.iterdir())
    assert all(n in names for n in foreign)
    assert len([n for n in names if n.startswith("doc-")]) <= 3
    assert store.load("../notes.txt") is None and store.load("notes.txt") is None  # not a name it writes
    assert store.load(f"doc-{5:064x}.json") == {"i": 5}


# -- configured places to write ------------------------------------------------------------------


def test_a_configured_baseline_outside_the_repository_is_refused(cli, tmp_path):
    """Repro 02: `baseline: ../home/.bashrc` then `drafterlint baseline`."""
    bashrc = tmp_path / "home" / ".bashrc"
    bashrc.parent.mkdir()
    bashrc.write_text("export PATH=$HOME/bin:$PATH\n")
    repo = rules_repo(tmp_path / "repo", "baseline: ../home/.bashrc\n")
    (repo / ".git").mkdir()
    for command in ("baseline", "check"):
        code, _, err = cli(command, cwd=repo)
        assert code == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert ".drafterlint.yaml" in err and "`baseline: ../home/.bashrc` leads outside the repository" in err
    assert bashrc.read_text() == "export PATH=$HOME/bin:$PATH\n"
    # The same path on the command line is the user's own choice.
    code, _, err = cli("baseline", "--output", bashrc, cwd=tmp_path)
    assert code == 2  # (no repository here: found neither)
    code, _, err = cli("baseline", "--rules-repo", repo, "--output", tmp_path / "mine.json", cwd=tmp_path)
    assert (code, (tmp_path / "mine.json").is_file()) == (0, True), err


def test_a_baseline_linked_out_of_the_repository_is_refused(cli, tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("keep\n")
    repo = rules_repo(tmp_path / "repo")
    (repo / ".git").mkdir()
    (repo / ".drafterlint-baseline.json").symlink_to(secret)
    code, _, err = cli("baseline", cwd=repo)
    assert code == 2 and "outside" in err and "Traceback" not in err
    assert secret.read_text() == "keep\n"


def test_an_extra_list_outside_the_repository_is_not_read(cli, tmp_path):
    """A file a repository's configuration names is read and reported on (DL701 names its keys):
    an extra list must lie inside the repository holding the configuration, links followed."""
    secret = tmp_path / "home" / "hosts.yml"
    secret.parent.mkdir()
    secret.write_text("oauth_token: gho_not_for_the_log\n")
    registry = FIXTURES / "example" / "endpoints"
    repo = rules_repo(tmp_path / "repo", "registry:\n  extra_lists:\n    - {name: cli, path: ../home/hosts.yml}\n")
    (repo / ".git").mkdir()
    for command in ("check", "baseline", "fix"):
        code, out, err = cli(command, "--registry-repo", registry, cwd=repo)
        assert code == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert (".drafterlint.yaml:3: `registry.extra_lists[0].path: ../home/hosts.yml` leads outside the "
                "repository") in err
        assert "oauth_token" not in out + err
    (repo / "list.yml").symlink_to(secret)  # inside by name, outside by its link
    (repo / ".drafterlint.yaml").write_text("registry:\n  extra_lists:\n    - {name: cli, path: list.yml}\n")
    code, _, err = cli("check", "--registry-repo", registry, cwd=repo)
    assert code == 2 and "`registry.extra_lists[0].path: list.yml` leads outside" in err
    # The same file named on the command line is the user's own choice: read, and reported on.
    (repo / ".drafterlint.yaml").unlink()
    code, out, err = cli("check", "--registry-repo", registry, "--extra-list", secret, "--select", "DL7", cwd=repo)
    assert code == 1 and "DL701" in out, err


@pytest.mark.parametrize("secret", ["github.com:\n    oauth_token: gho_not_for_the_log\n",
                                    "fail_on: ghp_not_for_the_log\n"], ids=["unknown-key", "failing-value"])
def test_a_configuration_file_linked_out_of_the_repository_is_not_read(cli, tmp_path, secret):
    """A committed `.drafterlint.yaml` that is a link to a file outside (the gh CLI's hosts.yml):
    its keys and failing values would be quoted in a fork's public log. Not read, one line."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "hosts.yml").write_text(secret)
    repo = rules_repo(tmp_path / "repo")
    (repo / ".git").mkdir()
    (repo / ".drafterlint.yaml").symlink_to("../home/hosts.yml")
    for argv in (("check",), ("baseline",), ("fix",), ("check", "--config", ".drafterlint.yaml")):
        code, out, err = cli(*argv, cwd=repo)
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err
        assert err == (f"drafterlint: {repo / '.drafterlint.yaml' if len(argv) == 1 else '.drafterlint.yaml'}: "
                       f"the configuration file resolves outside the repository that holds it ({repo}), through a "
                       "symbolic link; not read: give the file it leads to with --config, if you mean it\n")
        assert "not_for_the_log" not in out + err and "github.com" not in out + err
    # Named by its own path on the command line, the file is the user's choice: read.
    code, _, err = cli("check", "--config", home / "hosts.yml", cwd=repo)
    assert code == 2 and ("not_for_the_log" in err or "github.com" in err)


def test_a_configuration_file_linked_inside_its_repository_is_read(cli, tmp_path):
    repo = rules_repo(tmp_path / "repo")
    (repo / ".git").mkdir()
    (repo / "settings").mkdir()
    (repo / "settings" / "drafterlint.yaml").write_text("fail_on: never\n")
    (repo / ".drafterlint.yaml").symlink_to("settings/drafterlint.yaml")
    code, _, err = cli("check", cwd=repo)
    # Read, and its failing value quoted: a file of the repository is the repository's to show.
    assert code == 2 and "invalid configuration: fail_on: 'never' is not one of" in err, err


def test_a_report_path_linked_out_of_the_repository_is_refused(cli, tmp_path):
    (tmp_path / "outside").mkdir()
    repo = rules_repo(tmp_path / "repo")
    (repo / "out").symlink_to(tmp_path / "outside")
    code, _, err = cli("check", "--output", "out/report.json", "--format", "json", cwd=repo)
    assert code == 2 and "symbolic link leads it" in err
    assert list((tmp_path / "outside").iterdir()) == []


# -- fix: what it may change, and how ----------------------------------------------------------


def test_fix_leaves_a_read_only_file_read_only(cli, tmp_path):
    repo = rules_repo(tmp_path / "repo")
    doc = repo / "endpoints_rules.md"
    doc.chmod(0o444)
    code, out, _ = cli("fix", "--rules-repo", repo, cwd=tmp_path)
    assert code == 1
    assert "read-only" in out and doc.read_text() == RULES
    assert stat.S_IMODE(doc.stat().st_mode) == 0o444


def test_fix_writes_a_hard_linked_file_in_place(cli, tmp_path):
    repo = rules_repo(tmp_path / "repo")
    doc = repo / "endpoints_rules.md"
    doc.chmod(0o640)
    other = tmp_path / "other-name.md"
    os.link(doc, other)
    code, _, _ = cli("fix", "--rules-repo", repo, cwd=tmp_path)
    assert code == 0
    assert "(#82-withdrawal)" in other.read_text()  # the other link sees the fix: one file still
    assert doc.stat().st_nlink == 2 and os.path.samefile(doc, other)
    assert stat.S_IMODE(doc.stat().st_mode) == 0o640


def _mk_big(root: Path) -> None:
    pad = "".join(f"Paragraph {i} with [a link](#2-models).\n\n" for i in range(3000))
    rules_repo(root)
    (root / "endpoints_rules.md").write_text(RULES + "\n" + pad)


def test_fix_on_a_full_disk_is_one_line(tmp_path):
    """Repro 08: ENOSPC while writing; the document intact, no temporary file left."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root allowed to mount a tmpfs (a real full file system)")
    try:
        repo = mount / "rules"
        _mk_big(repo)
        free = shutil.disk_usage(mount).free
        (mount / "filler").write_bytes(b"x" * (free - 40_000))
        before = sorted(p.name for p in repo.iterdir()), (repo / "endpoints_rules.md").read_bytes()
        proc = subprocess.run([sys.executable, "-m", "drafterlint", "fix", "--rules-repo", str(repo)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "No space left on device" in proc.stderr
        assert "endpoints_rules.md" in proc.stderr
        assert (sorted(p.name for p in repo.iterdir()), (repo / "endpoints_rules.md").read_bytes()) == before
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_fix_in_a_folder_it_may_not_write_is_one_line(tmp_path):
    """Repro 08: a folder it may not create files in (root without CAP_DAC_OVERRIDE obeys modes)."""
    repo = tmp_path / "rules"
    _mk_big(repo)
    repo.chmod(0o555)
    cmd = [sys.executable, "-m", "drafterlint", "fix", "--rules-repo", str(repo)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root ignores folder modes and setpriv is not there to drop that")
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    finally:
        repo.chmod(0o755)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Permission denied" in proc.stderr and "Traceback" not in proc.stderr


def test_a_base_tree_git_would_reject_is_refused_naming_the_commit(cli, tmp_path):
    """Repro 14: the merge base's tree holds a file and a folder of one name."""
    repo = rules_repo(tmp_path / "repo")
    git_commit_all(repo, "2026-01-01", "base")

    def git(*args, stdin=None):
        return subprocess.run(["git", "-C", str(repo), *args], input=stdin, check=True, capture_output=True,
                              text=True, env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e",
                                              "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}).stdout.strip()

    blob = git("hash-object", "-w", "--stdin", stdin="# dup\n")
    inner = git("mktree", stdin=f"100644 blob {blob}\tx.md\n")
    rules_blob = git("rev-parse", "HEAD:endpoints_rules.md")
    tree = git("mktree", "--missing", stdin=f"100644 blob {blob}\ta.md\n040000 tree {inner}\ta.md\n"
                                            f"100644 blob {rules_blob}\tendpoints_rules.md\n")
    crafted = git("commit-tree", tree, "-p", "HEAD", "-m", "crafted")
    git("branch", "crafted", crafted)
    git("merge", "-q", "--no-edit", "-s", "ours", "crafted")
    for command in (("check", "--no-cache"), ("fix",)):
        code, _, err = cli(*command, "--base-ref", "crafted", cwd=repo)
        assert code == 2, err
        assert crafted in err and "a file and a folder both named a.md" in err and err.count("\n") == 1


def test_yaml_integers_beyond_the_limit_are_one_finding_or_one_line(cli, tmp_path):
    """Repro 04 (the digits case): DL702 at its line in a catalog; exit 2 with the line in the
    configuration."""
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURES / "registry_cases" / "clean", registry)
    catalog = next(registry.rglob("catalog.yaml"))
    text = catalog.read_text()
    assert "revision: 1\n" in text
    line = text[:text.index("revision: 1\n")].count("\n") + 1
    catalog.write_text(text.replace("revision: 1\n", f"revision: {'9' * 5000}\n", 1))
    code, out, err = cli("check", "--registry-repo", registry, "--no-cache", "-v", cwd=tmp_path)
    assert code == 1 and "Traceback" not in err
    assert any(f":{line}:" in ln and "DL702" in ln and "too large" in ln for ln in out.splitlines()), out
    repo = rules_repo(tmp_path / "repo", f"fail_on: {'9' * 5000}\n")
    code, _, err = cli("check", "--no-cache", cwd=repo)
    assert code == 2 and ".drafterlint.yaml:1:" in err and "too large" in err


# -- the whole hostile repository ----------------------------------------------------------------


def hostile_world(tmp_path: Path, config: str) -> tuple[Path, Path]:
    """A home with files worth protecting, a reference checkout beside the hostile rules
    repository (whose config points every place it can name outside it), and links committed
    in that repository that lead out. Returns (world, repo)."""
    world = tmp_path / "world"
    home = world / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".bashrc").write_text("export PATH=$HOME/bin:$PATH\n")
    (home / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA user\n")
    victims(world / "victim", 210)
    registry = world / "endpoints"
    shutil.copytree(FIXTURES / "example" / "endpoints", registry)
    (registry / "docs").mkdir()
    (registry / "docs" / "notes.md").write_text(RULES)  # a link `fix` could mend
    git_commit_all(registry, "2026-07-01", "registry")
    repo = world / "repo"
    shutil.copytree(FIXTURES / "example" / "rules", repo)
    (repo / ".drafterlint.yaml").write_text(config)
    (repo / "check-cache").symlink_to("../victim")
    (repo / "out").symlink_to("../home")
    git_commit_all(repo, "2026-08-01", "base")
    with open(repo / "endpoints_rules.md", "a") as fh:
        fh.write("\n## 8. Changes\n\n### 8.2 Withdrawal\n\nSee [§8.3](#83-withdrawal).\n")
    git_commit_all(repo, "2026-08-02", "change")
    return world, repo


OUTSIDE = ("cache_dir: ../home/.ssh\n"
           "registry:\n  path: ../endpoints\n  documents: ['**/*.md']\n")


@pytest.mark.parametrize("config", [OUTSIDE + "baseline: ../home/.bashrc\n", OUTSIDE + "baseline: out/.bashrc\n",
                                    OUTSIDE, "cache_dir: .\n"],
                         ids=["baseline-outside", "baseline-through-a-link", "cache-and-registry-outside", "cache-here"])
def test_every_command_on_a_hostile_repository_stays_inside(cli, tmp_path, monkeypatch, fake_api, config):
    world, repo = hostile_world(tmp_path, config)
    cache = tmp_path / "usercache"
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(cache))
    monkeypatch.setenv("HOME", str(world / "home"))
    monkeypatch.setenv("GITHUB_TOKEN", fake_api.TOKEN)
    monkeypatch.setenv("DRAFTERLINT_ALLOW_LOCAL_SYNC", "1")
    reports = tmp_path / "reports"
    reports.mkdir()
    before = snapshot(world, skip=(repo,))
    runs = [
        ("check",),
        ("check", "--base-ref", "HEAD~1", "--format", "github"),
        ("check", "--format", "json", "--output", reports / "check.json", "--report", f"sarif={reports / 's.sarif'}"),
        ("fix", "--diff"),
        ("fix",),
        ("baseline",),
        ("audit", "--rules-repo", repo, "--registry-repo", world / "endpoints", "--today", "2026-12-02", "--output", reports / "audit.md",
         "--json", reports / "audit.json", "--cache-dir", cache, "--online", "--hub-api-url", fake_api.url,
         "--open-issue", "o/r", "--github-api-url", fake_api.url),
        ("sync", "registry", "--url", world / "endpoints"),
    ]
    codes, outs = [], []
    for argv in runs:
        code, out, err = cli(*argv, cwd=repo)
        assert "Traceback" not in out + err, (argv, err)
        assert code in (0, 1, 2), (argv, code, err)
        codes.append(code)
        outs.append(out + err)
    assert snapshot(world, skip=(repo,)) == before
    if "baseline:" in config:  # the configured baseline is refused wherever it is read or written
        assert codes[0] == codes[5] == 2
    else:
        assert codes[0] == 1 and codes[5] == 0 and (repo / ".drafterlint-baseline.json").is_file()
    if "registry:" in config:  # fix may not change the checkout the repository's file named
        assert "docs/notes.md" in outs[4] and "named by" in outs[4] and "--registry-repo" in outs[4]
    assert "(#82-withdrawal)" in (repo / "endpoints_rules.md").read_text()  # its own files it fixes


# -- output lines --------------------------------------------------------------------------------


def test_fix_diff_prints_no_workflow_command_and_a_patch_that_applies(cli, tmp_path):
    """Repro 09: a file name with a line break and a document line ` ::warning::…` that a diff
    would quote as a context line. Each such file's diff is withheld, saying why; the rest is a
    patch git applies."""
    from drafterlint.safeio import is_command_line

    repo = rules_repo(tmp_path / "repo")
    name = "notes\n::error title=injected::from-fix-diff\n.md"
    (repo / name).write_text(RULES)
    (repo / "context.md").write_text(RULES + "\n::warning::context line from the document\n")
    git_commit_all(repo, "2026-01-01", "x")
    code, out, err = cli("fix", "--diff", "--rules-repo", ".", cwd=repo)
    assert code == 1
    lines = (out + err).splitlines()
    assert not any(is_command_line(line) for line in lines), lines
    assert "the diff of notes\\n::error title=injected::from-fix-diff\\n.md is not shown: its file name" in err
    assert "the diff of context.md is not shown: a line of it would be read" in err
    assert out.startswith("--- a/endpoints_rules.md")
    (tmp_path / "p.diff").write_text(out)
    assert subprocess.run(["git", "-C", str(repo), "apply", "--check", str(tmp_path / "p.diff")]).returncode == 0
    code, out, err = cli("fix", "--rules-repo", ".", cwd=repo)  # the summary of a real fix
    assert code == 0 and not any(is_command_line(line) for line in (out + err).splitlines())
    assert "(#82-withdrawal)" in (repo / name).read_text()


@pytest.mark.parametrize("line", ["::error::x", "  ::error::x", "\t::warning::x", "\u00a0::notice::x", "\u3000::add-mask::x",
                                  "\u200b::error::x", "text ##[error]x", "a\n::error::b", "a\r::error::b",
                                  "a\u2028::error::b", "\x1b[2J::error::x", "bad \udce9 byte ::error::x"])
def test_the_escape_leaves_no_command(line):
    from drafterlint.safeio import is_command_line, safe_line

    out = safe_line(line)
    assert "\n" not in out and "\r" not in out and not is_command_line(out)
    assert out.encode("utf-8")  # printable on any stream
    assert safe_line(out) == out  # once is enough: escaping twice changes nothing


def test_json_output_is_printable_and_decodes_to_the_same_text():
    import json

    from drafterlint.safeio import is_command_line, json_safe

    value = {"m": "##[error]x \u2028 \x85 ::warning::y"}
    text = json_safe(json.dumps(value, indent=2, ensure_ascii=False))
    assert json.loads(text) == value
    assert not any(is_command_line(line) for line in text.splitlines())


def test_the_checked_write_keeps_modes_and_refuses_what_it_should(tmp_path):
    from drafterlint.findings import InputError
    from drafterlint.safeio import Refused, write_file

    f = tmp_path / "f.txt"
    f.write_text("old")
    f.chmod(0o604)
    write_file(f, "new")
    assert (f.read_text(), stat.S_IMODE(f.stat().st_mode)) == ("new", 0o604)
    with pytest.raises(Refused, match="is a directory"):
        write_file(tmp_path, "x")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(Refused, match="not a regular file"):
        write_file(tmp_path / "fifo", "x")
    with pytest.raises(Refused, match="outside"):
        write_file(tmp_path / "f.txt", "x", within=tmp_path / "sub")
    with pytest.raises(InputError, match="cannot write") as caught:
        write_file(tmp_path / "missing" / "f.txt", "x")
    assert not isinstance(caught.value, Refused) and str(tmp_path / "missing" / "f.txt") in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt", "fifo"]  # no temporary file left
