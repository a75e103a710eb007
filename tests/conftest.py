"""Shared test helpers: materialise tiny repositories and run the real engine on them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "rules_fixtures"


def write_files(files: dict[str, str], base: Path) -> tuple[Path, Path]:
    """Write {"rules:<path>": text, "registry:<path>": text} under base/rules and base/registry.

    Text is written as UTF-8 with surrogateescape, so a test can plant raw invalid bytes
    (e.g. "\\udce9" becomes the byte 0xE9).
    """
    rules, registry = base / "rules", base / "registry"
    for key, text in files.items():
        repo, _, rel = key.partition(":")
        root = {"rules": rules, "registry": registry}[repo]
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8", "surrogateescape"))
    return rules, registry


def run_engine(files: dict[str, str], base: Path, config_overrides: dict | None = None, **ctx_kw):
    from drafterlint.config import Config
    from drafterlint.engine import build_context, run

    rules, registry = write_files(files, base)
    overrides = dict(config_overrides or {})
    if "documents" not in overrides.get("rules", {}):
        # An example's repository is just its files: check the default documents it has.
        present = [d for d in ("endpoints_rules.md", "endpoints_submission_rules.md") if f"rules:{d}" in files]
        overrides["rules"] = {**overrides.get("rules", {}), "documents": [*present, "**/*.md"]}
        if "rules:endpoints_submission_rules.md" not in files:
            overrides["rules"].setdefault("companion", None)
    config = Config().merged(overrides)
    ctx = build_context(
        config,
        rules if rules.exists() else None,
        registry if registry.exists() else None,
        **ctx_kw,
    )
    return run(ctx)


@pytest.fixture
def engine(tmp_path):
    def _run(files, config_overrides=None, **kw):
        return run_engine(files, tmp_path, config_overrides, **kw)

    return _run


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run the real CLI in-process; returns (exit code, stdout, stderr)."""
    from drafterlint.cli import main

    def _run(*argv, cwd: Path | None = None):
        if cwd is not None:
            monkeypatch.chdir(cwd)
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return _run
