"""The cross-validation rules on the crossval fixture and on mutated copies of it."""

from __future__ import annotations

import shutil
from pathlib import Path

from drafterlint.cohorts import Calendar
from drafterlint.config import Config
from drafterlint.engine import build_context, run
from tests.helpers import edit_file

FIX = Path(__file__).resolve().parents[1] / "rules_fixtures" / "crossval"
POLICY = "src/inference_endpoint/validation/policies/2026-11-C0"
CODES = ("DL301", "DL302", "DL504", "DL601", "DL602", "DL603")


def findings(root: Path):
    ctx = build_context(Config(), root / "rules", root / "registry")
    return sorted((f.code, f.location.path, f.location.line, f.location.column)
                  for f in run(ctx).findings if f.code in CODES)


def copy(tmp_path) -> Path:
    shutil.copytree(FIX, tmp_path / "c")
    return tmp_path / "c"


def test_fixture_is_consistent():
    # Its §4.2 states 2nd and 4th Tuesday: the cohorts are computed with that calendar, so
    # it is not a mismatch with the tool (DL601 used to ask to "update the tool").
    assert findings(FIX) == []
    ctx = build_context(Config(), FIX / "rules", FIX / "registry")
    assert ctx.registry.calendar == Calendar.monthly(1, (2, 4))


def test_calendar_with_three_publications_a_month(tmp_path):
    root = copy(tmp_path)
    companion = root / "rules" / "endpoints_submission_rules.md"
    edit_file(companion, "2nd and 4th Tuesday of each month", "1st Monday, 2nd Monday and 4th Friday of each month")
    edit_file(companion, "- `YYYY-MM-C1` — published on the 4th Tuesday.",
         "- `YYYY-MM-C1` — published on the 2nd Monday.\n- `YYYY-MM-C2` — published on the 4th Friday.")
    edit_file(companion, "- `YYYY-MM-C0` — published on the 2nd Tuesday.", "- `YYYY-MM-C0` — published on the 1st Monday.")
    old = root / "registry" / POLICY
    shutil.copytree(old, old.parent / "2026-11-C2")
    for f in (old.parent / "2026-11-C2").glob("*.yaml"):
        f.write_text(f.read_text().replace("2026-11-C0", "2026-11-C2"))
    ctx = build_context(Config(), root / "rules", root / "registry")
    assert ctx.registry.calendar.per_month == 3
    codes = [(f.code, f.location.path) for f in run(ctx).findings]
    assert not [c for c in codes if c[0] in ("DL404", "DL405", "DL601")], codes  # C2 exists now
    assert ctx.registry.policies["2026-11-C2"].cohort - ctx.registry.policies["2026-11-C0"].cohort == 2


def test_calendar_bullet_that_disagrees(tmp_path):
    root = copy(tmp_path)
    edit_file(root / "rules" / "endpoints_submission_rules.md", "published on the 4th Tuesday", "published on the 3rd Tuesday")
    assert findings(root) == [("DL601", "endpoints_submission_rules.md", 14, 35)]  # at "3rd"


def test_policy_lead_time_changed_alone(tmp_path):
    root = copy(tmp_path)
    edit_file(root / "registry" / POLICY / "point_checks.yaml", "minimum_cohorts: 3", "minimum_cohorts: 4")
    assert ("DL601", f"{POLICY}/point_checks.yaml", 16, 22) in findings(root)


def test_table_lead_time_changed_alone(tmp_path):
    root = copy(tmp_path)
    edit_file(root / "rules" / "endpoints_rules.md", "Approved at least three", "Approved at least two")
    assert ("DL601", "endpoints_rules.md", 46, 54) in findings(root)


def test_lead_time_row_deleted(tmp_path):
    root = copy(tmp_path)
    p = root / "rules" / "endpoints_rules.md"
    p.write_text("\n".join(l for l in p.read_text().split("\n") if "Drafter approval lead" not in l))
    assert ("DL602", "endpoints_rules.md", 42, 1) in findings(root)


def approve_second_head(root: Path) -> None:
    """orgb/ModelOne-EAGLE approved too: a list naming it and orga/ModelOne copies the list."""
    edit_file(root / "registry" / POLICY / "catalog.yaml", "  approved_checkpoints:\n",
         "    - model: model-one\n      repository: orgb/ModelOne-EAGLE\n"
         "      revision: b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2\n"
         "      approved_cohort: 2026-09-C0\n      method: eagle\n  approved_checkpoints:\n")


def test_list_pasted_into_the_rules(tmp_path):
    root = copy(tmp_path)
    approve_second_head(root)
    edit_file(root / "rules" / "endpoints_rules.md", "An entry is either:",
         "Approved:\n\n- orga/ModelOne\n- orgb/ModelOne-EAGLE\n\nAn entry is either:")
    assert ("DL301", "endpoints_rules.md", 21, 1) in findings(root)


def test_list_pasted_into_a_document_found_by_glob(tmp_path):
    # `docs/pasted.md` is checked because `**/*` (the default rules.documents) names it:
    # DL301 reads the same resolved list of documents as the link rules.
    root = copy(tmp_path)
    approve_second_head(root)
    (root / "rules" / "docs").mkdir()
    (root / "rules" / "docs" / "pasted.md").write_text(
        "# Notes\n\nWhat we may use:\n\n- orga/ModelOne\n- orgb/ModelOne-EAGLE\n")
    assert ("DL301", "docs/pasted.md", 5, 1) in findings(root)


def test_every_check_reads_one_list_of_documents(tmp_path):
    # A broken link in the same globbed document is reported too: one list, not four.
    root = copy(tmp_path)
    (root / "rules" / "docs").mkdir()
    (root / "rules" / "docs" / "pasted.md").write_text("# Notes\n\nSee [nowhere](#nowhere).\n")
    ctx = build_context(Config(), root / "rules", root / "registry")
    checked = [doc.path for _view, doc in ctx.documents.checked]
    assert checked == ["endpoints_rules.md", "endpoints_submission_rules.md", "docs/pasted.md"]
    assert ("DL201", "docs/pasted.md", 3, 5) in [
        (f.code, f.location.path, f.location.line, f.location.column) for f in run(ctx).findings]


def test_checkpoint_removed_from_the_markdown_list(tmp_path):
    root = copy(tmp_path)
    readme = root / "registry" / "examples" / "10_Agentic_Inference" / "README.md"
    readme.write_text("\n".join(l for l in readme.read_text().split("\n") if "huggingface" not in l))
    assert ("DL302", f"{POLICY}/catalog.yaml", 13, 9) in findings(root)


def test_list_link_into_another_repository(tmp_path):
    root = copy(tmp_path)
    edit_file(root / "rules" / "endpoints_rules.md",
         "https://github.com/mlcommons/endpoints/tree/main/src/inference_endpoint/validation/policies",
         "https://github.com/someone/tool/blob/main/data/approved_drafters.yaml")
    assert ("DL603", "endpoints_rules.md", 17, 4) in findings(root)
