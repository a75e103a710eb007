"""The offline `check` as a user runs it, on the example repositories, on any OS.

Runs `drafterlint check` twice on rules_fixtures/example with a fresh cache: both runs must
report exactly the defects planted there (rules_fixtures/example/README.md), with
repository-relative paths written with `/`, and the first run must have filled the cache (a
check that refuses the cache directory, as a POSIX-only permission test would on Windows,
fails here).
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rules_fixtures" / "example"
EXPECTED = {
    ("rules", "endpoints_rules.md", "DL201"),
    ("rules", "endpoints_rules.md", "DL202"),
    ("rules", "endpoints_rules.md", "DL203"),
    ("rules", "endpoints_rules.md", "DL204"),
    ("rules", "endpoints_rules.md", "DL205"),
    ("rules", "endpoints_rules.md", "DL206"),
    ("registry", "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml", "DL401"),
    ("registry", "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml", "DL501"),
    ("registry", "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml", "DL302"),
}


def run(cache: Path) -> set[tuple[str, str, str]]:
    env = {**os.environ, "DRAFTERLINT_CACHE": str(cache)}
    env.pop("DRAFTERLINT_NO_CACHE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "drafterlint", "check", "--format", "json",
         "--rules-repo", str(EXAMPLE / "rules"), "--registry-repo", str(EXAMPLE / "endpoints")],
        capture_output=True, text=True, encoding="utf-8", env=env, cwd=ROOT,
    )
    if proc.returncode != 1:
        sys.exit(f"expected exit 1 (findings), got {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return {(f["repo"], f["path"], f["code"]) for f in json.loads(proc.stdout)["findings"]}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        for attempt in ("cold", "warm"):
            got = run(cache)
            if got != EXPECTED:
                sys.exit(f"{attempt} run: unexpected findings\n  missing: {sorted(EXPECTED - got)}\n"
                         f"  extra: {sorted(got - EXPECTED)}")
            if attempt == "cold" and not any(p.is_file() for p in cache.rglob("*")):
                sys.exit(f"the cold run left nothing in the cache {cache}: the cache refused its directory")
    print(f"offline check: {len(EXPECTED)} planted defects found, cold and warm")


main()
