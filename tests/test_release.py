"""Releases and the pins that name them: the changelog, the release workflow, the distribution
check, and every place the documentation tells a user which version to pin.

The version scheme: a release is the tag `v` + drafterlint.__version__ (`vX.Y.Z`); the major tag
`vX` follows the newest release of its major version. pre-commit pins an exact release tag
(`rev: vX.Y.Z`, what `pre-commit autoupdate` writes); the action and git-URL installs pin the
major tag, an exact release tag, or a full commit sha. The pins are looked for in README.md,
every page under docs/ and everything under examples/, wherever the text moves between them.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

import drafterlint
from tests.helpers import ROOT

VERSION = drafterlint.__version__
RELEASE_TAG = f"v{VERSION}"
MAJOR_TAG = f"v{VERSION.split('.')[0]}"
SHA = re.compile(r"[0-9a-f]{40}")
HOOK_REPO = "https://github.com/mlcommons/drafterlint"


def doc_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted(p for p in (ROOT / "examples").rglob("*") if p.is_file())]
    return [p for p in files if p.suffix in (".md", ".yml", ".yaml")]


def blocks(path: Path) -> list[str]:
    """The YAML a user copies from a file: a Markdown page's fenced blocks, or the whole file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".md":
        return [text]
    return [m.group(2) for m in re.finditer(r"^(```|~~~)[^\n]*\n(.*?)^\1", text, re.M | re.S)]


def manifest_ids() -> set[str]:
    return {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}


def action_inputs() -> set[str]:
    return set(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"])


def precommit_snippets() -> list[tuple[Path, str]]:
    return [(p, b) for p in doc_files() for b in blocks(p) if f"repo: {HOOK_REPO}" in b]


def action_refs() -> list[tuple[Path, str]]:
    # Backticks end a ref too, so prose that spells out how a pin is written is not a pin.
    return [(p, m.group(1)) for p in doc_files()
            for m in re.finditer(r"mlcommons/drafterlint@([^\s\"'#`]+)", p.read_text(encoding="utf-8"))]


def test_the_version_is_a_release_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION


def test_precommit_snippets_pin_the_release_tag_and_name_hooks_that_exist():
    snippets = precommit_snippets()
    assert snippets, "no .pre-commit-config.yaml snippet found in README.md, docs/ or examples/"
    named: set[str] = set()
    for path, snippet in snippets:
        revs = re.findall(r"^\s*rev:\s*['\"]?([^\s'\"#]+)", snippet, re.M)
        assert revs, f"{path.name}: a snippet for {HOOK_REPO} without rev:"
        # Before the first tag, a snippet pins the commit it reads from the repository itself.
        reads_the_commit = f"rev=$(git ls-remote {HOOK_REPO} HEAD | cut -f1)" in snippet
        for rev in revs:
            assert rev == RELEASE_TAG or SHA.fullmatch(rev) or (rev == "$rev" and reads_the_commit), \
                f"{path.name}: rev: {rev} (expected {RELEASE_TAG})"
        # Commented alternatives (`# - id: drafterlint-fix`) must exist too.
        ids = set(re.findall(r"^[\s#-]*id:\s*([\w.-]+)", snippet, re.M))
        assert ids <= manifest_ids(), f"{path.name}: no such hook {sorted(ids - manifest_ids())}"
        named |= ids
    assert named == manifest_ids(), f"hooks the documentation never shows: {sorted(manifest_ids() - named)}"


def test_action_and_git_url_pins_follow_the_version_scheme():
    refs = action_refs()
    assert len(refs) >= 3, refs  # the README's snippet and the example workflows
    for path, ref in refs:
        assert ref in (MAJOR_TAG, RELEASE_TAG) or SHA.fullmatch(ref), \
            f"{path.name}: mlcommons/drafterlint@{ref} (expected @{MAJOR_TAG}, @{RELEASE_TAG} or a full commit sha)"


def test_action_snippets_use_inputs_the_action_has():
    uses = 0
    for path in doc_files():
        for block in blocks(path):
            if "mlcommons/drafterlint@" not in block:
                continue
            try:
                data = yaml.safe_load(block)
            except yaml.YAMLError:
                continue  # a shell line or a fragment, not a workflow
            if not isinstance(data, dict):
                continue
            for job in (data.get("jobs") or {}).values():
                for step in job.get("steps") or []:
                    if str(step.get("uses", "")).startswith("mlcommons/drafterlint@"):
                        uses += 1
                        unknown = set(step.get("with") or {}) - action_inputs()
                        assert not unknown, f"{path.name}: the action has no input {sorted(unknown)}"
    assert uses >= 3


# -- the changelog ---------------------------------------------------------------------------


def changelog_section():
    return runpy.run_path(str(ROOT / ".ci" / "changelog.py"), run_name="changelog")["section"]


def test_the_changelog_has_a_dated_section_for_the_declared_version():
    proc = subprocess.run([sys.executable, str(ROOT / ".ci" / "changelog.py"), VERSION],
                          capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "### Added" in proc.stdout or "### Changed" in proc.stdout or "### Fixed" in proc.stdout
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    assert re.search(rf"^\[{re.escape(VERSION)}\]: https://github\.com/mlcommons/drafterlint/", text, re.M)


def test_a_changelog_section_ends_at_the_next_version_or_the_links():
    section = changelog_section()
    text = ("# Changelog\n\n## [Unreleased]\n\n### Added\n\n- later\n\n## [1.2.0] - 2027-01-06\n\n"
            "### Fixed\n\n- this\n\n## [1.1.0] - 2026-12-02\n\n- older\n\n[1.2.0]: https://x\n")
    assert section(text, "1.2.0") == "### Fixed\n\n- this\n"
    assert section(text, "1.1.0") == "- older\n"
    with pytest.raises(LookupError, match="no dated section"):
        section(text, "1.3.0")  # still under Unreleased: no release may carry it
    with pytest.raises(LookupError, match="empty"):
        section("## [2.0.0] - 2027-02-03\n\n## [1.0.0] - 2026-01-01\n- x\n", "2.0.0")


# -- the release workflow ----------------------------------------------------------------------


def workflow(name: str) -> dict:
    data = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def test_the_release_workflow_publishes_by_trusted_publishing_after_the_gate():
    wf = workflow("release.yml")
    assert wf["on"]["push"]["tags"] == ["v[0-9]+.[0-9]+.[0-9]+"]
    assert wf["permissions"] == {}  # each job asks for what it needs
    jobs = wf["jobs"]
    assert all("permissions" in job for job in jobs.values())
    assert jobs["gate"]["uses"] == "$/.github/workflows/ci.yml"
    assert "workflow_call" in workflow("ci.yml")["on"]
    assert jobs["build"]["needs"] == "gate" and jobs["publish"]["needs"] == "build"
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    step = next(s for s in publish["steps"] if str(s.get("uses", "")).startswith("pypa/gh-action-pypi-publish@"))
    assert not set(step.get("with") or {}) & {"password", "user"}, "trusted publishing stores no token"
    assert "secrets." not in (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    build = "\n".join(s.get("run", "") for s in jobs["build"]["steps"])
    for command in ("python -m build", ".ci/check_dist.py dist --tag", "twine check --strict", ".ci/changelog.py"):
        assert command in build, command
    # the pipe into tee fails the step only under bash's pipefail (GitHub's `shell: bash`)
    assert all(s.get("shell") == "bash" for s in jobs["build"]["steps"] if "|" in s.get("run", ""))
    release = "\n".join(s.get("run", "") for s in jobs["github-release"]["steps"])
    assert "gh release create" in release and "--notes-file" in release
    assert 'major="${TAG%%.*}"' in release  # v0.1.0 -> v0: the tag the action pins


def test_no_checkout_leaves_its_credentials_behind_and_the_tag_is_pushed_with_an_explicit_token():
    for name in ("ci.yml", "release.yml", "mistune-latest.yml"):
        for job in workflow(name)["jobs"].values():
            for step in job.get("steps") or []:
                if str(step.get("uses", "")).startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, name
    steps = workflow("release.yml")["jobs"]["github-release"]["steps"]
    push = next(s for s in steps if "git push" in s.get("run", ""))
    assert push["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert re.search(r'git push --force "https://x-access-token:\$\{GH_TOKEN\}@github\.com/', push["run"])


# -- the distribution check ------------------------------------------------------------------


def fake_dist(folder: Path, extra: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> Path:
    """A wheel and sdist named and filled as the build makes them (files empty but METADATA)."""
    folder.mkdir()
    info = f"drafterlint-{VERSION}.dist-info"
    names = ["drafterlint/__init__.py", "drafterlint/py.typed", f"{info}/licenses/LICENSE",
             *(f"drafterlint/schemas/{p.name}" for p in (ROOT / "schemas").glob("*.json")),
             *(f"drafterlint/reprograms/{p.name}" for p in (ROOT / "src" / "drafterlint" / "reprograms").glob("*.bin")),
             *extra]
    with zipfile.ZipFile(folder / f"drafterlint-{VERSION}-py3-none-any.whl", "w") as zf:
        for name in names:
            if name not in drop:
                zf.writestr(name, "")
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.4\nName: drafterlint\nVersion: {VERSION}\n"
                                        "License-Expression: Apache-2.0\n")
    top = folder / f"drafterlint-{VERSION}"
    for name in ("PKG-INFO", "pyproject.toml", "LICENSE", "src/drafterlint/__init__.py"):
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        (top / name).write_text("")
    with tarfile.open(folder / f"drafterlint-{VERSION}.tar.gz", "w:gz") as tf:
        tf.add(top, arcname=top.name)
    return folder


def check_dist(dist: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / ".ci" / "check_dist.py"), str(dist), *args],
                          capture_output=True, text=True)


def test_check_dist_accepts_what_the_build_makes(tmp_path):
    proc = check_dist(fake_dist(tmp_path / "dist"), "--tag", RELEASE_TAG)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("extra, drop, says", [
    (("tests/test_cli.py",), (), "ships tests/test_cli.py"),
    (("drafterlint/tests/test_x.py",), (), "ships drafterlint/tests/test_x.py"),
    ((), ("drafterlint/py.typed",), "missing drafterlint/py.typed"),
    ((), ("drafterlint/schemas/catalog.schema.json",), "missing drafterlint/schemas/catalog.schema.json"),
    *(((), (f"drafterlint/reprograms/{table.name}",), f"missing drafterlint/reprograms/{table.name}")
      for table in sorted((ROOT / "src" / "drafterlint" / "reprograms").glob("*.bin"))[:1]),
])
def test_check_dist_refuses_a_wheel_without_its_data_or_with_tests(tmp_path, extra, drop, says):
    proc = check_dist(fake_dist(tmp_path / "dist", extra, drop))
    assert proc.returncode == 1 and says in proc.stderr, proc.stderr


def test_check_dist_refuses_a_tag_of_another_version(tmp_path):
    proc = check_dist(fake_dist(tmp_path / "dist"), "--tag", "v99.0.0")
    assert proc.returncode == 1 and f"expected {RELEASE_TAG}" in proc.stderr
