"""Every rule's documented examples are run: the passing one passes, the failing one fails
exactly where its documentation says."""

from __future__ import annotations

import pytest

from drafterlint.checks import all_rules

CASES = [
    pytest.param(mod, ex, id=f"{mod.RULE.code}-{i}")
    for mod in all_rules()
    for i, ex in enumerate(getattr(mod, "EXAMPLES", ()))
]


def test_every_rule_has_a_passing_and_a_failing_example():
    for mod in all_rules():
        examples = getattr(mod, "EXAMPLES", ())
        assert any(e.passing for e in examples), f"{mod.RULE.code} has no passing example"
        assert any(not e.passing for e in examples), f"{mod.RULE.code} has no failing example"
        assert mod.__doc__ and mod.RULE.code in mod.__doc__, f"{mod.RULE.code} is undocumented"


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
