"""The shape the developers' guide asks of the code, where a test can hold it: a rule module
imports no other rule module (shared helpers live in the checks' `_` modules, shared example
builders in checks/_examples.py), nothing outside the rules imports one (a fix reads the same
helpers its rule does), and the audit reads facts and findings, not rule modules."""

from __future__ import annotations

import ast
from pathlib import Path

import drafterlint.checks

CHECKS = Path(drafterlint.checks.__file__).parent
PACKAGE = CHECKS.parent


def _imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _rule_modules() -> set[str]:
    return {f"drafterlint.checks.{p.stem}" for p in CHECKS.glob("*.py")
            if not p.stem.startswith("_") and p.stem not in ("base", "context")}


# The registry's twin for mypy: it imports every rule to hold it to base.RuleModule, and nothing
# imports it (below), so no rule reaches another through it.
CONFORMANCE = CHECKS / "_conformance.py"


def test_no_rule_imports_another_rule():
    rules = _rule_modules()
    crossing = {
        (f"checks/{p.name}", m)
        for p in CHECKS.glob("*.py")
        if p != CONFORMANCE
        for m in _imported(p) & rules
        if m != f"drafterlint.checks.{p.stem}"
    }
    assert crossing == set()


def test_nothing_imports_the_rules_typed_twin():
    importers = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                       if "drafterlint.checks._conformance" in _imported(p))
    assert importers == []


def test_only_the_rule_registry_imports_rule_modules():
    rules = _rule_modules()
    importers = {
        str(p.relative_to(PACKAGE)): sorted(_imported(p) & rules)
        for p in PACKAGE.rglob("*.py")
        if p.parent != CHECKS and _imported(p) & rules
    }
    assert importers == {}


def test_the_audit_reads_facts_and_findings_not_rule_internals():
    # The timeline's eligibility and verdicts come from ctx.eligibility and ctx.native.
    imported = {m for m in _imported(PACKAGE / "audit.py") if m.startswith("drafterlint.checks")}
    # The Context's type too (annotations only): what the audit reads of the run is on it.
    allowed = {"drafterlint.checks", "drafterlint.checks.base", "drafterlint.checks.base.Context",
               "drafterlint.checks.base.HISTORY", "drafterlint.checks.base.ONLINE"}
    assert imported - allowed == set()


def test_the_context_is_typed_without_any():
    # What a check is given says what it is: a field typed Any hides a misread attribute.
    tree = ast.parse((CHECKS / "context.py").read_text(encoding="utf-8"))
    context = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Context")
    loose = [f"{n.target.id}: {ast.unparse(n.annotation)}" for n in context.body
             if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
             and "Any" in ast.unparse(n.annotation)]
    assert loose == []


def test_every_match_ends_in_assert_never():
    """A `match` over a union of records ends `case _: assert_never(subject)`, so that mypy proves
    every kind of the union has its case (docs/development.md, Routing records): without it, a
    kind added to the union would fall through unreported and nothing would fail."""
    matches = [(path, node) for path in sorted(PACKAGE.rglob("*.py"))
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Match)]
    assert matches
    for path, match in matches:
        last = match.cases[-1]
        ends = (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None and last.guard is None
                and len(last.body) == 1 and isinstance(last.body[0], ast.Expr)
                and isinstance(call := last.body[0].value, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "assert_never" and len(call.args) == 1
                and ast.dump(call.args[0]) == ast.dump(match.subject))
        assert ends, f"{path.relative_to(PACKAGE)}:{match.lineno}: a match that does not end in `case _: assert_never(...)`"


def test_the_package_declares_records_with_drafterlint_records():
    """`dataclasses.dataclass` compiles each method it generates as the class is made, on every
    run that imports it (about 90 ms of a run before drafterlint.records); the package's records
    take drafterlint.records.dataclass, which compiles nothing then (docs/development.md,
    Dataclasses)."""
    stdlib = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "records.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ImportFrom) and node.module == "dataclasses"
                    and any(a.name == "dataclass" for a in node.names)) or (
                    isinstance(node, ast.Attribute) and ast.unparse(node) == "dataclasses.dataclass"):
                stdlib.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert stdlib == []


def test_every_dataclass_has_a_docstring():
    """A dataclass without a docstring gets one made at import, from inspect.signature: about a
    tenth of what creating the class costs, paid by every run (docs/development.md, Dataclasses)."""
    bare = [f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"
            for path in sorted(PACKAGE.rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None
            and any(ast.unparse(d.func if isinstance(d, ast.Call) else d) in ("dataclass", "dataclasses.dataclass")
                    for d in node.decorator_list)]
    assert bare == []


def test_a_dataclass_compared_by_identity_is_printed_by_nothing():
    """Each method a dataclass generates is compiled when its class is made, on every run that
    imports it: a record nothing compares by value (`eq=False`) is read by no failing
    comparison either, and nothing prints one, so it makes no `__repr__` (`repr=False`;
    docs/development.md, Dataclasses)."""
    printed = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and ast.unparse(d.func) in ("dataclass", "dataclasses.dataclass"):
                    said = {k.arg: ast.unparse(k.value) for k in d.keywords}
                    if said.get("eq") == "False" and said.get("repr") != "False":
                        printed.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert printed == []


def test_no_pattern_is_compiled_at_import():
    """A module's pattern is made with lazyre.compile, compiled where first used: `re.compile`
    at a module's top level (or a class's) runs on every import, and a run with one document
    changed uses few of the block parser's patterns (docs/development.md, Patterns)."""

    def at_import(node: ast.AST) -> list[ast.Call]:
        found = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue  # runs when called
            if isinstance(child, ast.Call) and ast.unparse(child.func) == "re.compile":
                found.append(child)
            found += at_import(child)
        return found

    compiled = [f"{path.relative_to(PACKAGE)}:{call.lineno}" for path in sorted(PACKAGE.rglob("*.py"))
                for call in at_import(ast.parse(path.read_text(encoding="utf-8")))]
    assert compiled == []


def test_a_message_several_rules_give_is_written_once():
    """DL201, DL203 and DL204 say a missing fragment, DL202 and DL204 a path too long, in the
    words of the problem's record (`worded()` in checks/_links.py), never each their own."""
    for words in ("no heading or anchor ", " cannot name a file: "):
        writers = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                         if any(isinstance(n, ast.JoinedStr) and any(
                                    isinstance(v, ast.Constant) and isinstance(v.value, str) and words in v.value
                                    for v in n.values)
                                for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))))
        assert writers == ["checks/_links.py"], words


def test_a_suggestion_of_what_was_meant_is_worded_once():
    """`did you mean …?` (DL202 and DL204 of a missing file, DL201, DL203 and DL204 of a missing
    fragment, DL205, DL502, DL701) is findings.did_you_mean's words, never a rule's own."""
    writers = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                     if any(isinstance(n, ast.JoinedStr) and n.values and isinstance(first := n.values[0], ast.Constant)
                            and str(first.value).startswith("did you mean ")
                            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))))
    assert writers == ["findings.py"]


# Rule codes still written outside their rule's module, each with why; a code written anywhere
# else fails. What a rule declares (its fix, its outcome, its needs, the unreadable files' code)
# is read from the rule, never restated.
RESTATED = {
    # Help texts: examples of the syntax, and what fix and --online do (the parser is built
    # before any rule is loaded).
    "cli.py": {"DL104", "DL201", "DL203", "DL204", "DL301", "DL505", "DL506", "DL803"},
    "audit.py": {"DL402", "DL403"},  # the note on a registry without history (the audit reads no rule)
    "findings.py": {"DL901"},  # LEADING_CODES: what the reports put first
    "report/audit_markdown.py": {"DL401", "DL403", "DL505"},  # TIMELINE_MARKS: what the chart marks
    "checks/third_party_native_head.py": {"DL101", "DL702"},  # a skip's reason names the rules that say why
    "checks/weakened_check.py": {"DL201"},  # its examples' configurations
}


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def test_a_rules_code_is_written_in_its_own_module_only():
    import re

    from drafterlint.checks.base import all_rules

    own = {m.__name__.rsplit(".", 1)[1]: m.RULE.code for m in all_rules()}
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstrings(tree)
        codes = {code for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 and id(n) not in prose for code in re.findall(r"\bDL[0-9]{3}\b", n.value)}
        codes -= {own.get(path.stem)} if path.parent == CHECKS else set()
        if codes:
            found[str(path.relative_to(PACKAGE))] = codes
    assert found == RESTATED
