"""The rule registry holds every rule, and only rules: a module under checks/ that defines a rule
but is not listed in `_RULES`, or is listed without RULE or check(ctx), fails here instead of
being dropped without a word (`drafterlint rules` one short, `explain` saying "no rule")."""

from __future__ import annotations

import importlib
import pkgutil

import drafterlint.checks
from drafterlint.checks.base import Rule, all_rules, rule_by_code


def _checks_modules():
    for info in pkgutil.iter_modules(drafterlint.checks.__path__):
        yield info.name, importlib.import_module(f"drafterlint.checks.{info.name}")


def _defines_a_rule(module) -> bool:
    """A RULE of its own, or a module-level `check` function defined there."""
    check = getattr(module, "check", None)
    return isinstance(getattr(module, "RULE", None), Rule) or (
        callable(check) and getattr(check, "__module__", None) == module.__name__)


def test_every_module_that_defines_a_rule_is_registered():
    unregistered = sorted(name for name, module in _checks_modules()
                          if _defines_a_rule(module) and name not in drafterlint.checks._RULES)
    assert unregistered == [], "add them to drafterlint.checks._RULES"


def test_every_registered_rule_has_a_rule_and_a_check():
    incomplete = []
    for name in drafterlint.checks._RULES:
        module = importlib.import_module(f"drafterlint.checks.{name}")
        check = getattr(module, "check", None)
        if not isinstance(getattr(module, "RULE", None), Rule) or not callable(check):
            incomplete.append(name)
    assert incomplete == []


def test_the_registry_lists_each_rule_once_and_every_one_is_served():
    assert len(set(drafterlint.checks._RULES)) == len(drafterlint.checks._RULES)
    served = {m.__name__.rpartition(".")[2] for m in all_rules()}
    assert served == set(drafterlint.checks._RULES)
    for module in all_rules():
        assert rule_by_code(module.RULE.code) is module


def test_mypy_holds_every_registered_rule_to_the_protocol():
    """checks/_conformance.py is where mypy sees each rule as a RuleModule: a rule listed in
    `_RULES` but not there would be typed by nothing."""
    from drafterlint.checks import _conformance

    held = [m.__name__.rpartition(".")[2] for m in _conformance.RULES]
    assert held == list(drafterlint.checks._RULES)
