"""What a run keeps: nothing past its own context (a process that checks many times, such as a
long-lived editor integration or this test suite, must not hold every document it ever read)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref

import pytest
from hypothesis import HealthCheck, given, settings

from drafterlint.config import Config
from drafterlint.engine import build_context, run
from drafterlint.markdown.parse import parse_document
from drafterlint.markdown.sections import MemoryStore, parse_sectioned
from tests.helpers import example_git_repos
from tests.helpers.gfm_documents import documents
from tests.helpers.gfm_regressions import REGRESSIONS


def test_a_run_keeps_no_document_alive_after_it(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text(
        "# Rules\n\n## 2. Models\n\nSee [models](#2-model).\n", encoding="utf-8")
    ctx = build_context(Config(), rules, None)
    result = run(ctx)
    # the broken fragment's suggestion is what builds the per-document anchor index
    assert any("did you mean `#2-models`" in (f.suggestion or "") for f in result.findings)
    doc = ctx.documents.main
    assert doc is not None
    gone = weakref.ref(doc)
    del ctx, result, doc
    gc.collect()
    assert gone() is None


def test_reading_documents_leaves_no_cyclic_garbage_with_the_collector_off(tmp_path):
    """The command line turns the cyclic collector off (cli.main); a parse's leftovers are
    reference cycles, so each document read frees its own (sources.RepoView.document): counted
    here as the unreachable objects a full collection still finds after reading many documents,
    which would grow with every document read (a 20,000-file tree peaked at twice the memory)."""
    from drafterlint.sources import RepoView

    for i in range(30):
        (tmp_path / f"page{i}.md").write_text(
            f"# Page {i}\n\n## 1. One\n\nSee [two](page{i + 1}.md#1-one) and *this*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
            "\n- item\n  > quote\n", encoding="utf-8")
    view = RepoView("rules", tmp_path)
    gc.collect()
    gc.disable()
    try:
        for i in range(30):
            view.document(f"page{i}.md")
        left = gc.collect()
    finally:
        gc.enable()
    assert len(view.parsed_documents()) == 30
    assert left < 30  # one parse alone leaves hundreds


def _cycles_left_by_parse(text: str) -> int:
    gc.collect()
    gc.disable()
    try:
        doc = parse_document(text, "page.md")
        left = gc.collect()
    finally:
        gc.enable()
    assert doc.path == "page.md"
    return left


# Containers of every kind, container tabs (the block parse done twice), a list item's lazy line
# that continues no paragraph (the list parsed again up to it), footnotes, a table in a quote.
_EVERY_CONTAINER = (
    "# T\n\n- a\n  > b\n- c\n\n>\t- d\n>\t\te\n\n1. f\n<div>\n\n[^1] x\n\n[^1]: n\n    more\n\n"
    "> | a | b |\n> |---|---|\n> | 1 | [l](#t) |\n\n- # h\nlazy\n\n> # q\nlazy\n\na\n2) \tb\n"
)


@pytest.mark.parametrize("text", [_EVERY_CONTAINER, *REGRESSIONS])
def test_a_document_parsed_whole_leaves_no_reference_cycles(text):
    """sources.RepoView parses a document whole without collecting after it (the cyclic
    collector's pass scanned the whole model it made): the parse must leave no cycle
    (PosState.release), or with the collector off each document read would keep its garbage."""
    assert _cycles_left_by_parse(text) == 0


@settings(max_examples=200, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents)
def test_a_generated_document_parsed_whole_leaves_no_reference_cycles(text):
    assert _cycles_left_by_parse(text) == 0


def _cycles_left_by_sectioned_parse(text: str, store: MemoryStore) -> int:
    gc.collect()
    gc.disable()
    try:
        doc, _ = parse_sectioned(text, "page.md", store)
        left = gc.collect()
    finally:
        gc.enable()
    assert doc.path == "page.md"
    return left


# Sections of every kind (containers, a list item's lazy line, a table in a quote) and cuts
# where a candidate heading is no cut (inside a fence, a setext underline, a list's lazy line).
_SECTIONED = "".join(
    f"## {i}. Part\n\nText [link](#{i}-part) and *this*.\n\n- a\n  > b\n- c\n\n> | a | b |\n> |---|---|\n"
    f"> | 1 | [l](#t) |\n\n```\n## not a cut {i}\n```\n\nSetext {i}\n---\n\n- # h\nlazy\n\n[r{i}]: /x\n\n"
    for i in range(12))


@pytest.mark.parametrize("persists", [False, True], ids=["the run's objects", "read back as JSON"])
def test_a_document_parsed_in_sections_leaves_no_reference_cycles(persists):
    """sources.RepoView no longer collects after a document parsed in sections (the collection
    scanned everything the run had made since the collector was turned off, on a run with one
    document changed the whole model read back from the cache): each section's parse is freed
    once read (PosState.release), whether its sections are parsed, reused, or one of them
    changed, and when the document turns out to need a whole parse."""
    store = MemoryStore(persists=persists)
    assert _cycles_left_by_sectioned_parse(_SECTIONED, store) == 0  # every section parsed
    assert _cycles_left_by_sectioned_parse(_SECTIONED, store) == 0  # every section reused
    changed = _SECTIONED.replace("Text [link](#5-part)", "Changed [link](#5-part)")
    assert _cycles_left_by_sectioned_parse(changed, store) == 0  # one parsed again
    whole = _SECTIONED.replace("## 3. Part\n", "> q\n## 3. Part\n")  # a quote's lazy heading: parsed whole
    assert parse_sectioned(whole, "page.md", MemoryStore())[1] is False
    assert _cycles_left_by_sectioned_parse(whole, MemoryStore()) == 0


def test_a_run_that_met_an_unreadable_file_is_freed_without_the_cyclic_collector(tmp_path):
    """The command line turns the cyclic collector off (cli.main), so a run's context must be
    freed by reference counting alone: a pull request's base is checked after the current run,
    which must not stay alive meanwhile (a 20,000-file tree's base doubled the memory). An
    error kept for DL702 (here the companion document missing, and an unreadable one) holds no
    frame, which would hold the context that keeps the error."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "endpoints_rules.md").write_text("# Rules\n\nSee [bad](bad.md#x).\n", encoding="utf-8")
    (rules / "bad.md").write_bytes(b"# Bad \xff\n")
    gc.collect()
    gc.disable()
    try:
        ctx = build_context(Config(), rules, None)
        result = run(ctx)
        assert {e.location.path for e in ctx.unreadable_met()} == {"bad.md", "endpoints_submission_rules.md"}
        assert result.unreadable == ["bad.md", "endpoints_submission_rules.md"]
        gone = weakref.ref(ctx)
        del ctx, result
        assert gone() is None
    finally:
        gc.enable()


# The console script in a fresh interpreter: each collection the cyclic collector starts once
# console() runs is a line of the file named first.
COLLECTIONS = (
    "import gc, sys\n"
    "log = open(sys.argv.pop(1), 'w', buffering=1)\n"
    "from drafterlint.front import console\n"
    "gc.callbacks.append(lambda phase, info: log.write(f\"{info['generation']}\\n\") if phase == 'start' else None)\n"
    "sys.argv[0] = 'drafterlint'\n"
    "console()\n"
)


def test_the_console_script_runs_without_the_cyclic_collector_from_its_start(tmp_path):
    """The collector is turned off as console() starts, not once the command line has been
    imported and parsed: imports make objects by the thousand, and it scanned them some 30
    times on a plain check (1 % of its instructions)."""
    rules, registry = example_git_repos(tmp_path)
    log = tmp_path / "collections.txt"
    env = {**os.environ, "DRAFTERLINT_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", COLLECTIONS, str(log), "check", "--rules-repo", str(rules),
                           "--registry-repo", str(registry)], cwd=rules, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1 and "error(s)" in proc.stdout, proc.stderr  # the example's planted defects
    assert log.read_text() == ""
