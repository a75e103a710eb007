"""A user's mistakes are errors, not silent no-ops: unknown rule codes, and the tool's own reports."""

from __future__ import annotations

import json

import pytest

from tests.helpers import write_files

BROKEN = "# Title\n\n## 1. Intro\n\nSee [missing](#nowhere).\n"


@pytest.fixture
def rules(tmp_path):
    rules, _ = write_files({"rules:endpoints_rules.md": BROKEN}, tmp_path)
    return rules


@pytest.mark.parametrize(
    ("option", "value", "hint"),
    [
        ("--select", "DL999", "did you mean `DL901`?"),
        ("--select", "XX9", "the families are DL1xx, DL2xx"),
        ("--select", "DL209", "did you mean `DL206`?"),
        ("--ignore", "DL2O1", "did you mean `DL201`?"),
        ("--select", "broken-fragment", "did you mean `DL201`?"),
        ("--ignore", "DL201,XY", "the families are"),
    ],
)
def test_unknown_code_on_the_command_line_is_a_usage_error(cli, rules, option, value, hint):
    code, out, err = cli("check", "--rules-repo", rules, option, value)
    assert code == 2 and out == ""
    assert err.startswith(f"drafterlint: {option}: no rule code or prefix"), err
    assert hint in err
    assert "Traceback" not in err


def test_known_codes_and_prefixes_still_work(cli, rules):
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "dl2,DL201", "--format", "json")
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["DL201"]
    code, out, _ = cli("check", "--rules-repo", rules, "--select", "DL2", "--ignore", "DL20", "--format", "json")
    assert code == 0 and json.loads(out)["findings"] == []


@pytest.mark.parametrize(
    ("config", "line", "hint"),
    [
        ("select:\n  - DL2\n  - DL299\n", 3, "select: no rule code or prefix `DL299`; did you mean `DL206`?"),
        ("ignore: [DL104]\nseverity:\n  DL205: warning\n  DL909: info\n", 4, "severity: no rule code or prefix `DL909`"),
    ],
)
def test_unknown_code_in_the_configuration_names_file_and_line(cli, rules, tmp_path, config, line, hint):
    cfg = tmp_path / ".drafterlint.yaml"
    cfg.write_text(config)
    code, out, err = cli("check", "--rules-repo", rules, "--config", cfg)
    assert code == 2 and out == ""
    assert err.startswith(f"drafterlint: {cfg}:{line}: "), err
    assert hint in err


def test_own_markdown_report_written_into_the_repository_is_not_linted(cli, rules):
    report = rules / "docs" / "drafterlint-report.md"
    report.parent.mkdir()
    code, _, _ = cli("check", "--rules-repo", rules, "--format", "markdown", "--output", report)
    assert code == 1
    # The report quotes the broken fragment and has a table of links; as a document it would
    # produce findings of its own. The next run must see the same single finding.
    report.write_text(report.read_text() + "\n[again](#nowhere-else)\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--format", "json", "--select", "DL2")
    paths = {f["path"] for f in json.loads(out)["findings"]}
    assert paths == {"endpoints_rules.md"}


def test_own_audit_report_is_not_linted_but_a_named_one_is(cli, rules, tmp_path):
    from drafterlint.findings import REPORT_MARKER

    (rules / "audit.md").write_text(f"{REPORT_MARKER}\n# drafterlint audit\n\n[x](#gone)\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--format", "json", "--select", "DL2")
    assert {f["path"] for f in json.loads(out)["findings"]} == {"endpoints_rules.md"}
    # A document named in the configuration is the user's choice: it is checked.
    cfg = tmp_path / "named.yaml"
    cfg.write_text("rules:\n  documents: [endpoints_rules.md, audit.md]\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--config", cfg, "--format", "json", "--select", "DL2")
    assert {f["path"] for f in json.loads(out)["findings"]} == {"endpoints_rules.md", "audit.md"}


def test_a_document_that_merely_mentions_drafterlint_is_linted(cli, rules):
    (rules / "notes.md").write_text("# drafterlint report\n\nWe run drafterlint. [x](#gone)\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--format", "json", "--select", "DL2")
    assert {f["path"] for f in json.loads(out)["findings"]} == {"endpoints_rules.md", "notes.md"}


def test_swapped_repositories_are_a_usage_error_that_says_so(cli, tmp_path):
    rules, registry = write_files({"rules:endpoints_rules.md": BROKEN,
                                   "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml":
                                   "version: 2026-10-C1\n"}, tmp_path)
    # In the rules checkout, the two given the wrong way round: neither holds what it should.
    code, out, err = cli("check", "--rules-repo", registry, "--registry-repo", ".", cwd=rules)
    assert code == 2 and out == "", out
    assert err == (f"drafterlint: --rules-repo {registry}: expected the rules repository, but it has no "
                   "endpoints_rules.md; it looks like the reference repository (--rules-repo and "
                   "--registry-repo swapped?)\n")
    code, out, err = cli("check", "--rules-repo", ".", "--registry-repo", rules, cwd=rules)
    assert code == 2 and out == ""
    assert err == (f"drafterlint: --registry-repo {rules}: expected the reference repository, but it has no "
                   "policies folder src/inference_endpoint/validation/policies; it looks like the rules "
                   "repository (--rules-repo and --registry-repo swapped?)\n")
    # A folder that is neither: what was expected there, no guess.
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = cli("check", "--rules-repo", rules, "--registry-repo", empty)
    assert code == 2 and err.endswith("but it has no policies folder src/inference_endpoint/validation/policies\n")
    code, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry, "--select", "DL2")
    assert code == 1 and "#nowhere" in out  # the right way round
