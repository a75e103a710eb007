"""One typed path from the command line down: argparse stays in drafterlint.cli, which turns the
parsed flags into the frozen options of drafterlint.options once; nothing below reads a
Namespace (`getattr(args, …)` hides a misspelled flag as None, `vars(args)` drags whatever
argparse put there, parsers included, into a cache key)."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime
import re
from pathlib import Path

import pytest

import drafterlint
from drafterlint.cli import _options, build_parser
from drafterlint.findings import InputError, Severity
from drafterlint.options import (
    AuditOptions,
    BaselineOptions,
    CheckOptions,
    FixOptions,
    Format,
    ReportFile,
    SyncOptions,
)

PACKAGE = Path(drafterlint.__file__).parent

# The one module that parses a command line: the tool's, and the docs generator's (`python -m
# drafterlint.docs [--check]`, whose docs/__main__.py hands its flags to cli.docs_main).
ARGPARSE_ALLOWED = {"cli.py"}
COMMANDS = {"check": CheckOptions, "baseline": BaselineOptions, "fix": FixOptions,
            "audit": AuditOptions, "sync": SyncOptions}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _imports_argparse(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "argparse":
            return True
    return False


def _namespace_reads(tree: ast.AST) -> list[int]:
    """Lines that read an object by attribute name or as a dict (getattr(x, "name"), vars(x)) on
    the names a command's arguments go by, or name argparse.Namespace."""
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "vars")
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in ("args", "options")):
            lines.append(node.lineno)
        if isinstance(node, ast.Attribute) and node.attr == "Namespace":
            lines.append(node.lineno)
    return lines


def test_only_the_command_line_imports_argparse():
    importing = {name for name, tree in _modules() if _imports_argparse(tree)}
    assert importing <= ARGPARSE_ALLOWED, importing - ARGPARSE_ALLOWED
    assert "cli.py" in importing  # the scan sees imports at all


def test_nothing_below_the_command_line_reads_a_namespace():
    found = {name: lines for name, tree in _modules() if name != "cli.py" and (lines := _namespace_reads(tree))}
    assert found == {}


def test_the_scan_finds_what_it_forbids():
    tree = ast.parse("def f(args):\n    return getattr(args, 'x', None), vars(args), argparse.Namespace()\n")
    assert _namespace_reads(tree) == [2, 2, 2]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_flag_of_a_command_has_a_field(command):
    """A flag added to a parser without a field would fail at run time; here it fails first."""
    cls = COMMANDS[command]
    dests = {a.dest for a in _subparsers()[command]._actions if a.dest != "help"}
    assert dests <= {f.name for f in dataclasses.fields(cls)}, dests - {f.name for f in dataclasses.fields(cls)}


def test_the_options_are_built_once_frozen_and_hashable():
    args = build_parser().parse_args(["check", "--report", "json=a.json", "--extra-list", "x.yaml", "-vv", "f.md"])
    options = _options(CheckOptions, args)
    assert options.report == (ReportFile(Format.JSON, Path("a.json")),) and options.extra_list == ("x.yaml",)
    assert options.verbose == 2 and options.files == ("f.md",) and options.format is Format.TEXT
    hash(options)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.base_ref = "HEAD"  # type: ignore[misc]


def test_a_flag_without_a_field_is_refused():
    with pytest.raises(TypeError, match="no field for url"):
        _options(CheckOptions, argparse.Namespace(command="check", url="x"))


def test_each_commands_defaults_are_what_its_parser_gives():
    """A command whose parser lacks a flag gets the field's default: it must be what the flag's
    absence meant before (e.g. `fix` has no --format, --hook or --verbose)."""
    for command, cls in COMMANDS.items():
        argv, required = ([command, "rules"], {"which": "rules"}) if command == "sync" else ([command], {})
        assert _options(cls, build_parser().parse_args(argv)) == cls(**required), command


# The fields of the shared steps' part (options.Chosen, options.LocalRun) that a command's parser
# lacks: the step reads them, and the default is what the flag's absence means there.
UNFILLED = {"baseline": {"fail_on", "base_ref"}, "fix": {"fail_on", "scope", "no_cache"}}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_has_the_fields_of_its_flags_and_no_other(command):
    """One options type per command: no field that its parser never fills (`audit` has no
    --diff or --hook, `baseline` no --format), which a reader would take for something the
    command does; but for a shared step's, listed in UNFILLED."""
    cls = COMMANDS[command]
    dests = {a.dest for a in _subparsers()[command]._actions if a.dest != "help"}
    assert {f.name for f in dataclasses.fields(cls)} - dests == UNFILLED.get(command, set())


def test_the_flags_values_arrive_parsed():
    args = build_parser().parse_args(["check", "--select", "dl2, DL301", "--ignore", "dl203", "--fail-on", "warning",
                                      "--today", "2026-12-01", "--format", "sarif", "--scope", "rules"])
    options = _options(CheckOptions, args)
    assert options.select == ("DL2", "DL301") and options.ignore == ("DL203",)
    assert options.fail_on is Severity.WARNING and options.today == datetime.date(2026, 12, 1)
    assert options.format is Format.SARIF and options.scope == "rules"


@pytest.mark.parametrize(("argv", "said"), [
    (["--select", "DL209"], "--select: "),
    (["--ignore", "XX1"], "--ignore: "),
    (["--today", "2026-13-01"], "--today must be YYYY-MM-DD, not '2026-13-01'"),
    (["--report", "pdf=x.pdf"], "--report takes FORMAT=FILE"),
    (["--scope", "nowhere"], "--scope takes rules, registry, all or OWNER/REPO"),
])
def test_a_bad_value_is_refused_where_the_options_are_built(argv, said):
    with pytest.raises(InputError, match=re.escape(said)):
        _options(CheckOptions, build_parser().parse_args(["check", *argv]))
