"""A docs tree keeps of each checked document only its outline once the rules that read its body
ran on it (issue 39, item 4): counted here, never timed. Whole documents alive are counted at
each document's turn and after the run, and the findings are the same as a run that keeps every
document whole (what fix does)."""

from __future__ import annotations

import datetime
import gc
import weakref

import pytest

from drafterlint.checks.base import rule_by_code
from drafterlint.checks.context import Context
from drafterlint.config import Config
from drafterlint.documents import Documents
from drafterlint.engine import build_context, run
from drafterlint.markdown.model import Document, Summary

PAGES = 12
TODAY = datetime.date(2026, 12, 5)


def _tree(root):
    """Pages that link into one another's sections (some anchors gone), each with a table of
    contents missing an entry, a bare reference to a section it lacks, link text naming the
    wrong section, a passed TENTATIVE marker, and a suppression comment."""
    (root / "docs").mkdir(parents=True)
    (root / "endpoints_rules.md").write_text(
        "# Rules\n\n## 1. Pages\n\nThe first: [page 0](docs/page0.md#1-one-of-page-0), "
        "[gone](docs/page1.md#9-gone).\n", encoding="utf-8")
    for i in range(PAGES):
        j = (i + 1) % PAGES
        (root / "docs" / f"page{i}.md").write_text(
            f"# Page {i}\n\n## Contents\n\n- [One](#1-one-of-page-{i})\n\n"
            f"## 1. One of page {i}\n\nSee [§1](page{j}.md#1-one-of-page-{j}), [§3](page{j}.md#2-two-of-page-{j}) "
            f"and [old](page{j}.md#1-won-of-page-{j}); as in §7.1, too.\n\n"
            f"`[TENTATIVE — Subject to change after 2026-10-0{1 + i % 9}]`\n\n"
            f"## 2. Two of page {i}\n\n<!-- drafterlint-disable-next-line DL201 -->\n[nowhere](#nowhere)\n\n"
            f"| a | b |\n|---|---|\n| [back](#2-two-of-page-{i}) | [up](#2-too-of-page-{i}) |\n", encoding="utf-8")


def _seen(findings):
    return [(f.code, f.location.path, f.location.line, f.location.column, f.message, f.suggestion, f.context,
             f.ordinal) for f in findings]


def _whole_documents() -> list[Document]:
    gc.collect()
    return [o for o in gc.get_objects() if type(o) is Document]


def test_only_the_main_document_stays_whole_and_the_findings_are_those_of_whole_documents(tmp_path):
    _tree(tmp_path)
    whole = _seen(run(build_context(Config(), tmp_path, None, today=TODAY, whole=True)).findings)
    assert {"DL104", "DL201", "DL203", "DL205", "DL801"} <= {code for code, *_ in whole}
    assert not any(code == "DL201" and line == 15 for code, _path, line, *_ in whole)  # the suppressed one
    gc.collect()
    before = len(_whole_documents())

    ctx = build_context(Config(), tmp_path, None, today=TODAY)
    kept = [doc for _view, doc in ctx.documents.checked]
    assert len(kept) == PAGES + 1
    assert [type(doc) for doc in kept].count(Summary) == PAGES and ctx.documents.main in kept
    assert len(_whole_documents()) == before + 1  # the main document
    assert _seen(run(ctx).findings) == whole
    assert len(_whole_documents()) == before + 1


def test_at_most_one_checked_document_is_whole_while_they_are_read(tmp_path, monkeypatch):
    """Counted at each document's turn, with the collector off as the command line runs: the
    documents before it are already gone (by reference counting, no cycle keeps one)."""
    _tree(tmp_path)
    rule = rule_by_code("DL205")
    real = rule.check_document
    met: list[weakref.ref] = []
    alive: list[int] = []

    def counting(ctx, view, body):
        if body.outline is not ctx.documents.main:
            assert type(body.outline) is Document
            met.append(weakref.ref(body.outline))
            alive.append(sum(ref() is not None for ref in met))
        return real(ctx, view, body)

    monkeypatch.setattr(rule, "check_document", counting)
    gc.collect()
    gc.disable()
    try:
        build_context(Config(), tmp_path, None)
    finally:
        gc.enable()
    assert alive == [1] * PAGES


def test_a_context_prepared_without_reading_its_documents_reads_them_again_whole(tmp_path):
    """A context given its documents (prepared elsewhere) still runs each rule's per-document
    part, on each document read again where only its outline was kept."""
    _tree(tmp_path)
    ctx = build_context(Config(), tmp_path, None, today=TODAY)
    expected = _seen(run(build_context(Config(), tmp_path, None, today=TODAY)).findings)
    given = Documents(checked=list(ctx.documents.checked), main=ctx.documents.main)
    again = Context(config=ctx.config, rules=ctx.rules, today=TODAY, documents=given, sections=ctx.sections,
                    facts=ctx.facts, eligibility=ctx.eligibility, native=ctx.native,
                    unreadable_files=list(ctx.unreadable_files))
    assert _seen(run(again).findings) == expected


def test_a_crash_in_a_per_document_part_is_one_line_and_exit_2(cli, tmp_path, monkeypatch):
    _tree(tmp_path)
    rule = rule_by_code("DL205")

    def broken(ctx, view, doc):
        if doc.path == "docs/page3.md":
            raise KeyError("a bug")
        return ()

    monkeypatch.setattr(rule, "check_document", broken)
    code, _out, err = cli("check", "--no-cache", "--rules-repo", tmp_path, cwd=tmp_path)
    assert code == 2
    assert err.strip().splitlines()[-1] == (
        "drafterlint: internal error in rule DL205 section-ref-mismatch: KeyError: 'a bug' (please report this)")


def _headings(doc: Document) -> int:
    return len(doc.headings)


def test_a_body_is_read_by_a_function_of_the_document_alone_once(tmp_path):
    """What a per-document part reads (Body.read) is kept by the function that read it: a
    second Body over the same reads asks nothing of the document (a base's unchanged copy,
    given only its outline and the reads). A closure or a lambda, which could read the
    context, is refused: its value would be shared with a run of another context."""
    from drafterlint.markdown.model import Body
    from drafterlint.markdown.parse import parse_document

    doc = parse_document("# A\n\n## B\n", "a.md")
    reads: dict = {}
    assert Body(doc, reads).read(_headings) == 2
    assert reads == {_headings: 2}

    def never():
        raise AssertionError("read again")

    assert Body(doc.summary(), reads, never).read(_headings) == 2
    assert Body(doc.summary(), {}, lambda: doc).read(_headings) == 2  # read again where not kept
    limit = 1
    for fn in (lambda d: len(d.headings), lambda d: len(d.headings) > limit):
        with pytest.raises(TypeError, match="a module's function of the document alone"):
            Body(doc, {}).read(fn)
