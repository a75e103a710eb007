"""The whole-run cache of `drafterlint check`: a change to any input is a miss, and a cached run
prints exactly what a `--no-cache` run prints.

Each case runs the real command line twice on the same inputs (the second run must be a hit:
`-v` says so on stderr), then changes one input and runs again: that run must be a miss and
print what `--no-cache` prints for the changed inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import drafterlint
from drafterlint import cache, inputs
from drafterlint.config import DEFAULTS, Config
from tests.helpers import leaves, nest
from tests.helpers.samples import CATALOG, REV_A, REV_B  # one small registry for both

CAT = "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"
RULES = """# Rules

## 2. Models

### 2.9 Model Equivalence Rules

#### 2.9.4 Speculative Decoding

See [models](#2-models) and [gone](#nowhere).
"""
BAD_LIST = ("drafters:\n  - benchmark: m1\n    approved_cohort: 2026-09-C1\n"
            f"    model_id: other/head\n    weight_checksum: git-sha1:{REV_B}\n")


@pytest.fixture
def work(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / ".git").mkdir()
    (rules / "endpoints_rules.md").write_text(RULES)
    (rules / "endpoints_submission_rules.md").write_text("# Submission\n")
    reg = tmp_path / "registry"
    (reg / CAT).parent.mkdir(parents=True)
    (reg / CAT).write_text(CATALOG)
    (tmp_path / "bad.yaml").write_text(BAD_LIST)
    (tmp_path / ".drafterlint.yaml").write_text("fail_on: error\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


BASE = ["check", "--rules-repo", "rules", "--registry-repo", "registry", "--format", "json"]


def outcome(cli, *argv):
    code, out, err = cli(*BASE, *argv, "-v")
    lines = [ln for ln in err.splitlines() if ln.startswith("drafterlint: cache: ")]
    lines = lines or ["drafterlint: cache: miss hit"]
    return code, json.loads(out), lines[0].removeprefix("drafterlint: cache: ")


def uncached(cli, *argv):
    code, out, err = cli(*BASE, *argv, "--no-cache")
    assert "Traceback" not in err
    return code, json.loads(out)


def assert_miss_then_right(cli, before: list[str], after: list[str], change=None):
    code, _, state = outcome(cli, *before)
    assert state.startswith("miss"), state
    code, _, state = outcome(cli, *before)
    assert state.startswith("hit"), state
    if change is not None:
        change()
    code, report, state = outcome(cli, *after)
    assert state.startswith("miss"), state
    assert (code, report) == uncached(cli, *after)


@pytest.mark.parametrize("before, after", [
    ([], ["--extra-list", "cli=bad.yaml"]),
    (["--extra-list", "cli=bad.yaml"], []),
    ([], ["--select", "DL2"]),
    ([], ["--ignore", "DL201"]),
    ([], ["--fail-on", "info"]),
    ([], ["--today", "2026-12-01"]),
    (["--today", "2026-12-01"], ["--today", "2026-12-02"]),
    ([], ["--config", "other.yaml"]),
], ids=["extra-list-added", "extra-list-removed", "select", "ignore", "fail-on", "today",
        "today-changed", "config-file"])
def test_each_flag_is_part_of_the_key(cli, work, before, after):
    (work / "other.yaml").write_text("ignore: [DL201]\n")
    assert_miss_then_right(cli, before, after)


def test_the_repository_roots_are_part_of_the_key(cli, work):
    import shutil

    shutil.copytree(work / "rules", work / "rules2")
    (work / "rules2" / "endpoints_rules.md").write_text(RULES.replace("#nowhere", "#2-models"))
    code, _, state = outcome(cli)
    code, _, state = outcome(cli)
    assert state.startswith("hit")
    argv = ["check", "--rules-repo", "rules2", "--registry-repo", "registry", "--format", "json"]
    code, out, err = cli(*argv, "-v")
    assert "cache: miss" in err
    assert (code, json.loads(out)) == (lambda r: (r[0], json.loads(r[1])))(cli(*argv, "--no-cache"))


@pytest.mark.parametrize("text", [
    "fail_on: info\n",
    "ignore: [DL201]\n",
    "severity: {DL201: warning}\n",
    "rules:\n  documents: [endpoints_rules.md]\n",
    "registry:\n  extra_lists: [{name: cfg, path: bad.yaml, format: drafters}]\n",
    "rule_options:\n  DL505:\n    nested_configs: []\n",
], ids=["fail_on", "ignore", "severity", "documents", "extra_lists", "rule_options"])
def test_each_config_key_is_part_of_the_key(cli, work, text):
    assert_miss_then_right(cli, [], [], lambda: (work / ".drafterlint.yaml").write_text(text))


@pytest.mark.parametrize("change", [
    lambda w: (w / "rules" / "endpoints_rules.md").write_text(RULES + "\n[x](#also-gone)\n"),
    lambda w: (w / "rules" / "new.md").write_text("[y](#nowhere-else)\n"),
    lambda w: (w / "rules" / "endpoints_submission_rules.md").unlink(),
    lambda w: (w / "registry" / CAT).write_text(CATALOG.replace("2026-09-C1", "2026-10-C1")),
    lambda w: (w / "bad.yaml").write_text(BAD_LIST.replace("other/head", "orga/m1-eagle").replace(REV_B, REV_A)),
], ids=["edited-document", "new-document", "deleted-document", "edited-registry", "edited-extra-list"])
def test_each_file_is_part_of_the_key(cli, work, change):
    flags = ["--extra-list", "cli=bad.yaml"]
    assert_miss_then_right(cli, flags, flags, lambda: change(work))


def test_the_tool_version_is_part_of_the_key(cli, work, monkeypatch):
    def new_version():
        monkeypatch.setattr(drafterlint, "__version__", "999.0")
        monkeypatch.setattr(inputs, "_FINGERPRINT", None)

    assert_miss_then_right(cli, [], [], new_version)




@pytest.mark.parametrize("path", [p for p, _ in leaves(DEFAULTS)], ids=lambda p: ".".join(p))
def test_every_configuration_setting_changes_the_run_key(tmp_path, path):
    """The run key covers the whole effective configuration: there is no list of keys to keep
    in step with the configuration's schema."""
    def key(config):
        run = cache.RunCache(tmp_path)
        run.lookup({"config": config, "rules_dir": None, "registry_dir": None, "today": None})
        return run.key

    changed = Config().merged(nest(path, ["a changed value"]))
    assert key(changed) != key(Config())
    assert key(Config()) == key(Config())


def test_a_stored_configuration_is_never_reused_for_other_flags(cli, work):
    # the repro of the issue, in the order that used to hide the finding
    code, report, _ = outcome(cli, "--select", "DL302")
    assert (code, report["findings"]) == (0, [])
    code, report, state = outcome(cli, "--select", "DL302", "--extra-list", "cli=bad.yaml")
    assert state.startswith("miss") and code == 1
    assert {f["repo"] for f in report["findings"]} == {"cli", "registry"}
    code, report, state = outcome(cli, "--select", "DL302")
    assert state.startswith("hit") and (code, report["findings"]) == (0, [])
    assert Path(work / "bad.yaml").exists()


def test_an_entry_edited_by_hand_is_ignored(cli, work):
    import os

    code, report, _ = outcome(cli)
    assert report["findings"]
    root = Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache"
    [entry] = root.glob("run-*.json")
    head, _, body = entry.read_text().partition("\n")
    # same digest line, findings emptied: a plausible, well-formed forgery
    forged = json.loads(body)
    forged["d"] = [[k, [] if k == "findings" else v] for k, v in forged["d"]]
    entry.write_text(head + "\n" + json.dumps(forged))
    code2, report2, state = outcome(cli)
    assert state.startswith("miss"), state
    assert (code2, report2) == (code, report)


def test_a_documents_bytes_are_hashed_once_a_run(cli, work, monkeypatch):
    """What the cache records of a Markdown file read, the name of its parse and the entry it
    is kept in are one digest of the bytes read (inputs.content_digest): each hashed them again,
    the rules document's five times on a run with it changed."""
    import hashlib

    real = hashlib.sha256
    fed: list[bytes] = []

    class Counted:
        def __init__(self, data: bytes = b"") -> None:
            fed.append(bytes(data))
            self.made = real(data)

        def update(self, data: bytes) -> None:
            fed.append(bytes(data))
            self.made.update(data)

        def digest(self) -> bytes:
            return self.made.digest()

        def hexdigest(self) -> str:
            return self.made.hexdigest()

    reads: list[str] = []
    read_bounded = inputs.read_bounded

    def counted_read(root: str, rel: str, limit: int) -> bytes:
        reads.append(rel)
        return read_bounded(root, rel, limit)

    (work / "rules" / "endpoints_rules.md").write_text(RULES + "".join(f"\n## {n}\n\nText.\n" for n in range(2000)))
    monkeypatch.setattr(hashlib, "sha256", Counted)
    monkeypatch.setattr(inputs, "read_bounded", counted_read)
    code, report, state = outcome(cli)
    monkeypatch.undo()
    assert state.startswith("miss"), state
    for name in ("endpoints_rules.md", "endpoints_submission_rules.md"):
        data = (work / "rules" / name).read_bytes()
        assert fed.count(data) == reads.count(name) > 0, name  # (read twice: a report is not checked)


@pytest.mark.parametrize("kind", ["file", "dangling-symlink", "read-only"])
def test_an_unusable_cache_directory_means_one_warning_and_an_uncached_run(cli, work, monkeypatch, kind):
    import os
    import stat

    place = work / "cache-here"
    if kind == "file":
        place.write_text("not a directory\n")
    elif kind == "dangling-symlink":
        place.symlink_to(work / "nowhere")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        place.mkdir(mode=0o700)
        place.chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(place))
    try:
        for _ in range(2):
            code, out, err = cli(*BASE)
            assert "Traceback" not in err
            warnings = [ln for ln in err.splitlines() if "warning" in ln and "cache" in ln]
            assert len(warnings) == 1, err
            assert (code, json.loads(out)) == uncached(cli)
    finally:
        if kind == "read-only":
            place.chmod(0o700)
    if kind == "read-only":
        assert not any(place.iterdir())
