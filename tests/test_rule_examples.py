"""Every rule's examples (its EXAMPLES: data, shown by `drafterlint explain`) run through the real
engine, the one harness for them: a passing one passes, a failing one fails exactly where it says."""

from __future__ import annotations

import importlib

import pytest

import drafterlint.checks
from drafterlint.checks.base import all_rules


def _cases():
    # From the registry's names, not all_rules(): a registered module that is not a complete rule
    # fails the tests (test_rule_registry.py and every one below), not pytest's collection.
    for name in drafterlint.checks._RULES:
        mod = importlib.import_module(f"drafterlint.checks.{name}")
        rule = getattr(mod, "RULE", None)
        for i, ex in enumerate(getattr(mod, "EXAMPLES", ())):
            yield pytest.param(mod, ex, id=f"{rule.code if rule else name}-{i}")


CASES = list(_cases())


def test_every_rule_has_a_passing_and_a_failing_example():
    for mod in all_rules():
        examples = getattr(mod, "EXAMPLES", ())
        assert any(e.passing for e in examples), f"{mod.RULE.code} has no passing example"
        assert any(not e.passing for e in examples), f"{mod.RULE.code} has no failing example"
        assert mod.__doc__ and mod.RULE.code in mod.__doc__, f"{mod.RULE.code} is undocumented"


def test_a_rules_examples_are_its_examples_data_only():
    # Examples written into a docstring are run by nothing: they live in EXAMPLES alone.
    import re

    for mod in all_rules():
        assert not re.search(r"^\s*(Passing|Failing)\b", mod.__doc__, re.M), mod.RULE.code


def test_explain_shows_every_example():
    from drafterlint.commands import explain_text

    for mod in all_rules():
        text = explain_text(mod.RULE.code)
        for ex in mod.EXAMPLES:
            assert f"### {'Passes' if ex.passing else 'Fails'}: {ex.title}" in text, (mod.RULE.code, ex.title)


@pytest.mark.parametrize("mod,example", CASES)
def test_example(mod, example, engine):
    from drafterlint.checks.base import TODAY

    kw = {}
    if TODAY in mod.RULE.needs:
        import datetime

        kw["today"] = datetime.date(2026, 12, 2)
    result = engine(dict(example.files), dict(example.config), **kw)
    got = sorted(
        (f"{f.location.repo}:{f.location.path}", f.location.line, f.location.column)
        for f in result.findings
        if f.code == mod.RULE.code
    )
    assert got == sorted(example.expect), "\n".join(
        f"{f.location}: {f.code} {f.message}" for f in result.findings
    )


def test_codes_and_names_are_unique():
    codes = [m.RULE.code for m in all_rules()]
    names = [m.RULE.name for m in all_rules()]
    assert len(codes) == len(set(codes))
    assert len(names) == len(set(names))
