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


def git_commit_all(root: Path, when: str, message: str = "change") -> str:
    """Commit everything under root (a git repository is made if needed) at date `when`.

    `when` is an ISO date or date-time (UTC when no offset is given); both the author and the
    committer date are set to it. Returns the new commit's sha.
    """
    import os
    import subprocess

    if "T" not in when:
        when = f"{when}T12:00:00+00:00"
    env = dict(os.environ)
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(var, None)
    env.update(
        GIT_AUTHOR_NAME="Test", GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="Test", GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when, GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
    )

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], check=True, env=env,
                              capture_output=True, text=True).stdout

    root.mkdir(parents=True, exist_ok=True)
    if not (root / ".git").exists():
        git("init", "--quiet", "--initial-branch=main")
    git("add", "--all")
    git("commit", "--quiet", "--allow-empty", "-m", message)
    return git("rev-parse", "HEAD").strip()


def _timed_files(files: dict[str, str]) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Split "<repo>@<date>:<path>" keys (a file's content as committed on that date) from the
    plain "<repo>:<path>" ones (the checked-out state)."""
    plain: dict[str, str] = {}
    timed: dict[str, dict[str, str]] = {}
    for key, text in files.items():
        repo, sep, rel = key.partition(":")
        if "@" in repo:
            name, _, when = repo.partition("@")
            timed.setdefault(when, {})[f"{name}:{rel}"] = text
        else:
            plain[key] = text
    return plain, timed


def _history_from(timed: dict[str, dict[str, str]], files: dict[str, str], base: Path):
    """Replay the dated versions as commits of a real registry repository, then the final state;
    return its history for the engine."""
    from drafterlint.config import Config
    from drafterlint.history import build_history

    registry = base / "registry"
    last = None
    for when in sorted(timed):
        write_files(timed[when], base)
        git_commit_all(registry, when, f"version of {when}")
        last = when
    write_files({k: v for k, v in files.items() if k.startswith("registry:")}, base)
    git_commit_all(registry, last or "2026-01-01", "checked-out state")
    return build_history(registry, Config().registry["policies"])


def _static_hub(text: str):
    """A "hub:answers" file: one "org/name@revision exists|missing" per line."""
    from drafterlint.hub import StaticHub

    answers = {}
    for line in text.splitlines():
        if line.strip():
            ident, state = line.split()
            answers[ident] = state
    return StaticHub(answers)


def run_engine(files: dict[str, str], base: Path, config_overrides: dict | None = None, **ctx_kw):
    from drafterlint.config import Config
    from drafterlint.engine import build_context, run

    # Additive conventions for audit rules' examples: "registry@<date>:<path>" keys are
    # versions committed on that date (the engine gets the real git history), and a
    # "hub:answers" key stands in for the model hub.
    files, timed = _timed_files(files)
    hub = files.pop("hub:answers", None)
    if hub is not None and "online" not in ctx_kw:
        ctx_kw["online"] = _static_hub(hub)
    if timed and "history" not in ctx_kw:
        ctx_kw["history"] = _history_from(timed, files, base)
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
