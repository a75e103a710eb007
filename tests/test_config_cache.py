"""The configuration's validation is cached by the file's bytes (issue 38, item 6; issue 39,
item 1): a warm run reads the mapping a file validated to instead of parsing and validating it
again, so it imports neither the YAML loader nor jsonschema. The two ways to a configuration
(validated now, or read from the cache) must give the same configuration, and so the same run
key, for every setting; what depends on more than the bytes (where the paths lead) is checked on
every run."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from drafterlint import cache, config
from drafterlint.cache_store import Store
from drafterlint.config import DEFAULTS, load_config
from drafterlint.findings import InputError, Severity
from drafterlint.options import CheckOptions
from drafterlint.steps import setup
from tests.helpers import FIXTURES, leaves, nest

# One file per setting (its default value, and a changed one), and files mixing them: every
# input of the run key that a configuration file can hold.
_FILES = [
    *[yaml.safe_dump(nest(p, v)) for p, v in leaves(DEFAULTS)],
    *[yaml.safe_dump(nest(p, ["a changed value"])) for p, _ in leaves(DEFAULTS)],
    "fail_on: info\nignore: [DL201, dl3]\nseverity: {DL104: error}\nbaseline: null\n",
    "rules:\n  documents: [a.md, 'docs/**/*.md']\n  sections:\n    supported-models: {number: '3.3', title: Models}\n",
    "registry:\n  path: ../endpoints\n  extra_lists: [{name: cfg, path: lists/x.yaml, format: drafters}]\n",
    "rule_options:\n  DL505:\n    nested_configs: []\n",
    "# only a comment\n",
    "",
    "\ufeffselect: [DL2]\n",  # a byte-order mark
    "select: [DL2]\nselect: [DL3]\n",  # a duplicated key (refused)
    "fail_on: [not, a, level]\n",  # refused by the schema
    "select: [DL1O4]\n",  # refused as an unknown code
    "- a list\n",  # refused: not a mapping
    "when: 2026-01-01\n",  # a YAML date: not kept by the cache (JSON has none)
]


def _derive(path: Path, validated) -> object:
    """The configuration from `path` (or the one-line error it gives)."""
    try:
        return load_config(path, validated=validated)
    except InputError as exc:
        return f"InputError: {exc}"


def _run_key(tmp_path: Path, cfg) -> str | None:
    run = cache.RunCache(tmp_path / "keys")
    run.lookup({"config": cfg, "rules_dir": None, "registry_dir": None, "today": None})
    return run.key


@pytest.mark.parametrize("text", _FILES, ids=range(len(_FILES)))
def test_both_ways_to_a_configuration_agree(tmp_path, monkeypatch, text):
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "x.yaml").write_text("drafters: []\n")
    path = tmp_path / ".drafterlint.yaml"
    path.write_text(text, encoding="utf-8")
    fresh = _derive(path, None)
    validated = cache.ConfigCache(Store(tmp_path / "cache"))
    first = _derive(path, validated)  # validates, and keeps what the bytes validated to
    assert first == fresh
    kept = validated.get(path.read_bytes())
    if isinstance(fresh, str) or "when:" in text:
        assert kept is None  # an error, or a value JSON cannot hold: validated on every run
        return
    assert kept is not None

    def not_again(*args):
        raise AssertionError("validated again although the cache holds this file")

    monkeypatch.setattr(config, "_validated_data", not_again)
    again = _derive(path, validated)
    assert again == fresh
    assert _run_key(tmp_path, again) == _run_key(tmp_path, fresh)


@pytest.mark.parametrize("flags", [
    {},
    {"select": ("DL2", "DL301")},
    {"ignore": ("DL201",)},
    {"fail_on": Severity.WARNING},
    {"extra_list": ("cli=bad.yaml",)},
    {"today": datetime.date(2026, 12, 1)},
    {"rules_repo": "rules", "registry_repo": "registry"},
], ids=["none", "select", "ignore", "fail-on", "extra-list", "today", "repositories"])
def test_the_command_lines_flags_key_a_cached_configuration_as_a_validated_one(tmp_path, monkeypatch, flags):
    # What --rules-repo and --registry-repo must find to be taken for those repositories.
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "endpoints_rules.md").write_text("# Rules\n")
    (tmp_path / "registry" / "src/inference_endpoint/validation/policies").mkdir(parents=True)
    (tmp_path / "bad.yaml").write_text("drafters: []\n")
    (tmp_path / ".drafterlint.yaml").write_text("ignore: [DL104]\nregistry:\n  path: registry\nrules:\n  path: rules\n")
    monkeypatch.chdir(tmp_path)
    options = CheckOptions(**flags)
    validated = cache.ConfigCache(Store(tmp_path / "cache"))
    fresh = setup(options)
    setup(options, validated)
    assert validated.get((tmp_path / ".drafterlint.yaml").read_bytes()) is not None
    hit = setup(options, validated)
    run_fresh, run_hit = cache.RunCache(tmp_path / "k"), cache.RunCache(tmp_path / "k")
    run_fresh.lookup(fresh.inputs())
    run_hit.lookup(hit.inputs())
    assert hit == fresh and run_hit.key == run_fresh.key


def test_a_path_that_leads_outside_is_refused_on_every_run(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "lists").mkdir()
    (repo / "lists" / "x.yaml").write_text("drafters: []\n")
    path = repo / ".drafterlint.yaml"
    path.write_text("registry:\n  extra_lists:\n    - {name: x, path: lists/x.yaml, format: drafters}\n")
    validated = cache.ConfigCache(Store(tmp_path / "cache"))
    load_config(path, validated=validated)
    # the same bytes, but the folder they name now leads out of the repository
    (repo / "lists" / "x.yaml").unlink()
    (repo / "lists").rmdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.yaml").write_text("drafters: []\n")
    (repo / "lists").symlink_to(tmp_path / "outside")
    with pytest.raises(InputError) as refused:
        load_config(path, validated=validated)
    assert "leads outside the repository" in str(refused.value)
    assert refused.value.line == 3  # the line of the path, as an uncached run says it


# Runs the command, then writes which of the named modules it imported.
_RUN = (
    "import json, sys\n"
    "from drafterlint.cli import main\n"
    "code = main(sys.argv[2:])\n"
    "names = ('jsonschema', 'yaml', 'mistune', 'git', 'requests', 'drafterlint.markdown', 'drafterlint.engine')\n"
    "open(sys.argv[1], 'w').write(json.dumps(sorted(m for m in names if m in sys.modules)))\n"
    "sys.exit(code)\n"
)


def test_a_warm_run_imports_no_validator_parser_git_or_http_client(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / ".drafterlint.yaml").write_text("fail_on: error\nignore: [DL206]\n")
    imported = tmp_path / "imported.json"
    argv = [sys.executable, "-c", _RUN, str(imported), "check", "-v",
            "--rules-repo", str(FIXTURES / "example" / "rules"),
            "--registry-repo", str(FIXTURES / "example" / "endpoints")]
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}

    def run() -> tuple[str, list[str]]:
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=work, timeout=120)
        assert proc.returncode == 1, proc.stderr  # the example's planted defects
        return proc.stdout, json.loads(imported.read_text())

    cold_out, cold = run()
    assert {"jsonschema", "yaml", "mistune"} <= set(cold)  # what the probe looks for is real
    warm_out, warm = run()
    assert warm == []
    assert warm_out == cold_out
