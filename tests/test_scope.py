"""The repository under change: only its findings fail a run, are annotated and go to SARIF; the
other repository's are one folded line. And what a person reads is quiet by default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import git_commit_all

ROOT = Path(__file__).resolve().parents[1]
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-2.1.0.schema.json"
POLICY = "src/inference_endpoint/validation/policies/2026-10-C0"

RULES = {
    "endpoints_rules.md": (
        "# Rules\n\n## 1. Intro\n\nSee [gone](#nowhere) and [elsewhere](https://github.com/someone/else/blob/main/x.md).\n"
        "\n## 2. More\n\nAlso [gone again](#nowhere-either), [third](https://github.com/someone/third/blob/main/y.md).\n"
    ),
    "endpoints_submission_rules.md": "# Submission\n\n## 1. Basics\n\nBack to [intro](endpoints_rules.md#1-intro).\n",
}
CLEAN_RULES = {**RULES, "endpoints_rules.md": "# Rules\n\n## 1. Intro\n\nNothing to see.\n"}
# A catalog that repeats a key (DL304) and has a checkpoint list of the wrong type (DL701).
CATALOG = (
    "version: 2026-10-C0\nrevision: 1\nversion: 2026-10-C0\ncatalogs:\n"
    "  approved_spec_decode_heads: []\n  approved_checkpoints: []\n"
)
SELECT = ("--select", "DL2,DL3,DL7")


def make(base: Path, rules: dict[str, str] = RULES, *, config: str | None = None, git: bool = True):
    """base/endpoints_policies (a git repository) and base/endpoints beside it."""
    rules_dir, registry = base / "endpoints_policies", base / "endpoints"
    for rel, text in rules.items():
        (rules_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (rules_dir / rel).write_text(text, encoding="utf-8")
    (registry / POLICY).mkdir(parents=True)
    (registry / POLICY / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    if config is not None:
        (rules_dir / ".drafterlint.yaml").write_text(config, encoding="utf-8")
    if git:
        git_commit_all(rules_dir, "2026-11-01")
        git_commit_all(registry, "2026-11-01")
    return rules_dir, registry


# -- scope -----------------------------------------------------------------------------------


def test_in_the_rules_repository_registry_findings_are_one_line_and_do_not_fail(cli, tmp_path):
    rules, registry = make(tmp_path, CLEAN_RULES)
    code, out, err = cli("check", "--registry-repo", registry, *SELECT, cwd=rules)
    assert code == 0, out + err
    lines = out.splitlines()
    assert "2 findings in mlcommons/endpoints, not changed here (2 errors): -v shows them" in lines
    assert not any("catalog.yaml" in ln for ln in lines)
    assert lines[-1] == "0 error(s), 0 warning(s), 0 info"
    # The same findings fail the run where they can be fixed, and when both are under change.
    code, out, _ = cli("check", "--rules-repo", rules, *SELECT, cwd=registry)
    assert code == 1
    assert f"{POLICY}/catalog.yaml:3:1: DL304 duplicate-key" in out
    assert "not changed here" not in out
    code, out, _ = cli("check", "--registry-repo", registry, "--scope", "all", *SELECT, cwd=rules)
    assert code == 1 and "not changed here" not in out


def test_paths_are_relative_to_the_working_directory_or_prefixed_never_dotted(cli, tmp_path):
    rules, registry = make(tmp_path, config="registry:\n  path: ../endpoints\n")
    code, out, _ = cli("check", "-v", *SELECT, cwd=rules)
    assert code == 1
    assert "endpoints_rules.md:5:5: DL201 broken-fragment" in out.splitlines()[0]
    assert f"mlcommons/endpoints/{POLICY}/catalog.yaml:3:1: DL304" in out
    assert ".." not in out.replace("...", "") and str(tmp_path) not in out
    # From the folder that holds both, each path is relative to it.
    code, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry, *SELECT, cwd=tmp_path)
    assert "endpoints_policies/endpoints_rules.md:5:5:" in out
    assert f"endpoints/{POLICY}/catalog.yaml:3:1:" in out


@pytest.mark.parametrize(("scope", "repos"), [
    ("mlcommons/endpoints", ["registry"]),
    ("a-fork/endpoints_policies", ["rules"]),  # a fork is the same repository
    ("registry", ["registry"]),
    ("someone/unrelated", ["rules"]),  # not a configured name: the working directory decides
])
def test_scope_by_name_as_the_action_passes_it(cli, tmp_path, scope, repos):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "--scope", scope, "--format", "json", *SELECT, cwd=rules)
    doc = json.loads(out)
    assert doc["scope"]["repositories"] == repos
    # JSON keeps every finding, and says which ones count.
    assert {f["repo"] for f in doc["findings"]} == {"rules", "registry"}
    assert all(f["in_scope"] == (f["repo"] in repos) for f in doc["findings"])
    assert code == 1  # both repositories have errors here


def test_undeterminable_scope_is_everything(cli, tmp_path):
    rules, registry = make(tmp_path, git=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, _ = cli("check", "--rules-repo", rules, "--registry-repo", registry, "--format", "json", *SELECT,
                       cwd=elsewhere)
    doc = json.loads(out)
    assert doc["scope"]["repositories"] == "all"
    assert all(f["in_scope"] for f in doc["findings"])


def test_bad_scope_is_a_usage_error(cli, tmp_path):
    rules, _ = make(tmp_path)
    code, out, err = cli("check", "--scope", "both", cwd=rules)
    assert code == 2 and "--scope takes rules, registry, all or OWNER/REPO" in err


def _sarif(cli, cwd, *args):
    code, out, err = cli("check", "--format", "sarif", *SELECT, *args, cwd=cwd)
    doc = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    assert [e.message for e in validator.iter_errors(doc)] == []
    return doc["runs"][0]


def test_rules_scope_sarif_holds_only_the_rules_repository_relative_to_srcroot(cli, tmp_path):
    rules, registry = make(tmp_path, config="registry:\n  path: ../endpoints\n")
    run = _sarif(cli, rules)
    text = json.dumps(run["results"])
    assert "catalog.yaml" not in text and "REGISTRY" not in text and "endpoints/" not in text
    bases = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] for r in run["results"]}
    assert bases == {"%SRCROOT%"}
    assert set(run["originalUriBaseIds"]) == {"%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == rules.resolve().as_uri() + "/"
    assert {r["ruleId"] for r in run["results"]} == {"DL201", "DL206"}
    run = _sarif(cli, registry, "--rules-repo", rules)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]} == {
        f"{POLICY}/catalog.yaml"}


def test_job_summary_folds_the_other_repository_and_annotations_skip_it(cli, tmp_path, monkeypatch):
    rules, registry = make(tmp_path, config="registry:\n  path: ../endpoints\n")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_WORKSPACE", str(rules))
    code, out, _ = cli("check", "--format", "github", *SELECT, cwd=rules)
    assert code == 1
    annotations = [ln for ln in out.splitlines() if ln.startswith("::")]
    assert annotations and all("file=endpoints_rules.md" in ln for ln in annotations)
    assert "drafterlint: 2 findings in mlcommons/endpoints, not changed here (2 errors): not annotated" in out
    text = summary.read_text()
    assert "<details>\n<summary>2 findings in mlcommons/endpoints, not changed here (2 errors)</summary>" in text
    head, _, folded = text.partition("<details>")
    assert "DL304" not in head and "DL304" in folded
    assert "**2 errors**" in head  # the verdict counts the rules repository only


def test_action_scopes_to_the_workflow_repository(tmp_path):
    rules, registry = make(tmp_path, CLEAN_RULES, config="select: [DL2, DL3, DL7]\nregistry:\n  path: ../endpoints\n")
    output, summary = tmp_path / "out.txt", tmp_path / "summary.md"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_", "DRAFTERLINT_"))}

    def run(repository):
        output.write_text("")
        summary.write_text("")
        env.update(GITHUB_WORKSPACE=str(rules), GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(summary),
                   RUNNER_TEMP=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg"), GITHUB_REPOSITORY=repository,
                   DRAFTERLINT_COMMAND=f"{sys.executable} -m drafterlint", INPUT_RULES_REPO=".",
                   INPUT_FAIL_ON="error", INPUT_FORMAT="github", DRAFTERLINT_NO_CACHE="1")
        proc = subprocess.run([sys.executable, str(ROOT / "action" / "entry.py"), "run"], cwd=rules, env=env,
                              capture_output=True, text=True, timeout=120)
        outs = dict(ln.split("=", 1) for ln in output.read_text().splitlines() if "=" in ln)
        return proc, outs

    proc, outs = run("mlcommons/endpoints_policies")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "::error" not in proc.stdout and outs["errors"] == "0"
    assert "not changed here" in summary.read_text()
    proc, outs = run("mlcommons/endpoints")
    assert proc.returncode == 1 and outs["errors"] == "2"
    assert "::error file=" in proc.stdout


# -- quiet where a person reads --------------------------------------------------------------


def test_text_is_quiet_by_default_and_says_how_to_see_more(cli, tmp_path):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "--select", "DL2,DL3,DL7,DL8", cwd=rules)
    lines = out.splitlines()
    assert [ln.split(":")[0] for ln in lines if ": DL" in ln] == ["endpoints_rules.md"] * 2  # the errors only
    assert "2 infos not shown: --show-info" in lines
    skipped = [ln for ln in lines if "skipped" in ln]
    assert len(skipped) == 1 and skipped[0].endswith("(-v lists them)")
    assert "need `drafterlint audit`" in skipped[0]
    assert "2 findings in mlcommons/endpoints, not changed here (2 errors): -v shows them" in lines
    assert len(lines) == 2 + 3 + 3  # two errors; infos, other repository, skipped; counts, reason, how to adopt
    assert lines[-1].startswith("to fail only on what a change introduces: record today's findings with "
                                "`drafterlint baseline`")

    code, shown, _ = cli("check", "--registry-repo", registry, "--show-info", *SELECT, cwd=rules)
    assert sum("DL206 unverifiable-link" in ln for ln in shown.splitlines()) == 2
    assert "not shown" not in shown


def test_quiet_prints_the_summary_and_why_it_fails(cli, tmp_path):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "-q", *SELECT, cwd=rules)
    assert code == 1
    assert out.splitlines() == [
        "2 error(s), 0 warning(s), 2 info",
        "fails: 2 findings in mlcommons/endpoints_policies at or above --fail-on error; "
        "the 2 findings in other repositories do not count",
    ]
    rules_clean, registry_clean = make(tmp_path / "clean", CLEAN_RULES)
    code, out, _ = cli("check", "--registry-repo", registry_clean, "-q", *SELECT, cwd=rules_clean)
    assert code == 0 and out.splitlines() == ["0 error(s), 0 warning(s), 0 info"]


def test_verbose_shows_everything(cli, tmp_path):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "-v", cwd=rules)
    assert sum("DL206" in ln for ln in out.splitlines()) == 2
    assert f"mlcommons/endpoints/{POLICY}/catalog.yaml:3:1: DL304" in out
    assert any(ln.startswith("skipped DL402") for ln in out.splitlines())
    assert "not shown" not in out and "-v lists them" not in out


def test_statistics_counts_per_rule_most_frequent_first(cli, tmp_path):
    rules, registry = make(tmp_path, config="registry:\n  path: ../endpoints\n")
    (rules / "more.md").write_text("# More\n\n[a](#x) [b](#y) [c](#z) [d](https://github.com/o/r/blob/main/z.md)\n")
    code, out, _ = cli("check", "-q", "--statistics", *SELECT, cwd=rules)
    lines = out.splitlines()
    assert lines[:2] == ["5     DL201 broken-fragment [error]", "3     DL206 unverifiable-link [info]"]
    assert len(lines) == 4  # the statistics of this repository, the summary, the reason


def test_json_and_sarif_keep_every_finding_of_the_scope(cli, tmp_path):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "-q", "--format", "json", *SELECT, cwd=rules)
    codes = sorted(f["code"] for f in json.loads(out)["findings"])
    assert codes == ["DL201", "DL201", "DL206", "DL206", "DL304", "DL701"]
    run = _sarif(cli, rules, "--registry-repo", registry, "-q")
    assert sorted(r["ruleId"] for r in run["results"]) == ["DL201", "DL201", "DL206", "DL206"]


def test_an_extra_list_is_shown_relative_to_the_working_directory_and_always_counts(cli, tmp_path):
    rules, registry = make(tmp_path)
    (rules / "lists").mkdir()
    (rules / "lists" / "drafters.yaml").write_text(
        "drafters:\n  - benchmark: m1\n    approved_cohort: 2026-09-C1\n    model_id: other/head\n"
        f"    weight_checksum: git-sha1:{'b2' * 20}\n")
    code, out, _ = cli("check", "--registry-repo", registry, "--extra-list", "cli=lists/drafters.yaml",
                       "--select", "DL302", cwd=rules)
    assert code == 1
    assert out.startswith("lists/drafters.yaml:2:5: DL302 list-drift:"), out
    assert "fails: 1 finding at or above --fail-on error" in out
    assert str(tmp_path) not in out


def test_exit_zero_says_the_run_would_fail_instead_of_that_it_fails(cli, tmp_path):
    rules, registry = make(tmp_path)
    code, out, _ = cli("check", "--registry-repo", registry, "--exit-zero", *SELECT, cwd=rules)
    assert code == 0
    assert "would fail (--exit-zero): " in out
    assert "\nfails: " not in out
