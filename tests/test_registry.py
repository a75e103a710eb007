from pathlib import Path

from drafterlint.config import Config
from drafterlint.registry import load_registry
from drafterlint.registry.model import publisher
from drafterlint.sources import RepoView

FIX = Path(__file__).resolve().parent.parent / "rules_fixtures" / "registry_cases"
POL = "src/inference_endpoint/validation/policies"


def test_model_of_clean_fixture():
    reg = load_registry(RepoView("registry", FIX / "clean"), Config())
    assert reg.errors == [] and list(reg.policies) == ["2026-10-C1"]
    p = reg.policies["2026-10-C1"]
    assert str(p.cohort) == "2026-10-C1" and set(p.docs) >= {"catalog.yaml", "point_checks.yaml"}
    assert [h.method for h in p.heads] == ["eagle3", "mtp"]
    h = p.heads[1]
    assert h.bundled and h.publisher == "alpha-org"
    assert (h.location.path, h.location.line, h.location.column) == (f"{POL}/2026-10-C1/catalog.yaml", 10, 7)
    assert h.field_location("revision").line == 12
    assert [c.repository for c in p.checkpoints] == ["alpha-org/alpha-7b", "quant-co/alpha-7b-fp4"]
    assert p.params["lead_cohorts"].value == 2 and p.params["lead_cohorts"].location.line == 8
    assert p.versions["catalog.yaml"].value == "2026-10-C1"
    assert p.enrolled_models[0][0] == "alpha-7b"


def test_policies_sorted_by_cohort():
    reg = load_registry(RepoView("registry", FIX / "rewritten"), Config())
    assert list(reg.policies) == ["2026-10-C1", "2026-11-C0"]


def test_publisher():
    assert publisher("org/name") == "org" and publisher("noslash") is None and publisher(3) is None


def test_extra_list(tmp_path):
    f = tmp_path / "approved.yaml"
    f.write_text(
        "drafters:\n  - benchmark: alpha-7b\n    approved_cohort: 2026-09-C1\n"
        "    model_id: helper-lab/alpha-7b-eagle\n    weight_checksum: git-sha1:" + "a1" * 20 + "\n"
        "  - benchmark: beta\n    approved_cohort: 2026-09-C1\n    target_checksum: sha256:ff\n"
        "    configuration:\n      exit_layer: 24\n"
    )
    config = Config().merged({"registry": {"extra_lists": [
        {"name": "cli", "path": str(f), "format": "drafters"}]}})
    reg = load_registry(RepoView("registry", FIX / "clean"), config)
    (lst,) = reg.extra_lists
    a, b = lst.entries
    assert a.revision == "a1" * 20 and a.location.repo == "cli" and a.location.line == 2
    assert b.identified_by == "configuration" and b.configuration == {"exit_layer": 24}
    assert b.field_location("target_checksum").line == 8


def test_missing_extra_list_is_not_read_and_says_why(tmp_path):
    config = Config().merged({"registry": {"extra_lists": [
        {"name": "cfg", "path": str(tmp_path / "nope.yaml")}]}})
    reg = load_registry(RepoView("registry", FIX / "clean"), config)
    assert reg.errors == [] and reg.extra_lists == []
    assert reg.missing_extra_lists == [
        f"registry.extra_lists[0].path `{tmp_path / 'nope.yaml'}` does not exist: the list “cfg” is not compared"]


def test_an_extra_list_that_cannot_be_read_is_an_error(tmp_path):
    (tmp_path / "folder.yaml").mkdir()
    config = Config().merged({"registry": {"extra_lists": [{"name": "cfg", "path": str(tmp_path / "folder.yaml")}]}})
    reg = load_registry(RepoView("registry", FIX / "clean"), config)
    assert len(reg.errors) == 1 and reg.errors[0].location.repo == "cfg"
