"""Requirements are read from the rules text: on the older versions of §2.9.4 (a placeholder, a
benchmark that designates one frozen drafter) the rules that hold today's requirements say
nothing, and on today's text (v1) they still catch every defect (rules_fixtures/eras)."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

from drafterlint.config import Config
from drafterlint.engine import build_context, run
from drafterlint.findings import Severity
from tests.helpers import edit_file

ERAS = Path(__file__).resolve().parents[1] / "rules_fixtures" / "eras"
CODES = ("DL101", "DL601", "DL602", "DL603", "DL503")
CAT = "src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"
POINT = "src/inference_endpoint/validation/policies/2026-11-C0/point_checks.yaml"
NO_LIST = "§2.9.4 of this version defines no approved-drafter list"
NO_NATIVE = "§2.9.4 of this version states no native-head rule"
NO_NATIVE_HEADS = "§2.9.4 of this version approves no head with its checkpoint (no native heads)"
# The wip version's companion has no §4.6 yet: its configuration says so.
NO_SEED = {"rules": {"companion_sections": {"seed-adoption": None}}}


def result(rules: Path, registry: Path | None = ERAS / "registry", config: dict | None = None, today=None):
    ctx = build_context(Config().merged(config or {}), rules, registry, today=today)
    return run(ctx)


def found(res, codes=CODES):
    return sorted((f.code, f.location.path, f.location.line, f.location.column)
                  for f in res.findings if f.code in codes)


def skipped(res) -> dict[str, str]:
    return {code: s.reason for s in res.skipped for code in s.code.split(",")}


@pytest.mark.parametrize("era,config", [("wip", NO_SEED), ("designated", None)])
def test_an_older_version_raises_nothing_its_text_does_not_require(era, config):
    res = result(ERAS / era / "rules", config=config)
    assert res.findings == [], [f"{f.code} {f.message}" for f in res.findings]
    said = skipped(res)
    assert said["DL601"] == said["DL602"] == said["DL603"] == said["DL401"] == NO_LIST
    assert said["DL503"] == NO_NATIVE
    assert said["DL501"] == said["DL504"] == NO_NATIVE_HEADS


def test_v1_holds_one_defect_the_third_party_head():
    res = result(ERAS / "v1" / "rules")
    assert found(res) == [("DL503", CAT, 12, 19)]
    (f,) = res.findings
    assert f.severity is Severity.ERROR
    # The notion of "native" is the text's, and the message says where the text states it.
    assert ("and §2.9.4 (endpoints_rules.md:18) counts a head as native only in its model "
            "publisher's checkpoint: it needs its own approval") in f.message
    assert [(r.path, r.line) for r in f.related] == [("endpoints_rules.md", 18)]
    assert not set(skipped(res)) & set(CODES)


def copy(tmp_path) -> Path:
    shutil.copytree(ERAS, tmp_path / "eras")
    return tmp_path / "eras"


V1 = "v1/rules/endpoints_rules.md"
LIST_ELSEWHERE = "https://github.com/someone/tool/blob/main/data/approved_drafters.yaml"


@pytest.mark.parametrize("file,old,new,expected", [
    pytest.param(V1, "Approved at least two cohorts", "Approved at least three cohorts",
                 ("DL601", "endpoints_rules.md", 48, 54), id="9.1-says-three"),
    pytest.param(V1, "**at least two\n  cohorts after**", "**after**",
                 ("DL601", "endpoints_rules.md", 7, 1), id="2.9.4-lost-its-lead-time"),
    pytest.param(V1, "| **Approved drafter** | The drafter is on the approved drafter list. | Reject. |\n", "",
                 ("DL602", "endpoints_rules.md", 44, 1), id="9.1-lost-the-list-row"),
    pytest.param("registry/" + POINT, "  spec-decode-head-approval-lead-time:\n    kind: spec_decode_head\n"
                 "    operation: approval_age\n", "  other-check:\n    kind: other\n",
                 ("DL602", POINT, 5, 1), id="policy-lost-the-lead-check"),
    pytest.param(V1, "https://github.com/mlcommons/endpoints/tree/main/src/inference_endpoint/validation/policies",
                 LIST_ELSEWHERE, ("DL603", "endpoints_rules.md", 15, 4), id="2.9.4-links-elsewhere"),
    pytest.param(V1, "([list](https://github.com/mlcommons/endpoints/blob/main/examples/10_Agentic_Inference/"
                 "README.md#approved-checkpoints-and-speculative-decoding-heads))", "",
                 ("DL603", "endpoints_rules.md", 37, 33), id="3.2-lost-its-link"),
])
def test_v1_still_catches_each_defect(tmp_path, file, old, new, expected):
    root = copy(tmp_path)
    edit_file(root / file, old, new)
    got = found(result(root / "v1" / "rules", root / "registry"), ("DL601", "DL602", "DL603"))
    assert got == [expected]


REG_CAT = "registry/" + CAT
REG_LIST = "registry/examples/10_Agentic_Inference/README.md"
FP4 = "c3" * 20
# Defects of the registry that only a requirement of the v1 text makes defects: a bundled head
# is approved with its checkpoint (DL501) and the list says which checkpoints ship one (DL504),
# a head is usable two cohorts after its approval (DL401, DL802).
REGISTRY_DEFECTS = [
    pytest.param(REG_CAT, f"revision: {FP4}\n      method: mtp", "revision: " + "d4" * 20 + "\n      method: mtp",
                 None, ("DL501", CAT, 13, 17), id="bundled-head-of-no-approved-checkpoint"),
    pytest.param(REG_LIST, "include a native MTP", "include a native EAGLE", None,
                 ("DL504", "examples/10_Agentic_Inference/README.md", 16, 1), id="list-claims-another-kind"),
    pytest.param(REG_CAT, "approved_cohort: 2026-09-C0", "approved_cohort: 2026-10-C1", None,
                 ("DL401", CAT, 8, 24), id="head-listed-before-its-lead-time"),
    pytest.param(REG_CAT, "approved_cohort: 2026-09-C0", "approved_cohort: 2026-10-C1", datetime.date(2026, 10, 1),
                 ("DL802", CAT, 8, 24), id="head-usable-soon"),
]


@pytest.mark.parametrize("file,old,new,today,expected", REGISTRY_DEFECTS)
def test_v1_catches_each_registry_defect_its_text_makes_one(tmp_path, file, old, new, today, expected):
    root = copy(tmp_path)
    edit_file(root / file, old, new)
    res = result(root / "v1" / "rules", root / "registry", today=today)
    assert found(res, (expected[0],)) == [expected]


@pytest.mark.parametrize("era,config", [("wip", NO_SEED), ("designated", None)])
@pytest.mark.parametrize("file,old,new,today,expected", REGISTRY_DEFECTS)
def test_an_older_version_skips_what_its_text_does_not_require(tmp_path, era, config, file, old, new, today, expected):
    root = copy(tmp_path)
    edit_file(root / file, old, new)
    res = result(root / era / "rules", root / "registry", config=config, today=today)
    code = expected[0]
    assert found(res, (code,)) == []
    assert skipped(res)[code] == (NO_NATIVE_HEADS if code in ("DL501", "DL504") else NO_LIST)


def test_without_the_rules_the_policy_s_own_lead_time_still_holds(tmp_path):
    # a run on the reference repository alone reads no version of the rules: the policy's
    # minimum_cohorts is the lead time (the registry's pre-commit hook)
    root = copy(tmp_path)
    edit_file(root / REG_CAT, "approved_cohort: 2026-09-C0", "approved_cohort: 2026-10-C1")
    assert found(result(None, root / "registry"), ("DL401",)) == [("DL401", CAT, 8, 24)]


def test_a_lead_time_only_the_check_table_states_is_required_of_2_9_4(tmp_path):
    root = copy(tmp_path)
    edit_file(root / V1, "**at least two\n  cohorts after**", "**after**")
    (f,) = [f for f in result(root / "v1" / "rules", root / "registry").findings if f.code == "DL601"]
    assert f.message.startswith("§2.9.4 states no approval lead time, but the “Drafter approval lead "
                                "time” row of the check table (endpoints_rules.md:47) says 2 cohorts")


def test_a_list_without_a_lead_time_asks_for_no_lead_time(tmp_path):
    # §2.9.4 and §9.1 both without a lead time: the text requires none; said once, skipped.
    root = copy(tmp_path)
    edit_file(root / V1, "**at least two\n  cohorts after**", "**after**")
    edit_file(root / V1, "| **Drafter approval lead time** | Approved at least two cohorts before `target_cohort`. | Reject. |\n", "")
    res = result(root / "v1" / "rules", root / "registry")
    assert found(res, ("DL601", "DL602")) == []
    assert skipped(res)["DL601"] == "§2.9.4 of this version states no approval lead time"


def test_the_designated_era_with_a_link_to_a_list_elsewhere_is_not_told_to_link_to_ours(tmp_path):
    root = copy(tmp_path)
    edit_file(root / "designated/rules/endpoints_rules.md", "speculative decoding is allowed only with it.",
         f"speculative decoding is allowed only with it ([drafters]({LIST_ELSEWHERE})).")
    assert found(result(root / "designated" / "rules", root / "registry")) == []


def test_dl503_without_the_rules_does_not_run():
    res = result(None, ERAS / "registry")
    assert found(res, ("DL503",)) == []
    assert "DL503" in skipped(res) and "no rules repository" in skipped(res)["DL503"]


def test_dl503_reads_the_sentence_the_configuration_names():
    # The configured pattern is the evidence the text must hold: here it does not.
    config = {"rule_options": {"DL503": {"native_rule": [r"only\s+the\s+publisher's\s+own\s+heads?\s+are\s+native"]}}}
    res = result(ERAS / "v1" / "rules", config=config)
    assert found(res, ("DL503",)) == [] and skipped(res)["DL503"] == NO_NATIVE
    config = {"rule_options": {"DL503": {"native_rule": [r"inside\s+a\s+third-party"]}}}
    (f,) = result(ERAS / "v1" / "rules", config=config).findings
    assert f.code == "DL503" and "(endpoints_rules.md:19)" in f.message


@pytest.mark.parametrize("setting,expected", [
    (None, [("DL101", "endpoints_submission_rules.md", 1, 1, Severity.ERROR)]),
    ({"number": "4.6", "title": "Seed Rotation", "required": False},
     [("DL101", "endpoints_submission_rules.md", 1, 1, Severity.INFO)]),
    ("null", []),
], ids=["configured", "not-required", "null"])
def test_dl101_severity_follows_what_the_configuration_says_of_the_version(setting, expected):
    config = {} if setting is None else {
        "rules": {"companion_sections": {"seed-adoption": None if setting == "null" else setting}}}
    res = result(ERAS / "wip" / "rules", config=config)
    got = [(f.code, f.location.path, f.location.line, f.location.column, f.severity)
           for f in res.findings]
    assert got == expected
    if setting is not None and setting != "null":
        assert "this version of the rules does not have it" in res.findings[0].message


def test_an_unreadable_rules_document_is_not_called_a_version_without_the_rule(tmp_path):
    root = copy(tmp_path)
    with open(root / V1, "ab") as fh:
        fh.write(b"\n\xe9\n")
    res = result(root / "v1" / "rules", root / "registry")
    assert [(f.code, f.location.path) for f in res.findings] == [("DL702", "endpoints_rules.md")]
    assert skipped(res)["DL503"] == "no speculative-decoding section to read the native-head rule from (DL101, DL702)"
