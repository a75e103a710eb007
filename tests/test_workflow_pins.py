"""Every action a workflow runs is pinned to a full commit sha with its version in a comment
(`uses: actions/checkout@<40 hex> # v5.1.0`): a tag or a branch can be moved under the workflow,
a commit cannot. Held for the project's workflows, action.yml (the user's pin of the action covers
what it runs only if action.yml pins in turn), the example workflows users copy (their commented
optional steps included: uncommented, they run) and the workflow snippets of README.md and docs/.

drafterlint's own action (`mlcommons/drafterlint@v0`) is the exception: the examples follow its
major tag, held by tests/test_release.py and allowed in .github/zizmor.yml. A local reference
(`./`, `$/`) is this repository at the same commit.

One action is pinned to one commit everywhere, so that Dependabot's pull request (it updates
.github/workflows/ and action.yml) fails here until the examples and snippets follow it.

And each job asks for the token permissions it needs, the workflow as a whole for none: a
permission granted at the top reaches every job, as `issues: write` once reached the audit's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT

OWN_ACTION = "mlcommons/drafterlint"
# `uses: owner/repo[/path]@ref  # comment`, also as a commented-out step (`#   - uses: …`).
USES = re.compile(r"^[ \t]*(?:#[ \t]*)?(?:-[ \t]+)?uses:[ \t]*(?P<ref>[^\s#]+)[ \t]*(?:#[ \t]*(?P<comment>.*))?$", re.M)
PINNED = re.compile(r"(?P<action>[\w.-]+/[\w.-]+(?:/[\w./-]+)?)@(?P<sha>[0-9a-f]{40})")
VERSION_COMMENT = re.compile(r"v\d+(?:\.\d+){0,2}")


def workflow_files() -> list[Path]:
    return sorted([*ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("examples/workflows/*.yml"), ROOT / "action.yml"])


def snippet_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def pin_problem(ref: str, comment: str | None) -> str | None:
    """What is wrong with one `uses:` reference, or None when it is pinned as it should be."""
    if ref.startswith(("./", "$/")) or ref.startswith(OWN_ACTION + "@"):
        return None
    if ref.startswith("docker://"):
        return None if re.search(r"@sha256:[0-9a-f]{64}$", ref) else "a container image not pinned by its digest"
    if not PINNED.fullmatch(ref):
        return "not pinned to a full 40-hex commit sha"
    if not comment or not VERSION_COMMENT.match(comment.strip()):
        return "no version comment after the sha (`# vX.Y.Z`, which Dependabot reads and updates)"
    return None


def uses_in(path: Path) -> list[tuple[int, str, str | None]]:
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m["ref"], m["comment"]) for m in USES.finditer(text)]


@pytest.mark.parametrize("path", workflow_files() + snippet_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_action_is_pinned_to_a_commit_with_its_version(path):
    problems = [f"{path.relative_to(ROOT)}:{line}: uses: {ref}: {problem}"
                for line, ref, comment in uses_in(path) if (problem := pin_problem(ref, comment))]
    assert problems == []


def test_the_workflows_use_actions_at_all():
    # The pattern must find the steps it is meant to hold, or the test above holds nothing.
    found = [ref for path in workflow_files() for _, ref, _ in uses_in(path)]
    assert sum(ref.startswith("actions/checkout@") for ref in found) >= 5, found
    assert any(ref.startswith("actions/cache@") for _, ref, _ in uses_in(ROOT / "action.yml"))
    assert any(ref.startswith("github/codeql-action/upload-sarif@") for ref in found), "the commented optional step"


def test_one_action_is_pinned_to_one_commit_and_version_everywhere():
    seen: dict[str, set[tuple[str, str]]] = {}
    for path in workflow_files() + snippet_files():
        for _, ref, comment in uses_in(path):
            if pinned := PINNED.fullmatch(ref):
                seen.setdefault(pinned["action"], set()).add((pinned["sha"], (comment or "").strip()))
    differing = {action: sorted(pins) for action, pins in seen.items() if len(pins) > 1}
    assert differing == {}, "move every copy of the pin together (docs/development.md, Pinned actions)"


@pytest.mark.parametrize("line, problem", [
    ("      - uses: actions/checkout@v5", "not pinned"),
    ("      - uses: actions/checkout@main", "not pinned"),
    ("      - uses: pypa/gh-action-pypi-publish@release/v1", "not pinned"),
    ("      - uses: actions/checkout@fbc6f39", "not pinned"),
    ("      - uses: actions/checkout@fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09", "no version comment"),
    ("      - uses: actions/checkout@fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09 # the latest", "no version comment"),
    ("  #     - uses: github/codeql-action/upload-sarif@v4", "not pinned"),
    ("    uses: octo/wf/.github/workflows/x.yml@v1", "not pinned"),
    ("      - uses: docker://alpine:3.20", "digest"),
])
def test_an_unpinned_reference_is_named(line, problem):
    (_, ref, comment), = [(0, m["ref"], m["comment"]) for m in USES.finditer(line)]
    assert problem in (pin_problem(ref, comment) or "")


@pytest.mark.parametrize("line", [
    "      - uses: actions/checkout@fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09 # v5.1.0",
    "  #     - uses: github/codeql-action/upload-sarif@8aad20d150bbac5944a9f9d289da16a4b0d87c1e # v4.36.2",
    "        uses: mlcommons/drafterlint@v0",
    "    uses: $/.github/workflows/ci.yml",
    "      - uses: ./",
])
def test_a_pinned_or_local_reference_passes(line):
    (_, ref, comment), = [(0, m["ref"], m["comment"]) for m in USES.finditer(line)]
    assert pin_problem(ref, comment) is None


@pytest.mark.parametrize("path", [p for p in workflow_files() if p.name != "action.yml"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_each_job_declares_its_permissions_and_the_workflow_none(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["permissions"] == {}
    assert [name for name, job in data["jobs"].items() if "permissions" not in job] == []
