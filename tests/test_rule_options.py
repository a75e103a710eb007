"""Rule options (`rule_options.CODE` in .drafterlint.yaml): the vocabularies and numbers the
rules do not state, with today's values as defaults, validated by the schema and shown by
`drafterlint explain`."""

from __future__ import annotations

import datetime

import pytest

from drafterlint.checks import toc_incomplete, unknown_head_method, upcoming_eligibility
from drafterlint.checks._eligibility import HORIZON
from drafterlint.checks._toc import TOC_TITLES
from drafterlint.commands import explain_text
from drafterlint.config import Config, load_config

DOC = "rules:endpoints_rules.md"


def test_toc_titles(engine):
    files = {DOC: "# Rules\n\n## Inhalt\n\n1. [Basics](#1-basics)\n\n## 1. Basics\n\n### 1.1 Scope\n"}
    found = lambda result: [(f.location.line, f.location.column) for f in result.findings if f.code == "DL104"]  # noqa: E731
    assert found(engine(files)) == []  # no heading titled as a table of contents: not checked
    opts = {"rule_options": {"DL104": {"toc_titles": ["Inhalt"]}}}
    assert found(engine(files, opts)) == [(9, 1)]


def _eligibility_files(approved: str) -> dict:
    (example,) = [e for e in upcoming_eligibility.EXAMPLES if e.expect]
    return {k: v.replace("2026-11-C1", approved) for k, v in example.files.items()}


def test_upcoming_eligibility_horizon(engine):
    # Audited 2026-12-02 (cohort 2026-12-C0); approved 2027-01-C0, lead 2: usable from
    # 2027-02-C0, four publications ahead.
    files = _eligibility_files("2027-01-C0")
    today = datetime.date(2026, 12, 2)
    codes = lambda result: [f.code for f in result.findings if f.code == "DL802"]  # noqa: E731
    assert codes(engine(files, today=today)) == ["DL802"]
    assert codes(engine(files, {"rule_options": {"DL802": {"horizon": 3}}}, today=today)) == []


def test_drafter_kinds_are_one_vocabulary(engine):
    (failing,) = [e for e in unknown_head_method.EXAMPLES if e.expect]
    files = {k: v.replace("eagel3", "lookahead") for k, v in failing.files.items()}
    assert [f.code for f in engine(files).findings if f.code == "DL502"] == ["DL502"]
    opts = {"rule_options": {"DL502": {"kinds": {"lookahead": ["Lookahead"]}}}}
    assert [f.code for f in engine(files, opts).findings if f.code == "DL502"] == []


@pytest.mark.parametrize("bad", [
    {"DL104": {"toc_titles": "Contents"}},
    {"DL802": {"horizon": 0}},
    {"DL502": {"kinds": {"Bad Id": ["x"]}}},
    {"DL802": {"horizn": 4}},
])
def test_schema_rejects_bad_options(bad, tmp_path):
    import yaml

    from drafterlint.findings import InputError

    cfg = tmp_path / ".drafterlint.yaml"
    cfg.write_text(yaml.safe_dump({"rule_options": bad}))
    with pytest.raises(InputError, match=".drafterlint.yaml"):
        load_config(cfg)


@pytest.mark.parametrize("code,option", [("DL104", "toc_titles"), ("DL502", "kinds"), ("DL802", "horizon")])
def test_explain_documents_the_options(code, option):
    text = explain_text(code)
    assert "Options (.drafterlint.yaml; these are the defaults):" in text
    assert f"{option}:" in text.split("Options", 1)[1]


def test_defaults_are_todays_vocabulary():
    config = Config()
    assert [t.lower() for t in TOC_TITLES.read(config)] == ["table of contents", "contents"]
    assert HORIZON.read(config) == 4
    assert {"mtp", "dspark", "eagle", "eagle3"} <= set(unknown_head_method.KINDS.read(config))
    assert toc_incomplete.RULE.code == "DL104"


def test_list_words(engine):
    from drafterlint.checks import list_drift

    (failing,) = [e for e in list_drift.EXAMPLES if e.title == "the catalog approves a revision the list lacks"]
    where = lambda result: sorted((f.location.line, f.location.column) for f in result.findings if f.code == "DL302")  # noqa: E731
    expected = sorted((line, col) for _, line, col in failing.expect)
    assert where(engine(failing.files)) == expected
    # "heads" opens a list of heads by default: the checkpoint bullet is read as a head.
    renamed = {k: v.replace("Approved model checkpoints:", "Approved heads:") for k, v in failing.files.items()}
    assert where(engine(renamed)) != expected
    opts = {"rule_options": {"DL302": {"list_words": {"head": ["drafters"]}}}}
    assert where(engine(renamed, opts)) == expected
