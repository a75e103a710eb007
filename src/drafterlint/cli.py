"""Command line: argument parsing and exit codes; the work happens elsewhere."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from drafterlint import __version__
from drafterlint import options as parse
from drafterlint.options import AuditOptions, BaselineOptions, CheckOptions, FixOptions, Format, SyncOptions
from drafterlint.steps import EXIT_FETCH, EXIT_USAGE, Stopped

_O = TypeVar("_O")

# A shell's status for a process that SIGPIPE ended: what `git log | head` leaves in PIPESTATUS.
EXIT_PIPE = 141
_FORMATS = tuple(f.value for f in Format)


class _Parser(argparse.ArgumentParser):
    """A parser made and given its arguments when it is first used (`fill`): a run parses one
    command, and making every command's parser cost each run seven parsers (each a help option,
    two argument groups and their titles looked up in gettext's catalogues) and 80 more
    `add_argument`s."""

    # While an argument is added: argparse makes a help formatter then only to check that a
    # metavar tuple suits nargs, which the width never changes, and a formatter of its own width
    # asks the terminal its size, importing shutil (and zlib, bz2, lzma): a plain check prints no
    # help, so it needs neither.
    _adding = False

    def __init__(self, *args: Any, fill: "Callable[[_Parser], None] | None" = None, **kwargs: Any) -> None:
        self._fill = fill
        self._made: "tuple[tuple[Any, ...], dict[str, Any]] | None" = (args, kwargs)
        if fill is None:
            self._make()

    def _make(self) -> None:
        made, self._made = self._made, None
        if made is not None:
            super().__init__(*made[0], **made[1])

    def filled(self) -> "_Parser":
        self._make()
        fill, self._fill = self._fill, None
        if fill is not None:
            fill(self)
        return self

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        self._adding = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._adding = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._adding:
            return argparse.HelpFormatter(self.prog, width=80)  # our formatter classes format args alike
        return super()._get_formatter()

    # What argparse calls on a command's parser when the command is given, and what shows it.
    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.filled()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.filled()
        return super().format_usage()

    def format_help(self) -> str:
        self.filled()
        return super().format_help()

    def error(self, message: str) -> NoReturn:  # argparse exits 2 already; keep its one-line style
        from drafterlint.safeio import safe_line

        message += _did_you_mean_choice(message)
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, safe_line(f"{self.prog}: error: {message}") + "\n")

    def reject_unknown(self, extras: list[str]) -> NoReturn:
        """Unrecognized arguments, told by the command they were given to (its usage, its
        options), each option with the nearest one the command has."""
        import difflib

        options = sorted(o for a in self._actions for o in a.option_strings if o.startswith("--"))
        said = []
        for arg in extras:
            flag = arg.split("=", 1)[0]
            close = difflib.get_close_matches(flag, options, n=1, cutoff=0.6) if flag.startswith("-") else []
            said.append(f"{arg} (did you mean {close[0]}?)" if close else arg)
        self.error(f"unrecognized argument{'s' if len(extras) > 1 else ''}: {', '.join(said)}")


def _did_you_mean_choice(message: str) -> str:
    """argparse's "invalid choice: 'chek' (choose from 'check', …)" with the nearest choice."""
    import difflib
    import re

    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if not m:
        return ""
    close = difflib.get_close_matches(m.group(1), re.findall(r"'([^']*)'", m.group(2)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _add_repositories(p: argparse.ArgumentParser) -> None:
    """Where the configuration and the two repositories are: every command that reads them."""
    p.add_argument("--config", type=Path, help="configuration file (default: nearest .drafterlint.yaml)")
    p.add_argument("--rules-repo", metavar="DIR", help="checkout of the rules repository")
    p.add_argument("--registry-repo", metavar="DIR", help="checkout of the reference repository")


def _add_common(p: argparse.ArgumentParser) -> None:
    _add_repositories(p)
    p.add_argument("--format", choices=_FORMATS, default=None,
                   help="report format (default: $DRAFTERLINT_FORMAT if set, else github under GitHub Actions, "
                        "else text); audit always writes Markdown and ignores it: use --report FORMAT=FILE there")
    p.add_argument("--output", type=Path, metavar="FILE", help="write the report here instead of stdout")
    p.add_argument(
        "--report",
        action="append",
        default=[],
        metavar="FORMAT=FILE",
        help="also write a report in FORMAT to FILE (repeatable)",
    )
    p.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to run (DL2,DL301)")
    p.add_argument("--ignore", metavar="CODES", help="comma-separated codes or prefixes to skip")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails (default error)")
    p.add_argument("--today", metavar="YYYY-MM-DD", help="the date to judge dates by")
    p.add_argument(
        "--extra-list",
        action="append",
        default=[],
        metavar="[NAME=]FILE",
        help="another copy of the approved list (`drafters:` shape) to hold against the registry (repeatable)",
    )
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings reach --fail-on (reports are unchanged)")


_DESCRIPTION = """\
Keeps a benchmark's speculative-decoding rules (the rules repository's Markdown) and its
approved-drafter lists (the reference repository's per-cohort policies) consistent: broken
links and section references, copies of the list that drift, lead times, cohort ids, native
heads and the numbers the rules state."""

_EPILOG = """\
examples:
  drafterlint check --rules-repo ../endpoints_policies --registry-repo ../endpoints
  drafterlint explain DL201
  drafterlint audit --rules-repo URL --registry-repo URL --today 2026-11-04

exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or configuration error,
3 a repository could not be fetched; audit: 4 its tracking issue could not be updated.
Run `drafterlint COMMAND --help` for a command's options."""


_AUDIT_EPILOG = """\
exit codes (2, 3 and 4 are not hidden by --exit-zero, which is about findings):
  0  no finding at or above --fail-on (or --exit-zero)
  1  findings at or above --fail-on
  2  usage or configuration error, or a rule failed (the report names it)
  3  a repository could not be brought (a short report says which)
  4  the tracking issue of --open-issue could not be updated (the log says what to fix)
What could not be checked (the model hub, an answer that is not what was expected) is listed
in the report and is not a failure. See docs/leads.md."""


def _check_arguments(check: _Parser) -> None:
    _add_common(check)
    check.add_argument(
        "--base-ref", metavar="REF",
        help="git ref the change is based on: findings its merge base with HEAD already has are "
             "reported as pre-existing and fail nothing",
    )
    check.add_argument("--hook", action="store_true",
                       help="judge the change a pre-commit hook sees: what is being committed against HEAD "
                            "(in pre-push, PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF; before the first commit, "
                            "everything); with --fix, mend only what the change broke")
    check.add_argument("--all", action="store_true",
                       help="every finding counts: neither --base-ref, --hook nor the baseline file excuses one")
    check.add_argument("--baseline", metavar="FILE",
                       help="findings to treat as pre-existing (default: the configured baseline file, "
                            ".drafterlint-baseline.json, when it exists)")
    check.add_argument(
        "--scope",
        metavar="rules|registry|all|OWNER/REPO",
        help="the repository under change: only its findings fail the run, are annotated and go to SARIF "
        "(default: the one the command runs in)",
    )
    check.add_argument("-q", "--quiet", action="store_true", help="text: print only the summary line and why the run fails")
    check.add_argument("-v", "--verbose", action="count", default=0, help="text: print every finding, every skipped check and the other repository's findings")
    check.add_argument("--show-info", action="store_true", help="text: print info findings too (hidden by default)")
    check.add_argument("--statistics", action="store_true", help="text: print the count of findings per rule, most frequent first")
    check.add_argument("--no-cache", action="store_true", help="neither use nor fill the content-hash cache (also DRAFTERLINT_NO_CACHE=1)")
    check.add_argument("files", nargs="*", help="ignored except to locate the repository (pre-commit passes them); the whole repository is checked")

    check.add_argument("--fix", action="store_true", help="first make the fixes `drafterlint fix` makes, then check")


def _fix_arguments(fix: _Parser) -> None:
    _add_repositories(fix)
    fix.add_argument("--diff", action="store_true", help="print a unified diff of the fixes and write nothing")
    fix.add_argument("--base-ref", metavar="REF", help="git ref the change is based on: a link to a heading this change "
                     "renamed is repointed by looking its anchor up in the merge base's version of the document")
    fix.add_argument("--select", metavar="CODES", help="fix only these codes or prefixes (DL104,DL2)")
    fix.add_argument("--ignore", metavar="CODES", help="do not fix these codes or prefixes")
    fix.add_argument("--review", metavar="OWNER/REPO#N",
                     help="also post the fixes on lines pull request N changed as suggested changes, in one review "
                          "(needs --base-ref; token from GITHUB_TOKEN, which needs pull-requests: write); a re-run "
                          "replaces that review, and never touches anyone else's")
    fix.add_argument("--review-commit", metavar="SHA",
                     help="the pull request's head commit, which the review is placed on (default HEAD)")
    fix.add_argument("--github-api-url", default="https://api.github.com", metavar="URL",
                     help="the GitHub REST API of --review (default: https://api.github.com)")
    # The Action's job summary (action/entry.py): fix writes its section itself, through the one
    # Markdown writer, and the Action appends the file.
    fix.add_argument("--summary", type=Path, metavar="FILE", help=argparse.SUPPRESS)
    fix.add_argument("--summary-patch", action="store_true", help=argparse.SUPPRESS)
    fix.add_argument("--summary-note", default="", metavar="TEXT", help=argparse.SUPPRESS)
    # The Action's fix-patch file: written by fix byte for byte (a document's CRLF kept), which
    # a reader of fix's stdout in text mode would not.
    fix.add_argument("--patch", type=Path, metavar="FILE", help=argparse.SUPPRESS)
    fix.add_argument("--today", metavar="YYYY-MM-DD", help=argparse.SUPPRESS)
    fix.add_argument("--extra-list", action="append", default=[], metavar="[NAME=]FILE", help=argparse.SUPPRESS)
    fix.add_argument("files", nargs="*", help="ignored except to locate the repository")


def _baseline_arguments(baseline: _Parser) -> None:
    _add_repositories(baseline)
    baseline.add_argument("--output", type=Path, metavar="FILE",
                          help="where to write (default: the configured `baseline`, .drafterlint-baseline.json)")
    baseline.add_argument("--select", metavar="CODES", help="record only these codes or prefixes")
    baseline.add_argument("--ignore", metavar="CODES", help="do not record these codes or prefixes")
    baseline.add_argument("--scope", metavar="rules|registry|all|OWNER/REPO", help="the repository under change (where the file goes)")
    baseline.add_argument("--today", metavar="YYYY-MM-DD", help=argparse.SUPPRESS)
    baseline.add_argument("--extra-list", action="append", default=[], metavar="[NAME=]FILE", help=argparse.SUPPRESS)
    baseline.add_argument("--no-cache", action="store_true", help="neither use nor fill the content-hash cache")
    baseline.add_argument("files", nargs="*", help="ignored except to locate the repository")


def _no_arguments(rules: _Parser) -> None:
    """`rules` takes no argument but --help, which its parser has once made."""


def _explain_arguments(explain: _Parser) -> None:
    explain.add_argument("code", help="a rule code (DL201) or name (broken-fragment)")


def _sync_arguments(sync: _Parser) -> None:
    sync.add_argument("--config", type=Path)
    sync.add_argument("which", choices=("rules", "registry"), help="which repository to fetch")
    sync.add_argument("--url", help="https URL of the repository (default: from configuration)")
    sync.add_argument("--ref", help="branch, tag or commit (default: the configured default branch)")
    sync.add_argument("--cache-dir", type=Path, help="cache location (default: per-user cache)")


def _audit_arguments(audit: _Parser) -> None:
    _add_common(audit)
    audit.add_argument("--rules-ref", metavar="REF",
                       help="branch, tag or commit of the rules repository to audit (default: its configured "
                            "default branch for a URL, the checked-out commit for a local checkout)")
    audit.add_argument("--registry-ref", metavar="REF", help="the same for the reference repository")
    audit.add_argument("--json", type=Path, metavar="FILE", dest="json_out",
                       help="also write the report as JSON (the check JSON, plus an `audit` key); keep it "
                            "for the next audit's --previous")
    audit.add_argument("--previous", type=Path, metavar="FILE",
                       help="last audit's JSON, to say what changed (default with --open-issue: the state "
                            "the last audit left in the tracking issue)")
    audit.add_argument("--open-issue", metavar="OWNER/REPO",
                       help="create, update or close the one tracking issue in OWNER/REPO (token from "
                            "GITHUB_TOKEN, which needs issues: write); a failed update is exit 4")
    audit.add_argument("--github-api-url", default="https://api.github.com", metavar="URL",
                       help="the GitHub REST API of --open-issue (default: https://api.github.com; "
                            "GitHub Enterprise: https://HOST/api/v3)")
    audit.add_argument("--online", action="store_true",
                       help="also ask the model hub: revisions exist (DL803), native heads are in their "
                            "checkpoints (DL505, DL506); HF_TOKEN for gated ones")
    audit.add_argument("--hub-api-url", default="https://huggingface.co", metavar="URL",
                       help="the model hub --online asks (default: https://huggingface.co)")
    audit.add_argument("--http-timeout", type=float, default=20.0, metavar="SECONDS",
                       help="how long the GitHub API or the model hub may take to answer (default: 20)")
    audit.add_argument("--cache-dir", type=Path, metavar="DIR",
                       help="where the audit clones the repositories and keeps the model hub's answers for a "
                            "day (default: the per-user cache)")


def build_parser(*, lazy: bool = False) -> "_Parser":
    """The command line's parser; `lazy`, each command's arguments added when that command is
    parsed or its help shown (a run uses one command: cli.main), else every command's now."""
    parser = _Parser(
        prog="drafterlint",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"drafterlint {__version__}")
    # The commands' prog ("drafterlint check"): argparse's default formats the usage to find it,
    # with a help formatter (see _Parser._adding); it is the program's name, no positional
    # argument coming before the command.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, prog=parser.prog)
    parser.set_defaults(_commands=sub.choices)
    sub.add_parser(
        "check",
        fill=_check_arguments,
        help="check the repositories (offline)",
        description="Check the rules repository and the reference repository against each other, offline. "
        "The whole repository is checked; files given (as pre-commit passes them) only locate it.",
    )
    sub.add_parser(
        "fix",
        fill=_fix_arguments,
        help="rewrite what can be rewritten safely (stale anchors, table of contents)",
        description="Rewrite links to renamed or renumbered headings (DL201, DL203, DL204) and add missing "
        "table-of-contents entries (DL104) where the right text is beyond doubt; every fix is proved "
        "by checking the edited files before anything is written. Lists what needs a human, and why.",
    )
    sub.add_parser(
        "baseline",
        fill=_baseline_arguments,
        help="record today's findings: `check` then fails only on new ones",
        description="Write the fingerprints of today's findings (one JSON object a line, sorted, with code, "
        "path and message) to the baseline file; `check` reports those as pre-existing, fails only on "
        "new ones, and says when baselined findings are fixed so the file can shrink.",
    )
    sub.add_parser(
        "rules",
        fill=_no_arguments,
        help="list every rule",
        description="List every rule: code, name, default severity and what it checks.",
    )
    sub.add_parser(
        "explain",
        fill=_explain_arguments,
        help="show a rule's documentation and examples",
        description="Show a rule's documentation, its options, and a passing and a failing example.",
    )
    sub.add_parser(
        "sync",
        fill=_sync_arguments,
        help="fetch the other repository into the local cache",
        description="Fetch the other repository (rules or registry) into the per-user cache, for offline checks.",
    )
    sub.add_parser(
        "audit",
        fill=_audit_arguments,
        help="the scheduled audit: both repositories via git, history and date checks",
        description="The scheduled audit: brings both repositories at their refs via git and runs every\n"
        "check, including git history, dates (--today) and, with --online, the model hub; writes a\n"
        "Markdown report and JSON (always, before the tracking issue is touched), and can keep one\n"
        "tracking issue up to date.",
        epilog=_AUDIT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if not lazy:
        for command in sub.choices.values():
            command.filled()
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status."""
    try:
        status = _main(argv)
        # Flushed here, where a closed pipe can still be handled: at interpreter exit it would
        # print "Exception ignored ... BrokenPipeError" and exit 120.
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader stopped reading (`drafterlint rules | head`): stop quietly, as git does, and
        # send what is still buffered nowhere so that the flush at exit does not fail again.
        stdout_to_devnull()
        return EXIT_PIPE


def stdout_to_devnull() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file descriptor (e.g. captured by a test)
        pass
    finally:
        os.close(devnull)


def _options(cls: type[_O], args: argparse.Namespace) -> _O:
    """The command's typed options (drafterlint.options) from the flags its parser has, each value
    parsed (`_PARSED`; a bad one is an InputError: one line, exit 2) and lists made tuples, so the
    object is frozen through and has one canonical form. A flag the class lacks is an error here,
    not a value nothing reads."""
    import dataclasses

    given = {k: v for k, v in vars(args).items() if k not in ("command", "_commands")}
    unknown = sorted(set(given) - {f.name for f in dataclasses.fields(cls)})  # type: ignore[arg-type]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field for {', '.join(unknown)}")
    parsed = {k: _PARSED[k](v) if k in _PARSED else v for k, v in given.items()}
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in parsed.items()})


# What a flag's text becomes, by its field's name: the same wherever the flag appears. Values
# are parsed in the order the command's parser defines its flags, the first bad one told.
_PARSED: dict[str, Callable[[Any], object]] = {
    "select": lambda value: parse.checked_codes("--select", value),
    "ignore": lambda value: parse.checked_codes("--ignore", value),
    "fail_on": parse.parse_severity,
    "today": parse.parse_today,
    "format": lambda value: default_format() if value is None else parse.parse_format(value),
    "report": parse.parse_report_files,
    "scope": parse.parse_scope,
}


def default_format() -> Format:
    """The format where no --format is given: DRAFTERLINT_FORMAT wherever it is set, else `github`
    under GitHub Actions (annotations where the log is read, as yamllint's `auto`), else text."""
    import os

    from drafterlint.findings import InputError

    chosen = os.environ.get("DRAFTERLINT_FORMAT", "").strip().lower()
    if chosen:
        if chosen not in _FORMATS:
            raise InputError(f"DRAFTERLINT_FORMAT: use one of {', '.join(_FORMATS)}, "
                             f"or unset it (it is {chosen[:40]!r})")
        return Format(chosen)
    return Format.GITHUB if os.environ.get("GITHUB_ACTIONS", "").strip().lower() == "true" else Format.TEXT


def docs_main(argv: list[str] | None = None) -> int:
    """`python -m drafterlint.docs [--check] [--root DIR]`: the reference pages' generator, a
    developer's command (not a subcommand of the tool, whose users never regenerate docs/)."""
    from drafterlint import docs

    parser = argparse.ArgumentParser(prog="python -m drafterlint.docs",
                                     description=(docs.__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is stale")
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the project checkout whose docs/ to generate (default: here)")
    args = parser.parse_args(argv)
    return docs.generate(args.root, check=args.check)


def _tokens(command: str) -> list[str | None]:
    if command != "audit":
        return []
    import os

    from drafterlint.audit import TOKENS

    return [os.environ.get(name) for name in TOKENS]


def _main(argv: list[str] | None) -> int:
    parser = build_parser(lazy=True)
    # Unknown arguments are told by the command that got them (argparse would print the
    # top-level usage, which names none of the command's options).
    args, extras = parser.parse_known_args(argv)
    if extras:
        told: _Parser = getattr(args, "_commands", {}).get(args.command) or parser
        told.reject_unknown(extras)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    from drafterlint.findings import FetchError, InputError
    from drafterlint.safeio import masking, say

    if argv is None:
        # A run is short and what it builds (tokens, headings, links) holds no reference cycles
        # to speak of: the cyclic collector would only rescan the growing heap, which made large
        # documents superlinear. Reference counting still frees everything; inputs are bounded.
        import gc

        gc.disable()
    # The audit's tokens never appear in a line it prints or a file it writes, in any form; its
    # one-line errors below included.
    with masking(_tokens(args.command)):
        try:
            return _dispatch(args, parser)
        # One line each, through the one escape: the message may quote a file name or value holding
        # a line break or `::`, and the Actions runner reads workflow commands on stderr too.
        except InputError as exc:
            say(f"drafterlint: {exc}")
            return EXIT_USAGE
        except FetchError as exc:
            say(f"drafterlint: could not fetch: {exc}")
            return EXIT_FETCH
        except Stopped as exc:  # said already
            return exc.status
        except KeyboardInterrupt:
            return 130


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.command == "rules":
        from drafterlint.commands import list_rules

        return list_rules(sys.stdout)
    if args.command == "explain":
        from drafterlint.commands import explain

        return explain(args.code, sys.stdout)
    if args.command == "check":
        from drafterlint.commands import check

        return check(_options(CheckOptions, args))
    if args.command == "baseline":
        from drafterlint.commands import baseline_command

        return baseline_command(_options(BaselineOptions, args))
    if args.command == "fix":
        from drafterlint.fix.command import fix_command

        return fix_command(_options(FixOptions, args))
    if args.command == "sync":
        from drafterlint.sync import sync_command

        return sync_command(_options(SyncOptions, args))
    if args.command == "audit":
        from drafterlint.audit import audit_command

        return audit_command(_options(AuditOptions, args))
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE
