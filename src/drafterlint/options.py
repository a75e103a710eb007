"""What the command line asked for, typed: built once in drafterlint.cli from the parsed flags,
so that nothing below the command line reads the parser's untyped result (a misspelled attribute
there is a silent None; here it is an error mypy sees)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CheckOptions:
    """`check`, `baseline` and `fix` (each fills the fields its parser has; the rest keep the
    defaults, which are what the command does without the flag)."""

    config: Path | None = None
    rules_repo: str | None = None
    registry_repo: str | None = None
    files: tuple[str, ...] = ()
    select: str | None = None
    ignore: str | None = None
    fail_on: str | None = None
    today: str | None = None
    extra_list: tuple[str, ...] = ()
    format: str = "text"
    output: Path | None = None
    report: tuple[str, ...] = ()
    exit_zero: bool = False
    base_ref: str | None = None
    hook: bool = False
    all: bool = False
    baseline: str | None = None
    scope: str | None = None
    verbose: int = 0
    quiet: bool = False
    show_info: bool = False
    statistics: bool = False
    no_cache: bool = False
    fix: bool = False
    diff: bool = False
    # fix --review: the pull request (OWNER/REPO#N) the fixes are suggested on, the commit its
    # comments are placed on, and the API that takes them.
    review: str | None = None
    review_commit: str | None = None
    github_api_url: str = "https://api.github.com"


@dataclass(frozen=True)
class AuditOptions(CheckOptions):
    rules_ref: str | None = None
    registry_ref: str | None = None
    json_out: Path | None = None
    previous: Path | None = None
    open_issue: str | None = None
    online: bool = False
    hub_api_url: str = "https://huggingface.co"
    http_timeout: float = 20.0
    cache_dir: Path | None = None


@dataclass(frozen=True)
class SyncOptions:
    which: str
    config: Path | None = None
    url: str | None = None
    ref: str | None = None
    cache_dir: Path | None = None

