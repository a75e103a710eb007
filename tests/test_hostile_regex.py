"""A repository's configuration is untrusted (a fork's pull request, a clone), and two options are
regular expressions that drafterlint searches: DL503's `native_rule` in the rules text, DL505's
`tensor_patterns` in the model hub's weight index. Python's `re` backtracks without bound, so
neither may hang a run: a repetition inside a repetition is refused when the configuration is
read (with its file and line), and every search of a configured pattern runs on a CPU budget
that ends the run as bad input (exit 2) instead (drafterlint.userregex)."""

from __future__ import annotations

import json
import re
import signal

import jsonschema
import pytest

from drafterlint import userregex
from drafterlint.checks._examples import MTP_CONFIG, NATIVE_CAT, NATIVE_REV, native_catalog
from drafterlint.config import DEFAULTS, _format_checker, config_schema
from drafterlint.findings import InputError
from tests.helpers import run_engine
from tests.helpers.hostile import assert_sane, rules_repo, run_cli

SPEC = "# Rules\n\n#### 2.9.4 Speculative Decoding\n\n"


@pytest.mark.parametrize("pattern", [
    "(a+)+b", "(?:x*)*", "(a|b+)+", "(?:(?:ab)+c)*", "x(?=(a+)+)", "((a+))+", "(?:a{2,}){2,}",
])
def test_a_repetition_inside_a_repetition_is_unsafe(pattern):
    assert userregex.unsafe(pattern) == "a repetition inside a repetition (as in `(a+)+`) can take exponential time"


@pytest.mark.parametrize("pattern", [
    "a+b+", r"(?:canonical\s+)?model", "(a|b)+", r"[^.]*?x", "(?:ab){2}", "a{1,3}", r"^mtp\.(?P<layer>\d+)\.",
])
def test_patterns_without_nested_repetition_are_not(pattern):
    assert userregex.unsafe(pattern) is None


def test_every_default_pattern_passes_the_check():
    # The defaults are validated like a user's: a default the check refused would make every
    # configuration that does not override it an error.
    validator = jsonschema.Draft202012Validator(config_schema(), format_checker=_format_checker())
    assert [e.message for e in validator.iter_errors(DEFAULTS)] == []
    defaults = json.dumps(DEFAULTS["rule_options"])
    assert "native_rule" in defaults and "tensor_patterns" in defaults  # the patterns were seen


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no CPU-time timer here (Windows): the check at reading holds alone")
def test_the_budget_ends_a_search_and_puts_the_timer_back():
    before = signal.getsignal(signal.SIGPROF)
    budget = userregex.Budget("rule_options.DL503.native_rule", None, seconds=0.2)
    with pytest.raises(InputError) as raised, budget.running("the text"):
        re.search(r"(?:aa|a)*b", "a" * 60)  # passes the check above, and is exponential all the same
    assert str(raised.value).startswith("rule_options.DL503.native_rule: a pattern searched the text for 0.2 s")
    assert signal.getsignal(signal.SIGPROF) is before
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    with userregex.Budget("x", None, seconds=0.2).running("the text"):  # a quick search is untouched
        assert re.search(r"(?:aa|a)*b", "aab")


def test_a_nested_repetition_in_a_repositorys_configuration_is_refused_at_its_line(tmp_path):
    root = rules_repo(tmp_path, SPEC + "a" * 60 + "\n", extra={
        ".drafterlint.yaml": "rule_options:\n  DL503:\n    native_rule:\n      - '(a+)+b'\n"})
    run = run_cli(["check", "--no-cache"], root)
    assert_sane(run, (2,))
    assert ".drafterlint.yaml:4: invalid configuration: rule_options/DL503/native_rule/0:" in run.stderr
    assert "a repetition inside a repetition" in run.stderr


@pytest.mark.slow  # the budget is five seconds of CPU
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no CPU-time timer here (Windows)")
def test_a_pattern_that_backtracks_for_seconds_ends_the_check_as_bad_input(tmp_path):
    # Four `a*` in a row are not nested, so the check at reading lets them through; over 800 `a`s
    # they would backtrack for hours. The budget ends them: one line, exit 2.
    root = rules_repo(tmp_path, SPEC + "a" * 800 + "\n", extra={
        ".drafterlint.yaml": "rule_options:\n  DL503:\n    native_rule: ['a*a*a*a*a*!']\n"})
    run = run_cli(["check", "--no-cache"], root)
    assert_sane(run, (2,))
    assert ("rule_options.DL503.native_rule: a pattern searched the text of §2.9.4 for 5 s of CPU without an "
            "answer (it backtracks without bound); simplify it") in run.stderr
    assert ".drafterlint.yaml:" in run.stderr


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no CPU-time timer here (Windows)")
def test_a_tensor_pattern_that_backtracks_on_the_hubs_names_is_bad_input(tmp_path, monkeypatch):
    monkeypatch.setattr(userregex, "CPU_SECONDS", 0.3)
    names = {"a" * 800: "model-00001.safetensors", "model.layers.0.mlp.weight": "model-00001.safetensors"}
    files = {
        NATIVE_CAT: native_catalog("orga/m1", "mtp"),
        f"hub:orga/m1@{NATIVE_REV}/config.json": json.dumps(MTP_CONFIG),
        f"hub:orga/m1@{NATIVE_REV}/model.safetensors.index.json": json.dumps({"weight_map": names}),
    }
    table = {"mtp": {"config_keys": ["num_nextn_predict_layers"], "tensor_patterns": ["a*a*a*a*a*!"]}}
    with pytest.raises(InputError, match=r"^rule_options\.DL505\.evidence: a pattern searched the tensor names "
                                         rf"of orga/m1@{NATIVE_REV} for 0\.3 s of CPU"):
        run_engine(files, tmp_path / "repos", {"rule_options": {"DL505": {"evidence": table}}})
