"""The reference repository's YAML files kept parsed in the cache (issue 39, one document
changed): a run in which no YAML file changed parses none and does not import PyYAML; a file
whose bytes changed, or another version of the tool, is parsed again. Counted, never timed; the
findings are those of a run without the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import drafterlint
from drafterlint import inputs
from drafterlint.cache import DocumentCache
from drafterlint.cache_store import Store
from drafterlint.registry import load as registry_load
from drafterlint.registry.yamlload import as_entry, from_entry, load_yaml_text
from tests.helpers import EXAMPLE_CATALOG, example_git_repos, paths_passed
from tests.helpers.imported import FRONT_AND_TRACE

POLICY = EXAMPLE_CATALOG.rsplit("/", 1)[0]


def _append(path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_a_run_where_no_yaml_changed_parses_none_and_imports_no_pyyaml(tmp_path):
    rules, registry = example_git_repos(tmp_path)
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None), env.pop("GITHUB_ACTIONS", None), env.pop("DRAFTERLINT_FORMAT", None)
    argv = ["check", "--format", "json", "--rules-repo", str(rules), "--registry-repo", str(registry)]

    def run(*extra: str) -> tuple[int, dict, list[str]]:
        trace = tmp_path / "modules.json"
        proc = subprocess.run([sys.executable, "-c", FRONT_AND_TRACE, str(trace), *argv, *extra],
                              cwd=rules, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode in (0, 1), proc.stderr
        return proc.returncode, json.loads(proc.stdout), json.loads(trace.read_text())

    first = run()
    assert "yaml" in first[2] and "drafterlint.engine" in first[2]  # the first run parsed them
    _append(rules / "endpoints_rules.md", "\nA paragraph the edit adds.\n")
    code, report, modules = run()
    assert "drafterlint.engine" in modules  # not the whole run's stored result: the engine ran
    assert not [m for m in modules if m == "yaml" or m.startswith(("yaml.", "_yaml"))]
    assert (code, report) == run("--no-cache")[:2]


def test_a_yaml_file_is_parsed_again_only_when_its_bytes_or_the_tool_change(cli, tmp_path, monkeypatch):
    rules, registry = example_git_repos(tmp_path)
    parsed = paths_passed(monkeypatch, registry_load, "load_yaml_text")
    argv = ["check", "--format", "json", "--rules-repo", rules, "--registry-repo", registry]

    def run() -> Counter:
        parsed.clear()
        code, out, _ = cli(*argv, cwd=rules)
        files = Counter(p for p in parsed if p.startswith(POLICY))
        assert (code, json.loads(out)) == (lambda r: (r[0], json.loads(r[1])))(cli(*argv, "--no-cache"))
        return files

    files = run()
    assert len(files) == 5 and set(files.values()) == {1}, files
    # Inputs of the findings but not of a YAML file's parse: the Markdown, the configuration.
    _append(rules / "endpoints_rules.md", "\nA paragraph the edit adds.\n")
    assert run() == Counter()
    (rules / ".drafterlint.yaml").write_text("severity: {DL201: info}\n", encoding="utf-8")
    assert run() == Counter()
    _append(registry / EXAMPLE_CATALOG, "# a comment the edit adds\n")
    assert run() == Counter([EXAMPLE_CATALOG])
    catalog = registry / EXAMPLE_CATALOG
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("2026-09-C1", "2026-10-C1"), encoding="utf-8")
    assert run() == Counter([EXAMPLE_CATALOG])
    monkeypatch.setattr(drafterlint, "__version__", "999.0")
    monkeypatch.setattr(inputs, "_FINGERPRINT", None)
    assert run() == files


def test_a_file_with_aliases_is_not_kept(cli, tmp_path, monkeypatch):
    """An alias makes two places one object, which the cache would write out as copies."""
    rules, registry = example_git_repos(tmp_path)
    checks = registry / POLICY / "system_checks.yaml"
    checks.write_text("a: &x {b: 1}\nc: *x\n" + checks.read_text(encoding="utf-8"), encoding="utf-8")
    parsed = paths_passed(monkeypatch, registry_load, "load_yaml_text")
    argv = ["check", "--rules-repo", rules, "--registry-repo", registry]
    cli(*argv, cwd=rules)
    _append(rules / "endpoints_rules.md", "\nA paragraph the edit adds.\n")
    parsed.clear()
    cli(*argv, cwd=rules)
    assert [p for p in parsed if p.startswith(POLICY)] == [f"{POLICY}/system_checks.yaml"]


def test_a_kept_parse_is_the_parse():
    texts = [
        "a: 1\nb: [x, 2.5, true, null, -0.0, 1e400]\nc: {d: '2026-01-01', e: 2026-01-01}\n",
        "a: 1\na: 2\n1: x\nnull: y\n",  # a duplicate key; keys read as numbers or null
        "- [1, [2, [3]]]\n- {}\n- []\n- ''\n- \"\\u00e9 \\U0001F600\"\n",
        "",
        "text: |\n  two\n  lines\n",
    ]
    for text in texts:
        doc = load_yaml_text(text, "p/f.yaml", "registry")
        entry = as_entry(doc)
        assert entry is not None
        again = from_entry(entry)
        assert again == doc and repr(again) == repr(doc)
        assert [type(p) for p in again.positions.values()] == [type(p) for p in doc.positions.values()]
    assert as_entry(load_yaml_text("a: &x [1]\nb: *x\n", "f.yaml")) is None


def test_an_entry_of_another_shape_is_a_miss_never_an_error(cli, tmp_path, monkeypatch):
    """An entry that passes the store's digest but not the shape of a parse (written by someone
    else, or by another format) is parsed again; the findings are right."""
    rules, registry = example_git_repos(tmp_path)
    argv = ["check", "--format", "json", "--rules-repo", rules, "--registry-repo", registry]
    expected = cli(*argv, "--no-cache", cwd=rules)[:2]
    cli(*argv, cwd=rules)
    store = Store(Path(os.environ["DRAFTERLINT_CACHE"]) / "check-cache")
    pack = DocumentCache(store).yaml_of("registry")
    files = dict(pack._stored())
    assert len(files) == 5
    bad = [json.dumps(["x", "registry", 1, [], [], [], []]),  # another path
           json.dumps([EXAMPLE_CATALOG, "registry", {}, [["a", "1", 1]], [], [], []]),  # a line in text
           json.dumps([EXAMPLE_CATALOG, "registry", {}, [[["a"], 1, 1]], [], [], []]),  # a list in a path
           "[1, 2", 7]
    for i, key in enumerate(files):
        files[key] = bad[i]
    assert store.save(pack.name, {"format": inputs.FORMAT, "files": files})
    _append(rules / "endpoints_rules.md", "\nA paragraph the edit adds.\n")
    expected = cli(*argv, "--no-cache", cwd=rules)[:2]
    parsed = paths_passed(monkeypatch, registry_load, "load_yaml_text")
    assert cli(*argv, cwd=rules)[:2] == expected
    assert len([p for p in parsed if p.startswith(POLICY)]) == 5
