"""A repository's configuration is untrusted (a fork's pull request, a clone), and two options are
regular expressions that drafterlint searches: DL503's `native_rule` in the rules text, DL505's
`tensor_patterns` in the model hub's weight index. Python's `re` backtracks without bound, so
neither may hang a run: a repetition inside a repetition is refused when the configuration is
read (with its file and line), and every search of a configured pattern runs on one CPU budget
for the whole run, which ends the run as bad input (exit 2) instead (drafterlint.userregex)."""

from __future__ import annotations

import json
import re
import signal
import sys
import time

import jsonschema
import pytest

from drafterlint import userregex
from drafterlint.checks._examples import MTP_CONFIG, NATIVE_CAT, NATIVE_REV, native_catalog
from drafterlint.checks._options import declared as declared_options
from drafterlint.config import DEFAULTS, Config, _format_checker, config_schema
from drafterlint.findings import InputError
from tests.helpers import run_engine
from tests.helpers.hostile import assert_sane, rules_repo, run_cli

SPEC = "# Rules\n\n#### 2.9.4 Speculative Decoding\n\n"
NESTED = "a repetition inside a repetition (as in `(a+)+` or `(?:a?){20}`) can take exponential time"
# Python 3.11 reads atomic groups and possessive repeats; 3.10 refuses them as bad syntax.
ATOMIC = sys.version_info >= (3, 11)
needs_atomic = pytest.mark.skipif(not ATOMIC, reason="no atomic groups or possessive repeats before Python 3.11")


@pytest.mark.parametrize("pattern", [
    "(a+)+b", "(?:x*)*", "(a|b+)+", "(?:(?:ab)+c)*", "x(?=(a+)+)", "((a+))+", "(?:a{2,}){2,}",
    # An optional inside a counted repetition: 22 places that may each take a character or not.
    "(?:.?){22}.{22}!", "(?:a|b?)+", "(?:a|){22}", "(?:a??)*",
    # A conditional's branches are looked into, the one taken when the group matched or not.
    "(x)?(?(1)(a+)+|c)b", "(x)?(?(1)c|(?:a*)*)b",
    pytest.param("(?>(a+)+)b", marks=needs_atomic), pytest.param("(?:(?:a+)+)*+b", marks=needs_atomic),
    pytest.param("(?:a?+){22}", marks=needs_atomic), pytest.param("(?>a?){22}!", marks=needs_atomic),
])
def test_a_repetition_inside_a_repetition_is_unsafe(pattern):
    assert userregex.unsafe(pattern) == NESTED


@pytest.mark.parametrize("pattern", [
    "a+b+", r"(?:canonical\s+)?model", "(a|b)+", r"[^.]*?x", "(?:ab){2}", "a{1,3}", r"^mtp\.(?P<layer>\d+)\.",
    "(x)?(?(1)ab|c)+", r"(?i:eagle)\b(?!-\d)", pytest.param("(?>a+)b", marks=needs_atomic),
    pytest.param("a++b", marks=needs_atomic),
])
def test_patterns_without_nested_repetition_are_not(pattern):
    assert userregex.unsafe(pattern) is None


def test_a_construct_the_check_does_not_know_is_refused_not_passed():
    # A later Python may parse a new kind of group; the check cannot tell what repeats inside it.
    assert userregex._nested([("FUTURE_GROUP", [])], inside=False) == (
        "a construct the check of nested repetitions cannot judge (future_group)")


@pytest.mark.parametrize("pattern", ["(?>(a+)+)b", "(?:(?:a+)+)*+b"])
def test_atomic_and_possessive_nesting_is_refused_at_its_line_on_every_python(tmp_path, pattern):
    # On 3.11 and later the check looks inside; on 3.10 the pattern does not compile. Either way
    # the file is refused at the pattern's line before anything is searched.
    root = rules_repo(tmp_path, SPEC + "a" * 60 + "\n", extra={
        ".drafterlint.yaml": f"rule_options:\n  DL503:\n    native_rule:\n      - '{pattern}'\n"})
    run = run_cli(["check", "--no-cache"], root)
    assert_sane(run, (2,))
    assert ".drafterlint.yaml:4: invalid configuration: rule_options/DL503/native_rule/0:" in run.stderr
    assert (NESTED if ATOMIC else "is not a 'regex'") in run.stderr


def test_every_default_pattern_passes_the_check():
    # The defaults are validated like a user's: a default the check refused would make every
    # configuration that does not override it an error.
    declared = {}
    for option in declared_options():
        declared.setdefault(option.rule, {})[option.name] = option.default
    validator = jsonschema.Draft202012Validator(config_schema(), format_checker=_format_checker())
    assert [e.message for e in validator.iter_errors({**DEFAULTS, "rule_options": declared})] == []
    defaults = json.dumps(declared)
    assert "native_rule" in defaults and "tensor_patterns" in defaults  # the patterns were seen


no_timer = pytest.mark.skipif(not hasattr(signal, "setitimer"),
                              reason="no CPU-time timer here (Windows): the check at reading holds alone")


@no_timer
def test_the_budget_ends_a_search_and_puts_the_timer_back():
    before = signal.getsignal(signal.SIGPROF)
    budget = userregex.Budget(seconds=0.2)
    with pytest.raises(InputError) as raised, budget.running("rule_options.DL503.native_rule", "the text"):
        re.search(r"(?:aa|a)*b", "a" * 60)  # passes the check above, and is exponential all the same
    assert str(raised.value).startswith("rule_options.DL503.native_rule: a pattern searching the text used up "
                                        "the 0.2 s of CPU that the configuration's patterns have in one run")
    assert signal.getsignal(signal.SIGPROF) is before
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    with userregex.Budget(seconds=0.2).running("x", "the text"):  # a quick search is untouched
        assert re.search(r"(?:aa|a)*b", "aab")


@no_timer
def test_outside_the_main_thread_there_is_no_timer_and_the_spent_budget_stops_nothing():
    """Signals are the main thread's alone (signal.signal refuses elsewhere, which tells the
    thread without importing `threading`): a search there runs unguarded, as it did when
    threading was asked, and the main thread's handler and timer are left as they were."""
    import threading

    before = signal.getsignal(signal.SIGPROF)
    spent = userregex.Budget(seconds=0.2)
    spent.spent = 0.2
    ran = []

    def search() -> None:
        with spent.running("rule_options.DL503.native_rule", "the text"):
            ran.append(re.search(r"(?:aa|a)*b", "aab") is not None)

    worker = threading.Thread(target=search)
    worker.start()
    worker.join()
    assert ran == [True] and signal.getsignal(signal.SIGPROF) is before
    with pytest.raises(InputError, match="used up the 0.2 s"), spent.running("rule_options.DL503.native_rule", "x"):
        pass  # in the main thread the spent budget ends the next search
    assert signal.getsignal(signal.SIGPROF) is before and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def _burn(cpu_seconds: float) -> None:
    """Spend CPU time (what the budget counts), as a slow search would."""
    start = time.process_time()
    while time.process_time() - start < cpu_seconds:
        pass


@no_timer
def test_the_budget_is_one_for_the_run_not_one_per_search():
    # Each block alone stays under the budget; together they do not, and the second is ended.
    budget = userregex.Budget(seconds=0.5)
    with budget.running("rule_options.DL505.evidence", "the tensor names of a/one@1"):
        _burn(0.3)
    assert 0.2 < budget.spent < 0.5  # as the timer counts it, in its own ticks
    with pytest.raises(InputError, match=r"^rule_options\.DL505\.evidence: a pattern searching the tensor names of "
                                         r"a/two@2 used up the 0\.5 s of CPU"), \
            budget.running("rule_options.DL505.evidence", "the tensor names of a/two@2"):
        _burn(0.3)
    with pytest.raises(InputError), budget.running("rule_options.DL503.native_rule", "the text"):
        pass  # nothing is left for any later search
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_configuration_and_its_command_line_overrides_share_one_budget():
    config = Config()
    assert config.merged({"fail_on": "warning"}).merged({}).patterns is config.patterns


# DL503's patterns are searched in the rules text's §2.9.4, DL505's in a checkpoint's tensor names.
RULES_TEXT = {"rules:endpoints_rules.md": SPEC + "Heads must be trained by the model's publisher.\n"}
CHECKPOINT = {
    NATIVE_CAT: native_catalog("orga/m1", "mtp"),
    f"hub:orga/m1@{NATIVE_REV}/config.json": json.dumps(MTP_CONFIG),
    f"hub:orga/m1@{NATIVE_REV}/model.safetensors.index.json": json.dumps(
        {"weight_map": {"model.layers.0.mlp.weight": "model-00001.safetensors"}}),
}


@no_timer
@pytest.mark.parametrize("files, option", [(RULES_TEXT, "rule_options.DL503.native_rule"),
                                           (CHECKPOINT, "rule_options.DL505.evidence")])
def test_every_configured_pattern_draws_on_the_runs_one_budget(tmp_path, files, option):
    # A run whose earlier searches used the budget up: the next search of either option's
    # patterns is ended before it starts, so no reader has a budget of its own.
    config = Config()
    config.patterns.spent = config.patterns.seconds
    with pytest.raises(InputError, match=rf"^{re.escape(option)}: a pattern searching .* used up the 5 s"):
        run_engine(files, tmp_path / "repos", config=config)
    run_engine(files, tmp_path / "again", config=Config())  # on a fresh budget the same run ends well


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
    assert ("rule_options.DL503.native_rule: a pattern searching the text of §2.9.4 used up the 5 s of CPU "
            "that the configuration's patterns have in one run (it backtracks without bound); simplify it") in run.stderr
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
    with pytest.raises(InputError, match=r"^rule_options\.DL505\.evidence: a pattern searching the tensor names "
                                         rf"of orga/m1@{NATIVE_REV} used up the 0\.3 s of CPU"):
        run_engine(files, tmp_path / "repos", {"rule_options": {"DL505": {"evidence": table}}})
