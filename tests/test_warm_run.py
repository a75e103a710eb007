"""A warm run (the whole-run cache hits) pays for what it prints, not for the rules: a pre-commit
hook runs on every commit. Each run is a fresh interpreter, as a hook's is."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from drafterlint.checks import all_rules
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
