"""Every registry rule on fixture registries, asserting code, path, line, column (their EXAMPLES run
through the engine in test_rule_examples.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from drafterlint.checks._facts import Fact, RulesFacts
from drafterlint.checks.base import Context
from drafterlint.checks.context import Inputs
from drafterlint.config import Config
from drafterlint.engine import build_context
from drafterlint.findings import Location, Severity
from drafterlint.registry import load_registry
from drafterlint.sources import RepoView

RULE_MODULES = [
    "duplicate_entry",
    "duplicate_key",
    "approval_rewritten",
    "lead_time",
    "bad_cohort",
    "policy_version",
    "unrecognized_native_head",
    "unknown_head_method",
    "third_party_native_head",
    "schema",
]
POL = "src/inference_endpoint/validation/policies"
FIXTURES = Path(__file__).resolve().parent.parent / "rules_fixtures" / "registry_cases"


# What the rules text states when a test gives none: a §2.9.4 with today's native-head rule.
STATED = Location("rules", "endpoints_rules.md", 5, 1)
TODAY_RULES = RulesFacts(native_rule=Fact("native_rule", True, STATED, "is not native"))


def run_rule(module, tmp: Path, files: dict[str, str], config: Config | None = None, facts=None):
    """The rule on a registry made of `files`; "rules:" files, when given, state the facts."""
    config = config or Config()
    rules = tmp.parent / f"{tmp.name}-rules"
    for key, text in files.items():
        repo, rel = key.split(":", 1)
        assert repo in ("registry", "rules")
        p = (tmp if repo == "registry" else rules) / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    if facts is None:
        facts = build_context(config, rules, None).facts if rules.is_dir() else TODAY_RULES
    view = RepoView("registry", tmp)
    reg = load_registry(view, config)
    ctx = Context.unprepared(Inputs(config, registry=reg, registry_repo=view), facts=facts)
    return reg, list(module.check(ctx))


def as_expect(findings):
    return sorted(
        (f"{f.location.repo}:{f.location.path}", f.location.line, f.location.column)
        for f in findings
    )


def _fixture(name: str) -> dict[str, str]:
    """A fixture folder as a files mapping: its tree is a registry repository."""
    root = FIXTURES / name
    return {
        f"registry:{p.relative_to(root).as_posix()}": p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.yaml"))
    }


def _rule(name):
    return importlib.import_module(f"drafterlint.checks.{name}")


CAT = f"registry:{POL}/2026-10-C1/catalog.yaml"


def test_clean_fixture_passes_every_rule(tmp_path):
    files = _fixture("clean")
    for name in RULE_MODULES:
        sub = tmp_path / name
        reg, findings = run_rule(_rule(name), sub, files)
        assert reg.errors == []
        assert findings == [], (name, [f.message for f in findings])


@pytest.mark.parametrize(
    "case,rule,expected",
    [
        ("dup_head", "duplicate_entry", [(CAT, 16, 7)]),
        ("dup_key", "duplicate_key", [(CAT, 13, 7)]),
        ("lead_too_short", "lead_time", [(CAT, 8, 24)]),
        ("bad_cohort", "bad_cohort", [(CAT, 8, 24)]),
        ("bundled_unknown_rev", "unrecognized_native_head", [(CAT, 12, 17)]),
        ("bad_method", "unknown_head_method", [(CAT, 9, 15)]),
        ("third_party", "third_party_native_head", [(CAT, 17, 19)]),
        ("misspelled_heads", "schema", [(CAT, 4, 3)]),
        ("version_skew", "policy_version", [(f"registry:{POL}/2026-10-C1/system_checks.yaml", 1, 10)]),
        ("rewritten", "approval_rewritten", [(f"registry:{POL}/2026-11-C0/catalog.yaml", 8, 24)]),
    ],
)
def test_failing_fixtures(tmp_path, case, rule, expected):
    reg, findings = run_rule(_rule(rule), tmp_path, _fixture(case))
    assert reg.errors == []
    assert as_expect(findings) == sorted(expected), [f.message for f in findings]
    assert all(f.code == _rule(rule).RULE.code for f in findings)


def test_duplicate_key_names_both_positions(tmp_path):
    _, findings = run_rule(_rule("duplicate_key"), tmp_path, _fixture("dup_key"))
    (f,) = findings
    assert (f.related[0].line, f.related[0].column) == (12, 7)
    assert "line 12" in f.message and "line 13" in f.message


def test_duplicate_entry_points_back_at_the_first(tmp_path):
    _, findings = run_rule(_rule("duplicate_entry"), tmp_path, _fixture("dup_head"))
    assert findings[0].related[0].line == 5


def test_misspelled_heads_key_says_did_you_mean(tmp_path):
    _, findings = run_rule(_rule("schema"), tmp_path, _fixture("misspelled_heads"))
    (f,) = findings
    assert "did you mean `approved_spec_decode_heads`?" in f.message
    assert f.suggestion == "did you mean `approved_spec_decode_heads`?"


def test_unknown_method_suggests_closest(tmp_path):
    _, findings = run_rule(_rule("unknown_head_method"), tmp_path, _fixture("bad_method"))
    assert findings[0].suggestion == "did you mean `eagle3`?"


RULES_AT = Location("rules", "endpoints_rules.md", 5, 1)


def _stated_kinds(*methods: str) -> RulesFacts:
    return RulesFacts(head_kinds=[Fact("head_kind", m, RULES_AT, m) for m in methods])


# The configured kinds without the EAGLE family (null drops a default kind).
_ONLY_DSPARK = {"rule_options": {"DL502": {"kinds": {
    "mtp": None, "eagle": None, "eagle3": None, "medusa": None, "draft_model": None, "ngram": None}}}}


def test_unknown_method_uses_rules_kinds_when_known(tmp_path):
    # The rules name kinds by example, so they extend the configured list; versions of a kind
    # (eagle3 for EAGLE-style) count as that kind.
    _, findings = run_rule(
        _rule("unknown_head_method"), tmp_path, _fixture("clean"),
        facts=_stated_kinds("mtp"),
        config=Config().merged(_ONLY_DSPARK),
    )
    assert {f.location.line for f in findings} == {9}  # the eagle3 head
    _, findings = run_rule(
        _rule("unknown_head_method"), tmp_path, _fixture("clean"),
        facts=_stated_kinds("mtp", "eagle"),
        config=Config().merged(_ONLY_DSPARK),
    )
    assert findings == []


def test_third_party_with_own_approval_is_a_warning(tmp_path):
    files = _fixture("third_party")
    files[CAT] = files[CAT].replace(
        "      method: mtp\n      bundled: true\n  approved_checkpoints",
        "      approved_cohort: 2026-09-C0\n      method: mtp\n      bundled: true\n"
        "  approved_checkpoints",
    )
    _, findings = run_rule(_rule("third_party_native_head"), tmp_path, files)
    (f,) = findings
    assert f.severity is Severity.WARNING and (f.location.line, f.location.column) == (17, 19)


def test_canonical_publisher_from_config(tmp_path):
    config = Config().merged({"registry": {"canonical_publishers": {"alpha-7b": "quant-co"}}})
    _, findings = run_rule(_rule("third_party_native_head"), tmp_path, _fixture("third_party"), config)
    # Configured as the publisher, quant-co's head is native; alpha-org's is now the third party.
    assert as_expect(findings) == [(CAT, 11, 19)]


def test_lead_time_stated_by_the_rules_wins(tmp_path):
    # The policy says 2 (fine for 2026-09-C1 -> 2026-10-C1); the rules say 3.
    stated = RulesFacts(spec_lead=Fact("lead_cohorts", 3, RULES_AT, "at least three cohorts"))
    _, findings = run_rule(_rule("lead_time"), tmp_path, _fixture("clean"), facts=stated)
    assert {f.location.line for f in findings} == {8, 13}


def test_lead_time_silent_without_a_stated_lead(tmp_path):
    files = {k: v for k, v in _fixture("lead_too_short").items() if "point_checks" not in k}
    _, findings = run_rule(_rule("lead_time"), tmp_path, files)
    assert findings == []


def test_bad_folder_name_is_reported(tmp_path):
    files = {
        k.replace("2026-10-C1", "2026-13-C0"): v.replace("2026-10-C1", "2026-13-C0")
        for k, v in _fixture("clean").items()
    }
    _, findings = run_rule(_rule("bad_cohort"), tmp_path, files)
    assert (f"registry:{POL}/2026-13-C0/catalog.yaml", 1, 1) in as_expect(findings)
    assert (f"registry:{POL}/2026-13-C0/catalog.yaml", 1, 10) in as_expect(findings)


def test_unreadable_policy_file_goes_to_errors(tmp_path):
    files = _fixture("clean")
    files[f"registry:{POL}/2026-10-C1/point_checks.yaml"] = "checks: !!python/object:os.system x\n"
    reg, _ = run_rule(_rule("schema"), tmp_path, files)
    (err,) = reg.errors
    assert err.location.path.endswith("point_checks.yaml")
    assert (err.location.line, err.location.column) == (1, 9)
    assert "tag" in err.message
    assert "catalog.yaml" in reg.policies["2026-10-C1"].docs


def test_a_file_that_pins_nothing_is_told_what_to_add(tmp_path):
    files = _fixture("clean")
    points = next(k for k in files if k.endswith("2026-10-C1/point_checks.yaml"))
    files[points] = "".join(line for line in files[points].splitlines(keepends=True)
                            if not line.startswith(("version:", "revision:")))
    _, findings = run_rule(_rule("policy_version"), tmp_path, files)
    assert sorted((f.message, f.key) for f in findings) == [
        ("point_checks.yaml pins no revision; add `revision: 1`", "2026-10-C1:point_checks.yaml:revision-missing"),
        ("point_checks.yaml pins no version; add `version: 2026-10-C1`", "2026-10-C1:point_checks.yaml:version-missing"),
    ]
