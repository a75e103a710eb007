"""A third copy of the approved list (the `drafters:` shape) held against the catalog (DL302)."""

from __future__ import annotations

import json

from tests.helpers.samples import CATALOG, REV_A, REV_B

CAT = "registry:src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"


def drafters(*entries: str) -> str:
    return "drafters:\n" + "".join(entries)


def entry(model_id: str, rev: str, cohort: str = "2026-09-C1", benchmark: str = "m1") -> str:
    return (f"  - benchmark: {benchmark}\n    approved_cohort: {cohort}\n"
            f"    model_id: {model_id}\n    weight_checksum: git-sha1:{rev}\n")


def run(cli, tmp_path, extra_text: str):
    reg = tmp_path / "registry"
    path = reg / CAT.split(":", 1)[1]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CATALOG)
    extra = tmp_path / "approved_drafters.yaml"
    extra.write_text(extra_text)
    code, out, err = cli("check", "--registry-repo", reg, "--extra-list", f"cli={extra}",
                         "--select", "DL302", "--format", "json")
    assert "Traceback" not in err
    return code, json.loads(out)["findings"]


def test_same_list_passes(cli, tmp_path):
    code, findings = run(cli, tmp_path, drafters(entry("orga/m1-eagle", REV_A)))
    assert findings == [] and code == 0


def test_entry_the_catalog_does_not_have(cli, tmp_path):
    code, findings = run(cli, tmp_path, drafters(entry("orga/m1-eagle", REV_A), entry("other/head", REV_B)))
    assert code == 1
    (f,) = findings
    assert (f["repo"], f["path"].endswith("approved_drafters.yaml"), f["line"], f["column"]) == ("cli", True, 6, 5)
    assert "other/head" in f["message"]


def test_cohort_disagreement_and_missing_head(cli, tmp_path):
    _, findings = run(cli, tmp_path, drafters(entry("orga/m1-eagle", REV_A, cohort="2026-10-C0")))
    assert [(f["repo"], f["line"], f["column"]) for f in findings] == [("cli", 3, 22)]
    assert "2026-10-C0" in findings[0]["message"] and "2026-09-C1" in findings[0]["message"]
    _, findings = run(cli, tmp_path, drafters(entry("orga/m1-eagle", REV_B)))
    lines = sorted((f["repo"], f["line"]) for f in findings)
    assert lines == [("cli", 2), ("registry", 5)]


def test_a_missing_list_on_the_command_line_is_a_usage_error(cli, tmp_path):
    code, out, err = cli("check", "--registry-repo", tmp_path, "--extra-list", f"cli={tmp_path / 'nope.yaml'}")
    assert (code, out) == (2, "")
    assert err == f"drafterlint: --extra-list cli={tmp_path / 'nope.yaml'}: no such file ({tmp_path / 'nope.yaml'})\n"


def test_a_missing_list_a_configuration_file_names_skips_its_comparison(cli, tmp_path):
    """As a registry.path that does not exist skips the registry's checks: the file may be absent
    from this checkout, which says nothing about the lists. The rest of DL302 still runs."""
    reg = tmp_path / "registry"
    path = reg / CAT.split(":", 1)[1]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CATALOG)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".drafterlint.yaml").write_text("registry:\n  extra_lists:\n    - {name: cfg, path: nope.yaml}\n")
    code, out, err = cli("check", "--registry-repo", reg, "--select", "DL302,DL7", cwd=tmp_path)
    assert code == 0, out + err
    assert "DL702" not in out and "Traceback" not in err
    assert "1 check skipped: DL302: registry.extra_lists[0].path `nope.yaml` does not exist (-v lists them)" in out
    code, out, _ = cli("check", "--registry-repo", reg, "--select", "DL302", "-v", cwd=tmp_path)
    skipped = [line for line in out.splitlines() if line.startswith("skipped")]
    assert skipped == ["skipped DL302: registry.extra_lists[0].path `nope.yaml` does not exist: the list “cfg” is not compared"]
