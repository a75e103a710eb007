"""A rule's options are declared once, in its module (OPTIONS, next to RULE): the configuration
schema's `rule_options`, `explain` and the docs are made from the declarations, every read goes
through a declaration (a shared module's through the slot one rule fills), so no rule code is
written where an option is read, and the default a check uses is the declared one, never the
schema's copy of it."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

import drafterlint.checks
from drafterlint import docs
from drafterlint.checks import _options, toc_incomplete, unknown_head_method
from drafterlint.checks._options import Option, OptionSlot
from drafterlint.checks.base import all_rules
from drafterlint.commands import explain_text
from drafterlint.config import DEFAULTS, Config, config_schema

CHECKS = Path(drafterlint.checks.__file__).parent
ROOT = Path(__file__).resolve().parents[1]


def _declared_by_rule() -> dict[str, dict[str, Option]]:
    return {m.RULE.code: {o.name: o for o in getattr(m, "OPTIONS", ())} for m in all_rules()}


def test_the_schema_holds_exactly_the_declared_options_and_the_configuration_none():
    declared = {code: options for code, options in _declared_by_rule().items() if options}
    in_schema = config_schema()["properties"]["rule_options"]["properties"]
    assert {code: set(rule["properties"]) for code, rule in in_schema.items()} == \
        {code: set(options) for code, options in declared.items()}
    assert DEFAULTS["rule_options"] == {}  # a default has one home: its declaration
    for code, options in declared.items():
        for name, option in options.items():
            assert option.rule == code, f"{code} declares {name} for {option.rule}"
            assert in_schema[code]["properties"][name] == json.loads(json.dumps(option.schema_entry()))
            assert option.read(Config()) == option.default


def test_a_flipped_default_is_the_one_explain_shows_and_the_check_uses(monkeypatch, engine):
    """The declaration alone changed (the schema not regenerated): `explain` and the check
    both follow it."""
    files = {"rules:endpoints_rules.md": "# Rules\n\n## Inhalt\n\n1. [Basics](#1-basics)\n\n## 1. Basics\n\n### 1.1 Scope\n"}

    def dl104() -> list[tuple[int, int]]:
        return [(f.location.line, f.location.column) for f in engine(files).findings if f.code == "DL104"]

    assert dl104() == []  # no heading titled as a table of contents: not checked
    assert "- Inhalt" not in explain_text("DL104")
    (titles,) = toc_incomplete.OPTIONS
    monkeypatch.setattr(toc_incomplete, "OPTIONS", (dataclasses.replace(titles, default=["Inhalt"]),))
    assert "| `toc_titles` | list of strings | `[\"Inhalt\"]` |" in explain_text("DL104")
    assert "    toc_titles:\n    - Inhalt\n" in explain_text("DL104")
    assert dl104() == [(9, 1)]


def test_a_configured_mapping_is_merged_over_the_declared_one():
    """As the configuration's own sections are: a file naming one kind keeps the others."""
    kinds = unknown_head_method.KINDS
    read = kinds.read(Config().merged({"rule_options": {"DL502": {"kinds": {"lookahead": ["Lookahead"]}}}}))
    assert read == {**kinds.default, "lookahead": ["Lookahead"]}
    assert "lookahead" not in kinds.read(Config())


def test_every_slot_a_shared_module_reads_is_filled_by_exactly_one_rule_option():
    slots = [value for path in sorted(CHECKS.glob("_*.py")) if path.stem != "__init__"
             for value in vars(__import__(f"drafterlint.checks.{path.stem}", fromlist=["_"])).values()
             if isinstance(value, OptionSlot)]
    assert slots
    for slot in slots:
        assert slot.declaration().name == slot.name
    filled = {id(o.fills) for o in _options.declared() if o.fills is not None}
    assert filled == {id(s) for s in slots}


def test_options_are_read_only_through_their_declaration():
    """`config.options(CODE)` is called in one place, the declaration's reader."""
    callers = []
    for path in sorted((CHECKS.parent).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "options":
                callers.append(str(path.relative_to(CHECKS.parent)))
    assert callers == ["checks/_options.py"]


def test_an_option_added_to_a_rule_is_in_its_schema_page_and_reads(monkeypatch):
    """Adding an option to DL104 is one declaration in its module (and the generated files)."""
    extra = Option(toc_incomplete.RULE.code, "max_depth", {"type": "integer", "minimum": 1}, default=3,
                   description="the deepest heading level the table must list")
    monkeypatch.setattr(toc_incomplete, "OPTIONS", (*toc_incomplete.OPTIONS, extra))

    schema = json.loads(docs.schema_with_rule_options((ROOT / docs.CONFIG_SCHEMA).read_text(encoding="utf-8")))
    entry = schema["properties"]["rule_options"]["properties"]["DL104"]["properties"]["max_depth"]
    assert entry == {"description": "the deepest heading level the table must list", "type": "integer",
                     "minimum": 1, "default": 3}
    page = docs.rule_page(toc_incomplete)
    assert "| `max_depth` | integer | `3` | the deepest heading level the table must list |" in page
    assert "    max_depth: 3" in page
    assert extra.read(Config()) == 3
    assert extra.read(Config().merged({"rule_options": {"DL104": {"max_depth": 2}}})) == 2


@pytest.mark.parametrize("module", [m for m in all_rules() if getattr(m, "OPTIONS", ())], ids=lambda m: m.RULE.code)
def test_explain_shows_each_declared_option(module):
    page = docs.rule_page(module)
    for option in module.OPTIONS:
        assert f"| `{option.name}` | " in page
        assert docs._cell(option.description) in page


_TOC = "# Rules\n\n## Table of Contents\n\n1. [Basics](#1-basics)\n\n## 1. Basics\n\n## 2. Scope\n"


def test_a_change_of_options_is_judged_by_what_the_rule_reads(engine):
    """DL901 compares the options as the rule reads them (`read_all`, declared defaults merged
    in): a changed option that hides a finding is named, a default written out is no change."""
    files = {"rules:endpoints_rules.md": _TOC,
             "base:.drafterlint.yaml": "select: [DL104, DL9]\n",
             "rules:.drafterlint.yaml": "select: [DL104, DL9]\nrule_options:\n  DL104:\n    toc_titles: [Inhalt]\n"}
    assert [(f.location.line, f.location.column, f.message) for f in engine(files).findings if f.code == "DL901"] == \
        [(3, 3, "`rule_options: DL104` changed: it hides 1 finding (1 warning) the base shows")]
    written = Config().merged({"rule_options": {"DL104": {"toc_titles": ["Table of Contents", "Contents"]}}})
    assert _options.read_all("DL104", written) == _options.read_all("DL104", Config())
    assert _options.read_all("DL104", Config()) == {"toc_titles": ["Table of Contents", "Contents"]}
