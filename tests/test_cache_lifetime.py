"""Where the cache will not outlive the run (CI, unless $DRAFTERLINT_CACHE chooses where it is
kept), no parsed document is written to it (issue 39, item 3): on a pull request the Action's
cache is thrown away with the job, and writing the model costs more than parsing it. Within
the run, a document the base and the head share is still parsed once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drafterlint.markdown import parse
from tests.helpers import paths_passed
from tests.helpers.samples import typo_pull_request


@pytest.fixture
def pull_request(tmp_path):
    return typo_pull_request(tmp_path)


def _parses(monkeypatch) -> list[str]:
    """The path of every document the parser is run on (each call goes through to it)."""
    return paths_passed(monkeypatch, parse, "parse_document")


def _entries(where: Path, kind: str) -> list[Path]:
    return sorted(where.rglob(f"{kind}-*.json"))


def test_in_ci_without_a_chosen_cache_no_document_is_written_and_none_parsed_twice(
        cli, pull_request, tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("DRAFTERLINT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "runner-cache"))
    parsed = _parses(monkeypatch)
    code, out, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", cwd=pull_request)
    assert code == 0, out  # the typo is pre-existing
    assert _entries(tmp_path / "runner-cache", "doc") == []
    assert _entries(tmp_path / "runner-cache", "run")  # the findings still are (small)
    # the head's two documents, and the base's version of the one the change touched
    assert sorted(parsed) == ["endpoints_rules.md", "endpoints_rules.md", "endpoints_submission_rules.md"]
    monkeypatch.undo()
    code2, out2, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", "--no-cache", cwd=pull_request)
    assert (code2, json.loads(out2)) == (code, json.loads(out))


@pytest.mark.parametrize("env", [{"CI": "true", "DRAFTERLINT_CACHE": "chosen"}, {"CI": "false"}, {}],
                         ids=["ci-with-a-chosen-cache", "ci-false", "a-developer"])
def test_a_cache_that_outlives_the_run_keeps_the_documents(cli, pull_request, tmp_path, monkeypatch, env):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("DRAFTERLINT_CACHE", str(tmp_path / "xdg" / "drafterlint"))
    for name, value in env.items():
        monkeypatch.setenv(name, str(tmp_path / value) if name == "DRAFTERLINT_CACHE" else value)
    code, _, _ = cli("check", "--base-ref", "HEAD~1", cwd=pull_request)
    assert code == 0
    assert len(_entries(tmp_path, "doc")) == 3
