"""Where the cache will not outlive the run (CI, unless $DRAFTERLINT_CACHE chooses where it is
kept), no parsed document is written to it (issue 39, item 3): on a pull request the Action's
cache is thrown away with the job, and writing the model costs more than parsing it. Within
the run, a document the base and the head share is still parsed once."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from drafterlint.markdown import parse
from drafterlint.markdown.model import Document
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


def _pages(root: Path, pages: int) -> None:
    """A docs tree of `pages` pages, committed, then one of them changed (a broken link added)."""
    from tests.helpers import git_commit_all

    (root / "docs").mkdir(parents=True)
    (root / "endpoints_rules.md").write_text("# Rules\n\nSee [page 0](docs/page0.md#1-one).\n", encoding="utf-8")
    for i in range(pages):
        (root / "docs" / f"page{i}.md").write_text(
            f"# Page {i}\n\n## 1. One\n\nSee [next](page{(i + 1) % pages}.md#1-one), [gone](#{i}-gone) "
            f"and §4.{i}.\n", encoding="utf-8")
    git_commit_all(root, "2026-01-01", "base")
    (root / "docs" / "page3.md").write_text("# Page 3\n\n## 1. One\n\nSee [first](page0.md#9-none).\n", encoding="utf-8")
    git_commit_all(root, "2026-01-02", "change")


def _in_ci(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("DRAFTERLINT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "runner-cache"))


def test_in_ci_the_base_parses_only_what_the_change_touched_and_holds_no_checked_document_whole(
        cli, tmp_path, monkeypatch):
    """What the base needs of a document the change left alone is its outline and what the
    rules' per-document parts read of its body (markdown.model.Body), not the parsed document:
    the run holds no checked document whole for the base (counted while the base is checked:
    the main document alone, however many pages), parses each unchanged document once, and
    makes one outline of each version of a document, whichever run read it first. The findings
    are those of a run without a cache."""
    from drafterlint.baserun import BaseRun

    root = tmp_path / "rules"
    pages = 12
    _pages(root, pages)
    _in_ci(monkeypatch, tmp_path)
    parsed = _parses(monkeypatch)
    outlined: list[str] = []
    summary = Document.summary

    def counted(doc):
        outlined.append(doc.path)
        return summary(doc)

    monkeypatch.setattr(Document, "summary", counted)
    whole: list[list[str]] = []
    checked = BaseRun.run

    def counting(base, today):
        checked(base, today)
        gc.collect()
        whole.append(sorted(o.path for o in gc.get_objects() if type(o) is Document))

    monkeypatch.setattr(BaseRun, "run", counting)
    code, out, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", cwd=root)
    assert code == 1, out  # the change added a broken link
    assert json.loads(out)["findings"]
    assert whole == [["endpoints_rules.md"]]  # (the head's and the base's: one, the bytes are the same)
    assert sorted(parsed) == sorted([*(p.relative_to(root).as_posix() for p in root.rglob("*.md")),
                                     "docs/page3.md"])
    assert sorted(outlined) == sorted([*(f"docs/page{i}.md" for i in range(pages)), "docs/page3.md"])
    monkeypatch.undo()
    code2, out2, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", "--no-cache", cwd=root)
    assert (code2, json.loads(out2)) == (code, json.loads(out))


def test_a_base_whose_configuration_reads_more_of_a_document_parses_it_again(cli, tmp_path, monkeypatch):
    """The base is checked with its own configuration file where the change edited it: a rule the
    change turned off (DL205, the bare references) read nothing of the documents in the current
    run, so the base parses each again for it, once. The findings are those of a run without a
    cache."""
    from tests.helpers import git_commit_all

    root = tmp_path / "rules"
    _pages(root, 4)
    (root / ".drafterlint.yaml").write_text("fail_on: error\n", encoding="utf-8")
    git_commit_all(root, "2026-01-03", "configured")
    (root / ".drafterlint.yaml").write_text("fail_on: error\nignore: [DL205]\n", encoding="utf-8")
    git_commit_all(root, "2026-01-04", "DL205 off")
    _in_ci(monkeypatch, tmp_path)
    parsed = _parses(monkeypatch)
    code, out, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", cwd=root)
    pages = [f"docs/page{i}.md" for i in range(4)]
    # each page by the current run, then again by the base as it is configured (the base as the
    # change configures it reads what the current run read)
    assert sorted(parsed) == sorted(["endpoints_rules.md", *pages, *pages])
    monkeypatch.undo()
    code2, out2, _ = cli("check", "--format", "json", "--base-ref", "HEAD~1", "--no-cache", cwd=root)
    assert (code2, json.loads(out2)) == (code, json.loads(out))
