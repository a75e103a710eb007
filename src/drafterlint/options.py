"""What the command line asked for, typed: built once in drafterlint.cli from the parsed flags,
so that nothing below the command line reads the parser's untyped result (a misspelled attribute
there is a silent None; here it is an error mypy sees), nor a flag's text: the codes of --select
and --ignore, the severity of --fail-on, the date of --today, the formats of --format and
--report and the repository of --scope arrive parsed and checked, by the functions at the end
of this module, which the command line calls (a bad value is one line and exit 2 there).

One class per command, each with the fields its parser has and no other; the steps the
commands share (drafterlint.steps) take the part they read (`Chosen`, `LocalRun`)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from enum import Enum
from pathlib import Path

from drafterlint.findings import InputError, Severity
from drafterlint.records import dataclass


class Format(str, Enum):
    """A report's format (drafterlint.report: the module `<value>_report` renders it)."""

    TEXT = "text"
    JSON = "json"
    GITHUB = "github"
    SARIF = "sarif"
    MARKDOWN = "markdown"
    RDJSON = "rdjson"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ReportFile:
    """--report FORMAT=FILE: another report, in `format`, written to `path`."""

    format: Format
    path: Path


@dataclass(frozen=True, eq=False, repr=False)
class Repositories:
    """Where the configuration and the two repositories are: every command that reads them."""

    config: Path | None = None
    rules_repo: str | None = None
    registry_repo: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Chosen(Repositories):
    """What the command line sets over the configuration file (steps.configuration): the codes
    chosen, the lowest severity that fails, the date, the other copies of the list."""

    select: tuple[str, ...] = ()  # codes or prefixes, upper case, each naming a rule
    ignore: tuple[str, ...] = ()
    fail_on: Severity | None = None
    today: datetime.date | None = None
    extra_list: tuple[str, ...] = ()  # [NAME=]FILE, resolved by steps (relative to where it runs)


@dataclass(frozen=True, eq=False, repr=False)
class LocalRun(Chosen):
    """A run on the local checkouts (check, baseline, fix): the files given (they locate the
    repository), the repository under change, the base of the change and the cache."""

    files: tuple[str, ...] = ()
    scope: str | None = None  # rules, registry, all or OWNER/REPO (checked)
    base_ref: str | None = None
    no_cache: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class Reporting:
    """Where the report goes and in what form (check, audit)."""

    format: Format = Format.TEXT
    output: Path | None = None
    report: tuple[ReportFile, ...] = ()
    exit_zero: bool = False


@dataclass(frozen=True)
class CheckOptions(LocalRun, Reporting):
    """`check`: the defaults are what the command does without the flag."""

    hook: bool = False
    all: bool = False
    baseline: str | None = None
    verbose: int = 0
    quiet: bool = False
    show_info: bool = False
    statistics: bool = False
    fix: bool = False


@dataclass(frozen=True)
class BaselineOptions(LocalRun):
    """`baseline`: `output` is the file written (default: the configured baseline file)."""

    output: Path | None = None


@dataclass(frozen=True)
class FixOptions(LocalRun):
    """`fix` (and what `check --fix` and the rdjson suggestions ask of it)."""

    diff: bool = False
    # fix --review: the pull request (OWNER/REPO#N) the fixes are suggested on, the commit its
    # comments are placed on, and the API that takes them.
    review: str | None = None
    review_commit: str | None = None
    github_api_url: str = "https://api.github.com"
    # The Action's job-summary section (report/fix_summary.py): the file it is written to, whether
    # it shows the patch, and the Action's own line about the suggested changes.
    summary: Path | None = None
    summary_patch: bool = False
    summary_note: str = ""
    # With --diff, the patch also written to this file (the Action's fix-patch), byte for byte.
    patch: Path | None = None


@dataclass(frozen=True)
class AuditOptions(Chosen, Reporting):
    """`audit`: the refs audited, the APIs it asks, and where its JSON, state and tracking issue are."""

    rules_ref: str | None = None
    registry_ref: str | None = None
    json_out: Path | None = None
    previous: Path | None = None
    open_issue: str | None = None
    github_api_url: str = "https://api.github.com"
    online: bool = False
    hub_api_url: str = "https://huggingface.co"
    http_timeout: float = 20.0
    cache_dir: Path | None = None


@dataclass(frozen=True)
class SyncOptions:
    """`sync`: which repository to fetch into the cache, from where."""

    which: str
    config: Path | None = None
    url: str | None = None
    ref: str | None = None
    cache_dir: Path | None = None


# -- the values of the flags, parsed (drafterlint.cli calls these) ----------------------------


def codes(value: str | None) -> tuple[str, ...]:
    """The codes or prefixes of a --select/--ignore value (`dl2, DL301` -> (DL2, DL301))."""
    return tuple(c.strip().upper() for c in (value or "").split(",") if c.strip())


def checked_codes(option: str, value: str | None) -> tuple[str, ...]:
    """codes(value), each naming a rule or a prefix of one (a typo would check nothing and pass,
    or silence nothing)."""
    from drafterlint.config import unknown_code

    found = codes(value)
    for code in found:
        problem = unknown_code(code)
        if problem:
            raise InputError(f"{option}: {problem}")
    return found


def parse_severity(value: str | None) -> Severity | None:
    return Severity.parse(value) if value else None


def parse_today(value: str | None) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise InputError(f"--today must be YYYY-MM-DD, not {value!r}") from None


def parse_format(value: str) -> Format:
    return Format(value)


def parse_report_files(specs: Sequence[str]) -> tuple[ReportFile, ...]:
    names = [f.value for f in Format]
    out = []
    for spec in specs:
        fmt, sep, file = spec.partition("=")
        if not sep or fmt not in names or not file:
            raise InputError(f"--report takes FORMAT=FILE with FORMAT one of {', '.join(names)}; got {spec!r}")
        out.append(ReportFile(Format(fmt), Path(file)))
    return tuple(out)


def parse_scope(value: str | None) -> str | None:
    from drafterlint.scope import validate_scope

    return validate_scope(value)
