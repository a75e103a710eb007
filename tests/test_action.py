"""The GitHub Action: its entry script run as the runner runs it (inputs in INPUT_* variables,
GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, a workspace folder), action.yml's shape, and the
workflow files checked by actionlint and zizmor (offline) when they are installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import ACTION_INPUTS

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"


def git(cwd, *args):
    return subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid",
         "-c", "init.defaultBranch=main", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    ).stdout.strip()


def rules_doc(broken: int) -> str:
    links = "".join(f"- [gone {i}](#missing-{i})\n" for i in range(broken))
    return (
        "# Rules\n\n## 2.9 Model Equivalence Rules\n\nSee [§2.9](#29-model-equivalence-rules).\n\n"
        + links
    )


def outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def write_rules(where: Path, broken: int) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "endpoints_rules.md").write_text(rules_doc(broken), encoding="utf-8")
    # The link rules only: the fixture need not be a complete rules document for every rule.
    (where / ".drafterlint.yaml").write_text("select: [DL2]\n", encoding="utf-8")
    return where


def test_entry_annotates_summarises_and_sets_outputs(runner):
    write_rules(runner.workspace, broken=13)
    proc = runner({"rules-repo": ".", "sarif-file": "out/drafterlint.sarif",
                   "markdown-file": "out/drafterlint.md", "config": ".drafterlint.yaml"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    errors = [ln for ln in lines if ln.startswith("::error ")]
    assert len(errors) == 10  # GitHub shows ten per kind and step: nine findings and the count of the rest
    assert errors[0].startswith("::error file=endpoints_rules.md,line=7,col=3,title=DL201 broken-fragment::")
    rest = [ln for ln in lines if "not annotated" in ln]
    assert len(rest) == 1 and rest[0] == errors[-1]
    assert re.search(r"(\d+) more finding\(s\) were not annotated", rest[0]).group(1) == "4"

    out = outputs(runner.output)
    assert out["errors"] == "13"
    assert out["warnings"].isdigit() and out["infos"].isdigit()
    assert Path(out["json-file"]).is_file()
    assert out["sarif-file"] == str(runner.workspace / "out" / "drafterlint.sarif")
    assert Path(out["sarif-file"]).is_file() and Path(out["markdown-file"]).is_file()

    summary = runner.summary.read_text()
    assert "13 errors" in summary
    rows = [ln for ln in summary.splitlines() if ln.startswith("| ") and "`DL201`" in ln and ".md:" in ln]
    assert len(rows) == 13  # every finding, not only the annotated ones


def _pull_request(runner, first: int, second: int) -> str:
    """A workspace repository whose HEAD adds broken links to a base commit; returns the base."""
    ws = runner.workspace
    write_rules(ws, broken=first)
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "base")
    base = git(ws, "rev-parse", "HEAD")
    write_rules(ws, broken=second)
    git(ws, "commit", "--allow-empty", "-qam", "change")
    return base


def test_entry_on_a_pull_request_fails_only_on_new_findings(runner):
    base = _pull_request(runner, first=2, second=3)
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    commands = [ln.split(" ", 1)[0] for ln in proc.stdout.splitlines() if ln.startswith("::")]
    assert commands == ["::error", "::notice", "::notice"]  # the new one first
    summary = runner.summary.read_text()
    table = summary.split("<details>")[0]
    assert "missing-2" in table and "missing-0" not in table
    assert "2 pre-existing findings" in summary.split("<details>")[1]
    assert outputs(runner.output)["errors"] == "1"  # what fails the check, as a workflow gates on it
    # only-new: false fails on every finding.
    proc = runner({"rules-repo": ".", "base-ref": base, "only-new": "false"},
                  extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert [ln.split(" ", 1)[0] for ln in proc.stdout.splitlines() if ln.startswith("::")].count("::error") == 3
    assert outputs(runner.output)["errors"] == "3"
    # A push is judged against its previous tip (github.event.before, the base-ref default) too.
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "push"})
    assert proc.returncode == 1 and proc.stdout.count("::error ") == 1
    assert outputs(runner.output)["errors"] == "1"


def _push_event(runner, ref: str) -> dict:
    event = runner.temp / "event.json"
    event.write_text(json.dumps({"ref": ref, "before": "0" * 40, "repository": {"default_branch": "main"}}))
    return {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(event)}


def test_entry_on_a_push_of_a_new_branch_compares_with_where_it_left_the_default_branch(runner, tmp_path):
    # The default branch has two old defects; the new branch adds one. Its push event's `before`
    # is all zeros: the base is the merge base with origin's default branch.
    origin = tmp_path / "origin"
    write_rules(origin, broken=2)
    git(origin, "init", "-q")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "main")
    ws = runner.workspace
    git(ws, "clone", "-q", str(origin), ".")
    git(ws, "checkout", "-qb", "topic")
    write_rules(ws, broken=3)
    git(ws, "commit", "-qam", "topic")
    proc = runner({"rules-repo": ".", "base-ref": "0" * 40}, extra_env=_push_event(runner, "refs/heads/topic"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.count("::error ") == 1 and "missing-2" in proc.stdout.split("::error ")[1]
    # The first push of the default branch has nothing to compare with: every finding counts.
    git(ws, "checkout", "-q", "main")
    proc = runner({"rules-repo": ".", "base-ref": "0" * 40}, extra_env=_push_event(runner, "refs/heads/main"))
    assert proc.returncode == 1 and proc.stdout.count("::error ") == 2, proc.stdout + proc.stderr


def test_entry_on_a_pull_request_that_adds_nothing_broken_passes(runner):
    base = _pull_request(runner, first=2, second=2)
    (runner.workspace / "endpoints_rules.md").write_text(rules_doc(2) + "\nA typo fixd.\n", encoding="utf-8")
    git(runner.workspace, "commit", "-qam", "typo")
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "::error" not in proc.stdout


RENAMED_BASE = ("# Rules\n\n## 2.9 Model Equivalence Rules\n\nSee [§2.9](#29-model-equivalence-rules).\n\n"
                "## 3.1 Scope\n\nOld: [§3.1](#30-scope).\n")


def _renaming_pull_request(runner) -> str:
    """A change that renames a heading, breaking the link to it; the base has a broken link of
    its own. Returns the base."""
    ws = runner.workspace
    (ws / ".drafterlint.yaml").write_text("select: [DL2]\n", encoding="utf-8")
    (ws / "endpoints_rules.md").write_text(RENAMED_BASE, encoding="utf-8")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "base")
    base = git(ws, "rev-parse", "HEAD")
    renamed = RENAMED_BASE.replace("## 2.9 Model Equivalence Rules", "## 2.9 Model Equivalence")
    (ws / "endpoints_rules.md").write_text(renamed, encoding="utf-8")
    git(ws, "commit", "-qam", "rename")
    return base


def test_entry_suggests_the_fix_for_what_the_change_broke(runner):
    base = _renaming_pull_request(runner)
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the suggestion does not pass the check
    # The annotation names the rename and the command, with the base a reader of the PR can use.
    errors = [ln for ln in proc.stdout.splitlines() if ln.startswith("::error ")]
    assert len(errors) == 1 and "this change renamed it to §2.9 Model Equivalence" in errors[0]
    assert f"run `drafterlint fix --base-ref {base}`" in errors[0]
    patch = Path(outputs(runner.output)["fix-patch"])
    text = patch.read_text()
    assert "-See [§2.9](#29-model-equivalence-rules)." in text and "+See [§2.9](#29-model-equivalence)." in text
    changed = [ln for ln in text.splitlines() if ln.startswith(("-", "+")) and not ln.startswith(("---", "+++"))]
    assert not [ln for ln in changed if "30-scope" in ln]  # the base's own broken link is not this change's
    summary = runner.summary.read_text()
    assert "### drafterlint can repair 1 file" in summary and f"drafterlint fix --base-ref {base}" in summary
    assert "```diff\n" + text.rstrip("\n") + "\n```" in summary
    # the patch applies to the workspace as it is, which the action left untouched
    assert git(runner.workspace, "status", "--porcelain") == ""
    git(runner.workspace, "apply", "--check", str(patch))
    # when every finding counts (only-new: false), the base's defect is mended too
    proc = runner({"rules-repo": ".", "base-ref": base, "only-new": "false"}, extra_env={"GITHUB_EVENT_NAME": "push"})
    assert proc.returncode == 1
    text = Path(outputs(runner.output)["fix-patch"]).read_text()
    assert "+Old: [§3.1](#31-scope)." in text and "+See [§2.9](#29-model-equivalence)." in text


def test_entry_suggests_nothing_when_asked_not_to_or_when_nothing_can_be_repaired(runner):
    base = _renaming_pull_request(runner)
    proc = runner({"rules-repo": ".", "base-ref": base, "suggest-fixes": "false"},
                  extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 1 and outputs(runner.output)["fix-patch"] == ""
    assert "can repair" not in runner.summary.read_text()
    write_rules(runner.workspace, broken=2)  # links to headings that never existed: for a human
    git(runner.workspace, "commit", "-qam", "broken")
    proc = runner({"rules-repo": "."})
    assert proc.returncode == 1 and outputs(runner.output)["fix-patch"] == ""
    assert "can repair" not in runner.summary.read_text()


def test_entry_clean_run_exits_zero(runner):
    write_rules(runner.workspace, broken=0)
    proc = runner({"rules-repo": "."})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "::error" not in proc.stdout
    out = outputs(runner.output)
    assert out["errors"] == "0"
    assert "no errors" in runner.summary.read_text()


def test_entry_registry_in_a_subfolder_gets_workspace_relative_paths(runner):
    write_rules(runner.workspace / "policies_repo", broken=1)
    proc = runner({"rules-repo": "policies_repo"})
    assert proc.returncode == 1
    assert "::error file=policies_repo/endpoints_rules.md,line=7," in proc.stdout


def test_entry_markdown_format_appends_the_report_itself(runner):
    write_rules(runner.workspace, broken=2)
    proc = runner({"rules-repo": ".", "format": "markdown", "fail-on": "warning"})
    assert proc.returncode == 1
    assert "# drafterlint report" in proc.stdout  # the log gets the chosen format
    assert "# drafterlint report" in runner.summary.read_text()
    assert outputs(runner.output)["errors"] == "2"


def test_entry_syncs_a_repository_given_by_url(runner, tmp_path):
    source = write_rules(tmp_path / "upstream-rules", broken=1)
    git(source, "init", "-q")
    git(source, "add", ".")
    git(source, "commit", "-qm", "rules")
    (runner.workspace / ".drafterlint.yaml").write_text("select: [DL2]\n")
    proc = runner({"rules-url": str(source), "rules-ref": "main", "config": ".drafterlint.yaml"},
                  extra_env={"DRAFTERLINT_ALLOW_LOCAL_SYNC": "1"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "synced rules" in proc.stdout
    assert "title=DL201 broken-fragment" in proc.stdout
    # The checkout lives under the runner's temp directory, outside the workspace.
    assert list(runner.temp.glob("drafterlint-cache-rules-*/repos/*/fetched.json"))


def test_entry_sync_refuses_non_https_url(runner, tmp_path):
    for url in ("ext::sh -c id", "ext::sh", "file:///etc", "--upload-pack=id"):
        proc = runner({"rules-url": url})
        assert proc.returncode == 2, url
        assert "repository URL" in proc.stderr, url


@pytest.mark.parametrize("inputs, text", [
    ({"rules-repo": ".", "fail-on": "sometimes"}, "fail-on must be one of"),
    ({"rules-repo": ".", "format": "html"}, "format must be one of"),
    ({"rules-repo": ".", "rules-url": "https://github.com/a/b.git"}, "not both"),
])
def test_entry_bad_inputs(runner, inputs, text):
    write_rules(runner.workspace, broken=0)
    proc = runner(inputs)
    assert proc.returncode == 2
    assert proc.stdout.startswith("::error title=drafterlint action::")
    assert text in proc.stdout


def test_entry_unusable_repository_is_exit_2_with_empty_counts(runner):
    proc = runner({"rules-repo": "does-not-exist"})
    assert proc.returncode == 2
    out = outputs(runner.output)
    assert out["errors"] == "" and "could not run" in proc.stdout


def test_entry_prepare_keys_the_cache_on_the_package_files(runner):
    proc = runner({}, what="prepare")
    assert proc.returncode == 0, proc.stderr
    out = outputs(runner.output)
    assert re.fullmatch(r"drafterlint-venv-.+-py3\.\d+\.\d+-[0-9a-f]{16}-[0-9a-f]{20}", out["key"]), out["key"]
    # the restore key is the key without the package's digest: another checkout's virtualenv, on
    # the same system and Python, with the same lock only
    assert out["key"].startswith(out["restore-key"]) and len(out["key"]) == len(out["restore-key"]) + 20
    assert out["venv"]


def action_copy_key(action: Path) -> str:
    proc = subprocess.run([sys.executable, "-c", "import entry; print(entry.cache_key())"],
                          cwd=action / "action", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_cache_key_changes_with_any_file_the_package_is_built_from_and_the_lock(tmp_path):
    # An exact hit skips the install, so the key must change whenever the installed code would.
    action = tmp_path / "action-checkout"
    for part in ("action", "src", "schemas"):
        shutil.copytree(ROOT / part, action / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copy(ROOT / "pyproject.toml", action)
    key = action_copy_key(action)
    assert action_copy_key(action) == key
    (action / "README.md").write_text("not part of the installed code\n")
    (action / "src" / "drafterlint" / "__pycache__").mkdir(exist_ok=True)
    (action / "src" / "drafterlint" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    assert action_copy_key(action) == key
    for changed in ("src/drafterlint/cli.py", "schemas/catalog.schema.json", "pyproject.toml",
                    "action/requirements.lock"):
        original = (action / changed).read_bytes()
        (action / changed).write_bytes(original + b"\n")
        assert action_copy_key(action) != key, changed
        (action / changed).write_bytes(original)
    assert action_copy_key(action) == key


# -- action.yml ------------------------------------------------------------------------------


def action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def test_action_is_composite_with_the_documented_inputs_and_outputs():
    a = action()
    assert a["runs"]["using"] == "composite"
    assert set(a["inputs"]) == set(ACTION_INPUTS)
    assert a["inputs"]["base-ref"]["default"] == "${{ github.event.pull_request.base.sha || github.event.before }}"
    assert set(a["outputs"]) == {"errors", "warnings", "infos", "json-file", "sarif-file", "markdown-file", "fix-patch"}
    for name, spec in a["outputs"].items():
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}"


def test_action_never_interpolates_into_shell_text():
    steps = action()["runs"]["steps"]
    for step in steps:
        if "run" in step:
            assert "${{" not in step["run"], step["run"]
    run_step = next(s for s in steps if s.get("id") == "run")
    for name in ACTION_INPUTS:
        var = "INPUT_" + name.replace("-", "_").upper()
        assert run_step["env"][var] == f"${{{{ inputs.{name} }}}}"


def test_action_installs_from_its_own_checkout_into_a_cached_venv():
    steps = action()["runs"]["steps"]
    cache = next(s for s in steps if str(s.get("uses", "")).startswith("actions/cache@"))
    assert cache["with"]["key"] == "${{ steps.prep.outputs.key }}"
    assert cache["with"]["restore-keys"] == "${{ steps.prep.outputs.restore-key }}"
    install = next(s for s in steps if "entry.py\" install" in s.get("run", ""))
    assert install["env"]["CACHE_HIT"] == "${{ steps.cache.outputs.cache-hit }}"  # an exact hit installs nothing


# -- actionlint ------------------------------------------------------------------------------


def actionlint_exe() -> str | None:
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.exists() else shutil.which("actionlint")


needs_actionlint = pytest.mark.skipif(actionlint_exe() is None, reason="actionlint is not installed")

WORKFLOWS = sorted([*ROOT.glob("examples/workflows/*.yml"), *ROOT.glob(".github/workflows/*.yml")])


@needs_actionlint
@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: str(p.relative_to(ROOT)))
def test_workflows_pass_actionlint(workflow):
    proc = subprocess.run([actionlint_exe(), "-no-color", str(workflow)], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- zizmor ----------------------------------------------------------------------------------


def zizmor_exe() -> str | None:
    beside = Path(sys.executable).parent / "zizmor"
    return str(beside) if beside.exists() else shutil.which("zizmor")


@pytest.mark.skipif(zizmor_exe() is None, reason="zizmor is not installed (the test extra has it)")
@pytest.mark.parametrize("path", [*WORKFLOWS, ACTION, ROOT / ".github" / "dependabot.yml"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_workflows_pass_zizmor_offline(path):
    """Each file on its own: given a folder, zizmor may collect nothing from it (the examples are
    not under .github/workflows/). Exceptions live in .github/zizmor.yml, each with its reason."""
    proc = subprocess.run([zizmor_exe(), "--offline", "--no-progress", "--format=plain",
                           "--config", str(ROOT / ".github" / "zizmor.yml"), str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_actionlint
def test_action_metadata_passes_actionlint_through_a_local_use(tmp_path):
    """actionlint reads a local action's action.yml when a workflow uses it as `./`."""
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / "action.yml")
    with_inputs = "\n".join(f"          {name}: x" for name in ACTION_INPUTS)
    (tmp_path / ".github" / "workflows" / "use.yml").write_text(
        "name: use\non: pull_request\npermissions:\n  contents: read\njobs:\n  check:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v5\n"
        "      - id: d\n        uses: ./\n        with:\n" + with_inputs + "\n"
        "      - run: echo \"$E $W $I $J $S $M\"\n        env:\n"
        "          E: ${{ steps.d.outputs.errors }}\n          W: ${{ steps.d.outputs.warnings }}\n"
        "          I: ${{ steps.d.outputs.infos }}\n          J: ${{ steps.d.outputs.json-file }}\n"
        "          S: ${{ steps.d.outputs.sarif-file }}\n          M: ${{ steps.d.outputs.markdown-file }}\n"
    )
    git(tmp_path, "init", "-q")
    proc = subprocess.run([actionlint_exe(), "-no-color"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # And it does catch a wrong input name, so the check above means something.
    wf = tmp_path / ".github" / "workflows" / "use.yml"
    wf.write_text(wf.read_text().replace("          config: x", "          configuration: x"))
    proc = subprocess.run([actionlint_exe(), "-no-color"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1 and "configuration" in proc.stdout


def test_fetching_the_base_runs_nothing_the_checkout_configures(runner, tmp_path):
    """The entry fetches a base commit a shallow checkout lacks; the checkout's core.fsmonitor
    and hooks (core.hooksPath) must not run while it does."""
    source = tmp_path / "source"
    write_rules(source, broken=2)
    git(source, "init", "-q")
    git(source, "add", "-A")
    git(source, "commit", "-qm", "base")
    base = git(source, "rev-parse", "HEAD")
    write_rules(source, broken=3)
    git(source, "commit", "-qam", "change")
    ws = runner.workspace
    git(ws, "clone", "-q", "--depth=1", source.as_uri(), ".")
    marker = tmp_path / "MARKER"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("fsmonitor", "reference-transaction", "post-checkout", "post-merge"):
        (hooks / name).write_text(f"#!/bin/sh\necho \"$0\" >> '{marker}'\nexit 0\n")
        (hooks / name).chmod(0o755)
    git(ws, "config", "core.fsmonitor", str(hooks / "fsmonitor"))
    git(ws, "config", "core.hooksPath", str(hooks))
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "2 pre-existing findings" in runner.summary.read_text()  # the base was fetched
    assert not marker.exists(), marker.read_text()


def test_a_pull_request_that_ignores_the_link_rules_is_annotated_at_that_line(runner):
    ws = runner.workspace
    base = _pull_request(runner, first=2, second=2)
    (ws / ".drafterlint.yaml").write_text("select: [DL2]\nignore: [DL2]\n", encoding="utf-8")
    (ws / "endpoints_rules.md").write_text(rules_doc(3), encoding="utf-8")  # and a third broken link
    git(ws, "commit", "-qam", "silence the link rules")
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    errors = [ln for ln in proc.stdout.splitlines() if ln.startswith("::error ")]
    assert len(errors) == 1, proc.stdout
    assert errors[0].startswith("::error file=.drafterlint.yaml,line=2,col=10,title=DL901 weakened-check::"), errors
    assert "`ignore: DL2` turns off DL201, DL202, DL203, DL204, DL205, DL206: it hides 2 findings (2 errors) the " \
           "base shows" in errors[0]
    summary = runner.summary.read_text()
    first_row = next(ln for ln in summary.splitlines() if ln.startswith("| 1 | "))
    assert "`DL901`" in first_row and ".drafterlint.yaml" in first_row, summary
    assert outputs(runner.output)["errors"] == "1"
    # Meant, and said where the reviewer reads it: the line's own comment.
    (ws / ".drafterlint.yaml").write_text("select: [DL2]\nignore: [DL2]  # drafterlint: disable=DL901\n",
                                          encoding="utf-8")
    git(ws, "commit", "-qam", "say it")
    proc = runner({"rules-repo": ".", "base-ref": base}, extra_env={"GITHUB_EVENT_NAME": "pull_request"})
    assert proc.returncode == 0 and "::error " not in proc.stdout, proc.stdout + proc.stderr
