"""A warm run (the whole-run cache hits) pays for what it prints, not for the rules: a pre-commit
hook runs on every commit. Each run is a fresh interpreter, as a hook's is."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from drafterlint.checks.base import all_rules
from tests.helpers import FIXTURES

# Runs the command, then writes which drafterlint.checks modules it imported.
_RUN = (
    "import json, sys\n"
    "from drafterlint.cli import main\n"
    "code = main(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(json.dumps(sorted(m for m in sys.modules if m.startswith('drafterlint.checks.'))))\n"
    "sys.exit(code)\n"
)


def _check(tmp_path, *extra: str) -> tuple[str, list[str]]:
    imported = tmp_path / "imported.json"
    argv = [sys.executable, "-c", _RUN, str(imported), "check", "-v",
            "--rules-repo", str(FIXTURES / "example" / "rules"),
            "--registry-repo", str(FIXTURES / "example" / "endpoints"), *extra]
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 1, proc.stderr  # the example's planted defects
    return proc.stderr, json.loads(imported.read_text())


def test_a_warm_run_imports_no_rule(tmp_path):
    _, cold = _check(tmp_path)
    assert "drafterlint.checks.toc_incomplete" in cold
    said, warm = _check(tmp_path)
    assert "cache: hit" in said
    assert warm == []


def test_a_warm_run_still_describes_every_rule_in_sarif(tmp_path):
    _check(tmp_path)
    said, _ = _check(tmp_path, "--report", f"sarif={tmp_path / 'out.sarif'}")
    assert "cache: hit" in said
    rules = json.loads((tmp_path / "out.sarif").read_text())["runs"][0]["tool"]["driver"]["rules"]
    assert sorted(r["id"] for r in rules) == sorted(m.RULE.code for m in all_rules())


# Runs the command, then writes whether it imported jsonschema.
_PROBE = (
    "import json, sys\n"
    "from drafterlint.cli import main\n"
    "code = main(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(json.dumps('jsonschema' in sys.modules))\n"
    "sys.exit(code)\n"
)
_CATALOG = "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"


def test_a_run_where_only_markdown_changed_validates_no_yaml_again(tmp_path):
    """DL701's findings for a YAML file are kept by its content (issue 39, item 3): a run where
    only a Markdown document changed judges the registry without importing jsonschema, and says
    what an uncached run says; a changed YAML file is validated again."""
    import shutil

    rules, registry = tmp_path / "rules", tmp_path / "endpoints"
    shutil.copytree(FIXTURES / "example" / "rules", rules)
    shutil.copytree(FIXTURES / "example" / "endpoints", registry)
    catalog = registry / _CATALOG
    catalog.write_text(catalog.read_text() + "misspelt_key: 1\n")
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    probe = tmp_path / "imported.json"

    def check(*extra: str) -> tuple[str, bool]:
        argv = [sys.executable, "-c", _PROBE, str(probe), "check", "--format", "json",
                "--rules-repo", str(rules), "--registry-repo", str(registry), *extra]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
        assert proc.returncode == 1, proc.stderr
        return proc.stdout, json.loads(probe.read_text())

    def dl701(out: str) -> list[str]:
        return [f["message"] for f in json.loads(out)["findings"] if f["code"] == "DL701"]

    first, imported = check()
    assert imported and len(dl701(first)) == 1 and "misspelt_key" in dl701(first)[0]
    doc = rules / "endpoints_rules.md"
    doc.write_text(doc.read_text() + "\nA new paragraph.\n")
    changed, imported = check()
    assert not imported
    assert changed == check("--no-cache")[0]
    catalog.write_text(catalog.read_text().replace("misspelt_key: 1\n", "other_key: 1\n"))
    again, imported = check()
    assert imported and "other_key" in dl701(again)[0]
    assert again == check("--no-cache")[0]
