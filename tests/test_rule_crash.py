"""A bug in a rule (stood in for by a check that raises) ends check, baseline and fix with one
line naming the rule and exit 2, on the current files and on a --base-ref's base alike: never a
traceback, never a half-done fix. (The audit reports it and goes on: test_audit_always_reports.)"""

from __future__ import annotations

import pytest

from tests.helpers.samples import typo_pull_request

BASE_DIR = "drafterlint-base-"  # the temporary folder baserun checks a base in


@pytest.fixture
def rules(tmp_path):
    return typo_pull_request(tmp_path)


def crash_dl201(monkeypatch, *, only_on_the_base: bool) -> None:
    from drafterlint.checks.base import all_rules

    rule = next(r for r in all_rules() if r.RULE.code == "DL201")
    real = rule.check

    def broken(ctx):
        if only_on_the_base and BASE_DIR not in str(ctx.rules.root):
            return real(ctx)
        raise KeyError("a bug")

    monkeypatch.setattr(rule, "check", broken)


@pytest.mark.parametrize("command", [("check", "--no-cache"), ("baseline", "--no-cache", "--output", "known.json"),
                                     ("fix",), ("fix", "--diff")])
def test_a_crash_on_the_current_files_is_one_line_and_exit_2(cli, rules, monkeypatch, command):
    before = (rules / "endpoints_rules.md").read_bytes()
    crash_dl201(monkeypatch, only_on_the_base=False)
    code, out, err = cli(*command, "--select", "DL2", cwd=rules)
    assert code == 2
    assert err.strip().splitlines()[-1] == (
        "drafterlint: internal error in rule DL201 broken-fragment: KeyError: 'a bug' (please report this)")
    assert (rules / "endpoints_rules.md").read_bytes() == before
    assert not (rules / "known.json").exists()


@pytest.mark.parametrize("command", [("check", "--no-cache"), ("fix",)])
def test_a_crash_on_the_base_is_one_line_and_exit_2(cli, rules, monkeypatch, command):
    before = (rules / "endpoints_rules.md").read_bytes()
    crash_dl201(monkeypatch, only_on_the_base=True)
    code, out, err = cli(*command, "--select", "DL2", "--base-ref", "HEAD~1", cwd=rules)
    assert code == 2
    assert err.strip().splitlines()[-1] == ("drafterlint: internal error in rule DL201 broken-fragment: "
                                            "KeyError: 'a bug', checking the base (please report this)")
    assert (rules / "endpoints_rules.md").read_bytes() == before
