"""A rule's options are declared once, in its module (OPTIONS, next to RULE): the configuration
schema's `rule_options`, the defaults, `explain` and the docs are made from the declarations,
and every read goes through a declaration (a shared module's through the slot one rule fills),
so no rule code is written where an option is read."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import drafterlint.checks
from drafterlint import docs
from drafterlint.checks import _options, all_rules, toc_incomplete
from drafterlint.checks._options import Option, OptionSlot
from drafterlint.config import DEFAULTS, Config, config_schema

CHECKS = Path(drafterlint.checks.__file__).parent
ROOT = Path(__file__).resolve().parents[1]


def _declared_by_rule() -> dict[str, dict[str, Option]]:
    return {m.RULE.code: {o.name: o for o in getattr(m, "OPTIONS", ())} for m in all_rules()}


def test_the_schema_and_the_defaults_hold_exactly_the_declared_options():
    declared = {code: options for code, options in _declared_by_rule().items() if options}
    in_schema = config_schema()["properties"]["rule_options"]["properties"]
    assert {code: set(rule["properties"]) for code, rule in in_schema.items()} == \
        {code: set(options) for code, options in declared.items()}
    assert DEFAULTS["rule_options"] == {code: {name: o.default for name, o in options.items()}
                                        for code, options in declared.items()}
    for code, options in declared.items():
        for name, option in options.items():
            assert option.rule == code, f"{code} declares {name} for {option.rule}"
            assert in_schema[code]["properties"][name] == json.loads(json.dumps(option.schema_entry()))


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
