"""The steps the commands share, each written once: the configuration, the repositories, the
date, the codes chosen, the repository under change, the base of a change, the reports'
files and the exit code. `check`, `baseline`, `fix`, `audit` and `sync` are short functions
over these; none of them imports another command.

Heavy modules (the engine, the rules, the reports) are imported inside the steps that need
them: a warm `check` answered by the cache never loads them.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drafterlint.findings import Finding, InputError, Result, Severity, chosen
from drafterlint.options import Chosen, LocalRun
from drafterlint.records import dataclass
from drafterlint.scope import EVERYTHING, Scope

if TYPE_CHECKING:
    from drafterlint.baseline import Matched
    from drafterlint.checks._ran import Ran
    from drafterlint.config import Config
    from drafterlint.engine import Context

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_FETCH, EXIT_TRACKING = 0, 1, 2, 3, 4


class Stopped(Exception):
    """Ends the command with `status` (the CLI returns it); what went wrong was said already."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


# -- what the command line chose -------------------------------------------------------------


def wanted(select: Sequence[str], ignore: Sequence[str]) -> Callable[[str], bool]:
    """Whether a code is chosen by --select (none: every code) and not by --ignore (each the
    codes or prefixes drafterlint.options.codes parsed)."""
    taken, dropped = list(select), list(ignore)
    return lambda code: chosen(code, taken, dropped)


# -- the configuration -----------------------------------------------------------------------


def configuration(options: Chosen, validated: Any = None) -> "Config":
    """The configuration file with the command line's flags over it; what of the file is ignored
    is said once. `validated`: see drafterlint.config.load_config."""
    config = load_effective_config(options, validated)
    warn_ignored(config)
    return config


def load_effective_config(options: Chosen, validated: Any = None) -> "Config":
    from drafterlint.config import load_config

    config = load_config(options.config, start=Path.cwd(), validated=validated)
    overrides = command_line_overrides(options, config)
    return config.merged(overrides) if overrides else config


def command_line_overrides(options: Chosen, config: "Config") -> dict:
    """What the command line's flags set over the configuration file `config`."""
    overrides: dict = {}
    if options.select:
        overrides["select"] = list(options.select)
    if options.ignore:
        overrides["ignore"] = list(options.ignore)
    if options.fail_on is not None:
        overrides["fail_on"] = str(options.fail_on)
    if options.extra_list:
        overrides["registry"] = {"extra_lists": [*config.registry.get("extra_lists", []), *map(_extra_list, options.extra_list)]}
    return overrides


def _extra_list(spec: str) -> dict:
    name, sep, path = spec.partition("=")
    if not sep:
        name, path = Path(spec).stem, spec
    if not path:
        raise InputError(f"--extra-list takes [NAME=]FILE, not {spec!r}")
    # Relative to where the command runs, not to the configuration file.
    full = Path(path).expanduser().resolve()
    if not full.is_file():
        # A file named on the command line that is not there is the command's mistake, not a
        # finding about the lists (one that exists but cannot be read stays DL702).
        what = "is a directory, not a file" if full.is_dir() else "no such file"
        raise InputError(f"--extra-list {spec}: {what} ({full})")
    return {"name": name, "path": str(full), "format": "drafters"}


def warn_ignored(config: "Config") -> None:
    """Say once per run which settings of the configuration file, and which cache variables of
    the environment, are ignored, and why."""
    from drafterlint.config import ignored_in_file
    from drafterlint.safeio import say
    from drafterlint.sources import ignored_cache_variables

    for line in [*ignored_in_file(config), *ignored_cache_variables()]:
        say(f"drafterlint: warning: {line}")


# -- the repositories ------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Everything the engine is given for a check of the local repositories: the effective
    configuration, the two repositories' roots and the date."""

    config: "Config"
    rules_dir: Path | None
    registry_dir: Path | None
    today: datetime.date | None

    def inputs(self) -> dict[str, Any]:
        """The engine's arguments, in one place: the run cache is keyed on exactly this (and then
        on every file the run read), so an input added here cannot be left out of the key."""
        return {"config": self.config, "rules_dir": self.rules_dir, "registry_dir": self.registry_dir,
                "today": self.today}


def setup(options: LocalRun, validated: Any = None) -> Setup:
    """The configuration, the repositories found and the date, in the order their errors are told
    (`validated`: see drafterlint.config.load_config)."""
    config = configuration(options, validated)
    rules_dir, registry_dir = resolve_repos(config, options)
    return Setup(config, rules_dir, registry_dir, options.today)


def start(options: LocalRun) -> Path:
    """Where the command runs: the working directory, or the folder of the first file given."""
    files = options.files
    if files:  # pre-commit runs from the repository root, but be robust to being given paths
        first = Path(files[0])
        return (first if first.is_dir() else first.parent).resolve()
    return Path.cwd()


def resolve_repos(config: "Config", options: LocalRun) -> tuple[Path | None, Path | None]:
    from drafterlint.sources import locate

    here = start(options)
    rules_dir, _ = locate(config, "rules", options.rules_repo, here)
    registry_dir, _ = locate(config, "registry", options.registry_repo, here)
    if rules_dir is None and registry_dir is None:
        raise InputError(
            "found neither a rules repository nor a reference repository here; "
            "give --rules-repo DIR and/or --registry-repo DIR"
        )
    return rules_dir, registry_dir


def scope_of(run: Setup, options: LocalRun) -> Scope:
    """The repository under change (drafterlint.scope): only its findings fail the run."""
    from drafterlint.scope import resolve_scope

    return resolve_scope(options.scope, run.config, run.rules_dir, run.registry_dir, start(options))


def under_change(scope: Scope, views: dict[str, Any]) -> set[str]:
    """The repositories that get a base: the one under change, or every one checked."""
    return {scope.single} if scope.single else {name for name, view in views.items() if view is not None}


def context(run: Setup, cache: Any = None, *, whole: bool = False, ran: "Ran | None" = None) -> "Context":
    """The engine's context for `run` (`cache`, a drafterlint.cache.RunCache, records what it
    reads; `whole`: every document kept whole, for fix; `ran`: what each rule finds recorded
    there, for a change's base)."""
    from drafterlint.engine import build_context

    return build_context(**run.inputs(), cache=cache, whole=whole, ran=ran)


def run_checks(ctx: "Context", *, git_lines: bool = True) -> "Result":
    """The engine's run for check, baseline and fix alike: a rule that crashes (a bug in
    drafterlint, not in the checked files) is said in one line and ends the command with
    EXIT_USAGE, never as a traceback. (The audit goes on without it and reports it.)"""
    from drafterlint.engine import RuleCrashed, run
    from drafterlint.safeio import say

    try:
        return run(ctx, git_lines=git_lines)
    except RuleCrashed as exc:
        say(f"drafterlint: internal error in rule {exc} (please report this)")
        raise Stopped(EXIT_USAGE) from None


def repo_views(ctx: "Context") -> dict[str, Any]:
    """The context's repositories by name ("rules", "registry"; None where there is none)."""
    return {"rules": ctx.rules, "registry": ctx.registry_repo}


# -- the base of a change --------------------------------------------------------------------


def no_merge_base(ref: str, advice: str) -> InputError:
    """The error of a --base-ref whose merge base is not there; `advice` ends the parenthesis."""
    return InputError(f"--base-ref {ref}: no merge base with HEAD in the repository under change (not a git "
                      f"repository, no such ref, or a shallow clone{advice}")


def new_since(findings: list[Finding], base: Any, result: Result | None = None) -> "Matched":
    """`findings` matched against the base's (drafterlint.baseline.Matched): what the base
    already has is marked pre-existing; what `result` (the run of `findings`) could not look at
    is never counted fixed (drafterlint.unchecked)."""
    from drafterlint.baseline import known_of, match, unreadable_of
    from drafterlint.unchecked import blind_spots

    known = known_of(base.findings)
    blind = blind_spots(result, unreadable_of(known) | set(base.unreadable)) if result is not None else None
    return match(findings, known, blind)


# -- the outcome -----------------------------------------------------------------------------


def exit_code(result: Result, config: "Config", exit_zero: bool = False, scope: Scope | None = None) -> int:
    """1 when a finding in the repository under change reaches fail_on; findings elsewhere
    never fail a run (scope None: every finding counts)."""
    if exit_zero:
        return EXIT_OK
    fail_on: Severity = config.fail_on
    counted = (scope or EVERYTHING).counted(result.findings)[0]  # pre-existing findings fail nothing
    return EXIT_FINDINGS if any(f.severity >= fail_on for f in counted) else EXIT_OK
