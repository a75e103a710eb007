"""The facts read from the rules text: values and exact positions (rules_fixtures/crossval)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from drafterlint.checks import parameter_mismatch
from drafterlint.cohorts import Calendar
from drafterlint.config import Config
from drafterlint.engine import build_context

FIX = Path(__file__).resolve().parents[1] / "rules_fixtures" / "crossval"


@pytest.fixture
def ctx():
    return build_context(Config(), FIX / "rules", FIX / "registry")


def at(fact):
    return (fact.location.path, fact.location.line, fact.location.column)


def test_speculative_decoding_facts(ctx):
    f = ctx.facts
    assert f.spec_lead.value == 3 and at(f.spec_lead) == ("endpoints_rules.md", 15, 14)
    assert f.head_methods == ["mtp", "dspark", "eagle"]
    assert [k.location.line for k in f.head_kinds] == [12, 12, 12]
    assert [x.value for x in f.id_forms] == ["weight-identified", "configuration-identified"]
    assert at(f.list_claim) == ("endpoints_rules.md", 16, 7)
    assert f.tentative.value == datetime.date(2026, 11, 2)


def test_supported_models_and_check_table(ctx):
    f = ctx.facts
    assert f.model_list_weeks.value == 8 and at(f.model_list_weeks) == ("endpoints_rules.md", 29, 35)
    assert [m.value for m in f.supported_models] == ["Model One"]
    assert [r.name for r in f.check_rows] == [
        "Seed-set validity", "Approved drafter", "Drafter approval lead time"]
    assert f.table_lead.value == 3 and (f.table_lead.location.line, f.table_lead.location.column) == (46, 54)
    assert f.table_adoption.value == 5
    assert f.missing == []


def test_companion_facts(ctx):
    f = ctx.facts
    assert f.calendar.value == Calendar.monthly(1, (2, 4))
    assert at(f.calendar) == ("endpoints_submission_rules.md", 11, 17)
    assert [b.value for b in f.calendar_bullets] == [(0, 2, 1), (1, 4, 1)]
    assert f.adoption_window.value == 5
    assert f.round_opens.value == datetime.date(2026, 11, 2)


def test_published_for_the_registry_rules(ctx):
    # Extracted before any check runs, as a typed object every rule reads.
    from drafterlint.checks._stated import head_methods, lead_time

    assert ctx.facts.lead.value == 3
    assert lead_time(ctx.facts) == (3, ctx.facts.spec_lead.location)
    assert head_methods(ctx.facts, ctx.config, {})[:3] == ["mtp", "dspark", "eagle"]
    assert ctx.facts.model_list_weeks.value == 8


_ROW = ("\n### 9.1 Automated Checks\n\n| Check | Validation | Failure Action |\n|---|---|---|\n"
        "| **Drafter approval lead time** | Approved at least two cohorts before. | Reject. |\n")


def test_a_missing_fact_is_reported_not_defaulted(tmp_path):
    # §9.1 states a lead time that §2.9.4 does not: the text requires it of §2.9.4.
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text(
        "# R\n\n#### 2.9.4 Speculative Decoding\n\nDrafters come from the approved list.\n" + _ROW)
    ctx = build_context(Config(), rules, None)
    f = ctx.facts
    assert f.spec_lead is None and f.lead.value == 2  # §9.1's, not a default
    (m,) = [m for m in f.missing if m.name == "lead_cohorts"]
    assert m.location.line == 3 and m.section is f.spec_section
    # DL601 owns the fact and says what was expected, naming the row that requires it.
    (finding,) = [x for x in parameter_mismatch.check(ctx) if x.key == "missing:lead_cohorts"]
    assert finding.location == m.location and "at least two cohorts" in finding.message
    assert "endpoints_rules.md:11" in finding.message


def test_a_fact_no_version_of_the_text_requires_is_not_missing(tmp_path):
    # A §2.9.4 that defines no list (older versions) requires no lead time: nothing is missing,
    # nothing is defaulted.
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text(
        "# R\n\n#### 2.9.4 Speculative Decoding\n\nDrafters must be approved first.\n")
    ctx = build_context(Config(), rules, None)
    f = ctx.facts
    assert f.spec_lead is None and f.lead is None and f.list_defined is None
    assert [m.name for m in f.missing] == []


def test_numbers_in_words_and_digits():
    from drafterlint.checks._facts import number

    assert number("two") == 2 and number("12") == 12 and number("Four") == 4
    assert number("many") is None


def _spec_section(tmp_path, body: str):
    rules = tmp_path / "rules"
    rules.mkdir(parents=True)
    (rules / "endpoints_rules.md").write_text("# R\n\n#### 2.9.4 Speculative Decoding\n\n" + body)
    return build_context(Config(), rules, None).facts


def test_the_rules_facts_are_read_from_what_github_renders(tmp_path):
    # A sentence that shares its line with an HTML comment is still the rule, without what the
    # comment says; emphasis by underscores is markup, not part of the number.
    f = _spec_section(tmp_path, "Usable for cohorts at least <!-- one --> two cohorts after approval.\n")
    assert f.spec_lead.value == 2 and at(f.spec_lead) == ("endpoints_rules.md", 5, 42)
    f = _spec_section(tmp_path / "b", "Usable for cohorts\n**at least _three_ cohorts after** approval.\n")
    assert f.spec_lead.value == 3 and at(f.spec_lead) == ("endpoints_rules.md", 6, 13)


def test_a_fact_in_a_code_block_is_not_the_rule(tmp_path):
    f = _spec_section(tmp_path, (
        "```\nat least one cohort after\n```\n\n"
        "Drafters are usable at least\nfour cohorts after approval.\n"))
    assert f.spec_lead.value == 4 and at(f.spec_lead) == ("endpoints_rules.md", 10, 1)
