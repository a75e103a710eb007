"""The rules document parsed in a second process is the same document, and every failure of
that process falls back to parsing here, with the usual findings."""

from __future__ import annotations

import os

import pytest

from drafterlint.markdown.parse import parse_document
from drafterlint.sources import PARSE_AHEAD_MIN_BYTES, RepoView

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
                                reason="parsing ahead needs fork and two cores")


def big_document() -> str:
    parts = ["# Rules\n"]
    n = 0
    while sum(map(len, parts)) < PARSE_AHEAD_MIN_BYTES * 2:
        n += 1
        parts.append(f"\n## {n}. Part {n}\n\nSee [§{n}](#{n}-part-{n}) and [next](#{n + 1}-part-{n + 1}).\n"
                     "- a list item with `code` and *emphasis*\n\n| a | b |\n|---|---|\n| [x](#top) | y |\n")
    return "".join(parts)


def test_document_parsed_ahead_is_the_same(tmp_path):
    text = big_document()
    (tmp_path / "rules.md").write_text(text)
    view = RepoView("rules", tmp_path)
    view.parse_ahead("rules.md")
    assert view.parsing_ahead("rules.md")
    doc = view.document("rules.md")
    assert not view.parsing_ahead("rules.md")
    expected = parse_document(text, "rules.md")
    assert doc.headings == expected.headings
    assert doc.links == expected.links
    assert doc.anchors() == expected.anchors()
    assert view.document("rules.md") is doc  # parsed once


def test_small_documents_are_parsed_here(tmp_path):
    (tmp_path / "rules.md").write_text("# Rules\n")
    view = RepoView("rules", tmp_path)
    view.parse_ahead("rules.md")
    assert not view.parsing_ahead("rules.md")


def test_a_failing_child_falls_back_to_the_usual_error(tmp_path):
    # Invalid UTF-8 deep inside: the child fails to decode; the parent reports DL702 itself.
    data = big_document().encode() + b"\nCaf\xe9\n"
    (tmp_path / "rules.md").write_bytes(data)
    view = RepoView("rules", tmp_path)
    view.parse_ahead("rules.md")
    from drafterlint.findings import UnreadableFile

    with pytest.raises(UnreadableFile) as err:
        view.document("rules.md")
    assert "UTF-8" in err.value.message and err.value.location.line > 1


def test_children_nobody_asked_for_are_reaped(tmp_path):
    (tmp_path / "rules.md").write_text(big_document())
    view = RepoView("rules", tmp_path)
    view.parse_ahead("rules.md")
    pid, result = view._ahead["rules.md"]
    view.finish_ahead()
    assert not view.parsing_ahead("rules.md")
    assert not os.path.exists(result)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
