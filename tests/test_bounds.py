"""Bounded on anything a pull request or an answer can hold (issue 24): each formerly quadratic
path COUNTS its comparisons here (a counter around the function that compares), so a return to
N x M fails; each bound's refusal or finding is held on inputs small enough for the suite. The
hostile command-line cases (and their time and memory, measured by bench/hostile.py) are in
tests/test_hostile_bounds.py."""

from __future__ import annotations

import random
from http.server import BaseHTTPRequestHandler

import pytest

from tests.helpers import LoopbackServer, git_commit_all, send_json

# -- DL104: stale table-of-contents entries against headings ----------------------------------


def _toc_doc(entries: int, headings: int) -> str:
    toc = "".join(f"- [entry {i} zq](#gone-{i})\n" for i in range(entries))
    body = "".join(f"## {i}. heading {i} qz\n\n" for i in range(headings))
    return f"# Rules\n\n## Contents\n\n{toc}\n{body}"


def _count_calls(monkeypatch, module, name: str) -> list[int]:
    """Wrap module.name so that every call is counted (calls[0])."""
    calls = [0]
    real = getattr(module, name)

    def counted(*args, **kw):
        calls[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_dl104_title_comparisons_are_capped_not_entries_times_headings(engine, monkeypatch):
    from drafterlint.checks import toc_incomplete

    monkeypatch.setattr(toc_incomplete, "MAX_TITLE_COMPARISONS", 100)
    calls = _count_calls(monkeypatch, toc_incomplete, "similar_titles")
    result = engine({"rules:endpoints_rules.md": _toc_doc(60, 60)}, {"select": ["DL104"]})
    assert calls[0] <= 100  # 60 x 60 = 3 600 before
    assert len([f for f in result.findings if f.code == "DL104"]) >= 50  # still reported, as before


def test_dl104_a_renamed_entry_is_still_matched_by_spelling(engine):
    doc = ("# Rules\n\n## Contents\n\n- [1. Basics](#1-basics)\n- [Scope of rules](#2-scope)\n\n"
           "## 1. Basics\n\n## 2. Scope of the rules\n")
    result = engine({"rules:endpoints_rules.md": doc}, {"select": ["DL104"]})
    assert [f for f in result.findings if f.code == "DL104"] == []


def test_dl104_number_and_exact_title_match_beyond_the_cap(engine, monkeypatch):
    from drafterlint.checks import toc_incomplete

    monkeypatch.setattr(toc_incomplete, "MAX_TITLE_COMPARISONS", 0)
    doc = ("# Rules\n\n## Contents\n\n- [3. Old name](#old)\n- [Moved](#moved-old)\n\n"
           "## 3. New name\n\n## 4. Moved\n")
    result = engine({"rules:endpoints_rules.md": doc}, {"select": ["DL104"]})
    assert [f for f in result.findings if f.code == "DL104"] == []


# -- DL202: did-you-mean over the repository's files ------------------------------------------


def _candidates_counted(monkeypatch) -> list[int]:
    from drafterlint.checks import _links

    seen = [0]
    real = _links.closest

    def counted(word, candidates, cutoff):
        seen[0] += len(candidates)
        return real(word, candidates, cutoff)

    monkeypatch.setattr(_links, "closest", counted)
    return seen


def test_dl202_suggestions_weigh_a_bounded_number_of_files(engine, monkeypatch):
    n = 300
    files = {"rules:endpoints_rules.md": "# Rules\n\n" + "".join(
        f"[l{i}](docs/page-{i:05d}-missing.md)\n" for i in range(n))}
    files.update({f"rules:docs/page-{i:05d}.txt": "" for i in range(n)})
    seen = _candidates_counted(monkeypatch)
    result = engine(files, {"select": ["DL202"]})
    broken = [f for f in result.findings if f.code == "DL202"]
    assert len(broken) == n
    assert seen[0] <= n * 40  # every file for every link before: n x n = 90 000
    assert broken[7].suggestion == "did you mean `docs/page-00007.txt`?"


@pytest.mark.parametrize("target,meant", [
    ("guide/setup.md", "docs/setup.md"),  # the right name in another folder
    ("docs/setpu.md", "docs/setup.md"),  # a typo late in the name
    ("docs/setup.markdown", "docs/setup.md"),  # another extension
])
def test_dl202_suggestions_find_the_usual_mistakes(engine, target, meant):
    files = {"rules:endpoints_rules.md": f"# Rules\n\n[x]({target})\n", "rules:docs/setup.md": "# S\n"}
    files.update({f"rules:docs/other-{i:03d}.md": "# O\n" for i in range(100)})
    result = engine(files, {"select": ["DL202"]})
    [f] = [f for f in result.findings if f.code == "DL202"]
    assert f.suggestion == f"did you mean `{meant}`?"


def test_anchor_suggestions_weigh_a_bounded_number_of_anchors(engine, monkeypatch):
    from drafterlint.checks import _links

    doc = "# Rules\n\n" + "".join(f"## Part {i} words\n\n" for i in range(600))
    doc += "".join(f"[x](#part-words-{'-'.join(['words'] * 50)}-{i})\n" for i in range(100))
    seen = _candidates_counted(monkeypatch)
    engine({"rules:endpoints_rules.md": doc}, {"select": ["DL201"]})
    assert seen[0] <= 100 * _links.MAX_ANCHOR_CANDIDATES


# -- globs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pattern,path,expected", [
    ("**/*.md", "a.md", True), ("**/*.md", "a/b/c.md", True), ("docs/*.md", "docs/x/a.md", False),
    ("*.md", "a/b.md", False), ("a/**", "a/b", True), ("a/**", "a/b/c", False),
    ("docs/**/x.md", "docs/x.md", True), ("?.md", "ab.md", False), ("a*b*c", "aXbYc", True),
    ("a*b*c", "aXbY", False), ("[x].md", "[x].md", True), ("[x].md", "x.md", False),
])
def test_glob_semantics(pattern, path, expected):
    from drafterlint.sources import Glob

    assert Glob(pattern).match(path) is expected


def test_glob_steps_are_bounded_by_parts_times_names(monkeypatch):
    from drafterlint import sources

    calls = _count_calls(monkeypatch, sources, "_name_matches")
    deep = "/".join(["aaaaaaaa"] * 30) + "/y.md"
    assert not sources.Glob("**/" * 25 + "z.md").match(deep)
    assert calls[0] <= 26 * 31  # each (pattern part, path part) pair once
    assert not sources.Glob("*a" * 20 + "*b.md").match("a" * 200 + ".md")


# -- the Link header ------------------------------------------------------------------------


def test_link_header_next_and_hostile():
    from drafterlint.githubapi import next_link

    assert next_link('<https://h/x?page=2>; rel="next", <https://h/x?page=9>; rel="last"') == "https://h/x?page=2"
    assert next_link('<https://h/x?page=1>; rel="prev"') is None
    assert next_link("<" * 65_000) is None
    assert next_link("<a" * 30_000 + ">; rel=next") is not None


# -- YAML -------------------------------------------------------------------------------------


def test_base_60_numbers_are_text():
    from drafterlint.registry.yamlload import load_yaml_text

    doc = load_yaml_text("a: " + "1:" * 40_000 + "1\nb: 1:30\nc: 1:30.5\nd: 12\ne: 1.5\n", "x.yaml")
    assert isinstance(doc.value["a"], str)
    assert (doc.value["b"], doc.value["c"], doc.value["d"], doc.value["e"]) == ("1:30", "1:30.5", 12, 1.5)


# -- Markdown: blocks, lines, the longest block -------------------------------------------------


def test_block_count_of_a_small_document():
    from drafterlint.markdown.limits import block_count

    text = "# T\n\nPara one\nstill one.\n\n- a\n- b\n\n| x |\n|---|\n| y |\n\n> q\n"
    c = block_count(text)
    assert (c.lines, c.longest) == (text.count("\n") + 1, 3)
    assert c.blocks >= 8  # heading, paragraph, two items, three table rows, the quote


@pytest.mark.parametrize("limit,text", [
    ("MAX_BLOCKS", "#\n" * 21),
    ("MAX_LINES", "w\n\n" * 11),
    ("MAX_BLOCK_LINES", "w\n" * 6),
])
def test_a_document_over_a_block_bound_is_refused_before_parsing(monkeypatch, limit, text):
    from drafterlint.markdown import limits, parse

    monkeypatch.setattr(limits, limit, {"MAX_BLOCKS": 20, "MAX_LINES": 20, "MAX_BLOCK_LINES": 5}[limit])
    with pytest.raises(parse.TooComplex, match="limit"):
        parse.parse_document(text, "x.md")


@pytest.mark.parametrize("max_blocks,max_block_lines", [(20, 60_000), (7, 60_000), (30_000, 5), (8, 3)])
def test_block_bounds_judged_as_if_every_document_were_counted(monkeypatch, max_blocks, max_block_lines):
    """A document too short to pass a block bound is not counted (limits.may_pass_a_block_bound):
    the verdicts are those of counting every one, on documents of up to two blocks a line
    (a heading alone between blank lines is a run and a line that opens a block)."""
    from drafterlint.markdown import limits

    monkeypatch.setattr(limits, "MAX_BLOCKS", max_blocks)
    monkeypatch.setattr(limits, "MAX_BLOCK_LINES", max_block_lines)
    texts = [shape * k + tail for shape in ("#\n\n", "#\n", "w\n", "- a\n  b\n", "| x |\n", "\n")
             for k in range(14) for tail in ("", "#", "w")]
    for text in texts:
        size = limits.block_count(text)
        refused = size.blocks > max_blocks or size.longest > max_block_lines
        try:
            limits.refuse_if_too_big(text, limits.MAX_MARKUP)
        except limits.TooComplex:
            assert refused, text
        else:
            assert not refused, text


def test_a_document_too_short_to_pass_a_block_bound_is_not_counted(monkeypatch):
    from drafterlint.markdown import limits

    calls = _count_calls(monkeypatch, limits, "block_count")
    limits.refuse_if_too_big("# T\n\npara\n- item\n" * 1000, limits.MAX_MARKUP)
    assert calls == [0]
    limits.refuse_if_too_big("w\n" * (limits.MAX_BLOCKS // 2), limits.MAX_MARKUP)
    assert calls == [1]


# -- check --base-ref: the base as the head is read ---------------------------------------------


def test_base_tree_reads_only_what_checks_read(tmp_path):
    from drafterlint.basetree import extract

    root = tmp_path / "repo"
    root.mkdir()
    (root / "rules.md").write_text("# Rules\n")
    (root / "data.bin").write_bytes(b"\x01" * 5000)
    (root / "big.md").write_text("x" * 300)
    (root / "sub").mkdir()
    (root / "sub" / "c.yaml").write_text("a: 1\n")
    commit = git_commit_all(root, "2026-01-01")
    dest = tmp_path / "base"
    dest.mkdir()
    extract(root, commit, dest, max_bytes=200)
    assert (dest / "rules.md").read_text() == "# Rules\n"
    assert (dest / "sub" / "c.yaml").read_text() == "a: 1\n"
    # not read from git: placeholders of the right size (for listings, links and the size limit)
    assert (dest / "data.bin").read_bytes() == b"\0" * 5000
    assert (dest / "big.md").stat().st_size == 300 and set((dest / "big.md").read_bytes()) == {0}


def test_base_tree_of_many_files_streams_them_all(tmp_path):
    from drafterlint.basetree import extract

    root = tmp_path / "repo"
    (root / "d").mkdir(parents=True)
    for i in range(3000):  # more names than one pipe buffer holds
        (root / "d" / f"f{i:04d}.md").write_text(f"# {i}\n")
    commit = git_commit_all(root, "2026-01-01")
    dest = tmp_path / "base"
    dest.mkdir()
    extract(root, commit, dest)
    assert (dest / "d" / "f2999.md").read_text() == "# 2999\n"
    assert len(list((dest / "d").iterdir())) == 3000


def test_changed_lines_skip_files_no_check_reads(tmp_path):
    from drafterlint.gitops import changed_lines

    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.md").write_text("one\n")
    (root / "b.txt").write_text("one\n")
    git_commit_all(root, "2026-01-01")
    (root / "a.md").write_text("one\ntwo\n")
    (root / "b.txt").write_text("one\ntwo\n")
    git_commit_all(root, "2026-01-02")
    assert changed_lines(root, "HEAD~1") == {"a.md": {2}}


# -- JSON answers ---------------------------------------------------------------------------------


def test_json_answer_over_the_item_bound_is_refused():
    from drafterlint.answers import MAX_ITEMS, AnswerTooComplex, json_of

    assert json_of(b'{"a": [1, 2, {"b": null}]}', "it") == {"a": [1, 2, {"b": None}]}
    with pytest.raises(AnswerTooComplex, match="values"):
        json_of(b"[" + b"{}," * MAX_ITEMS + b"{}]", "it")


@pytest.mark.parametrize("depth", [65, 100_000])
def test_json_answer_nested_too_deep_is_refused(depth):
    from drafterlint.answers import AnswerTooComplex, json_of

    with pytest.raises(AnswerTooComplex, match="nested"):
        json_of(b"[" * depth + b"]" * depth, "it")
    json_of(b"[" * 64 + b"]" * 64, "it")


class _Serve(LoopbackServer):
    """A loopback server answering every request with one body and header set."""

    def __init__(self, body: bytes, headers: dict[str, str] | None = None):
        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                send_json(self, 200, body, headers)

        super().__init__(H)


def test_github_issue_list_over_the_item_bound_is_a_clear_error(monkeypatch):
    from drafterlint import answers
    from drafterlint.githubapi import GitHubClient, GitHubError

    monkeypatch.setattr(answers, "MAX_ITEMS", 100)
    with _Serve(b"[" + b"{}," * 200 + b"{}]") as srv:
        client = GitHubClient(srv.url, "o/r", "t", retries=0)
        with pytest.raises(GitHubError, match="more than 100 values"):
            client.find_open("someone")


def test_hub_file_over_the_item_bound_is_unknown(monkeypatch):
    from drafterlint import answers
    from drafterlint.hub import UNKNOWN, HubClient

    monkeypatch.setattr(answers, "MAX_ITEMS", 100)
    with _Serve(b'{"x": [' + b"{}," * 200 + b"{}]}") as srv:
        answer = HubClient(srv.url, retries=0).json_file("org/name", "a" * 40, "config.json")
    assert answer.state == UNKNOWN and "more than 100 values" in answer.detail


def test_hub_files_keep_only_what_the_table_reads():
    from drafterlint.checks._native import MethodEvidence, Table, _read_weights, kept_config, kept_index

    table = Table({"mtp": MethodEvidence("mtp", ("num_nextn_predict_layers",), (r"\.mtp\.", r"layers\.(?P<layer>\d+)\."))},
                  ("text_config",))
    config = {"num_nextn_predict_layers": 1, "num_hidden_layers": 2, "vocab": list(range(1000)),
              "text_config": {"num_hidden_layers": 2, "big": {"x": 1}}, "other": {"a": 1}}
    assert kept_config(config, table) == {"num_nextn_predict_layers": 1, "num_hidden_layers": 2,
                                          "text_config": {"num_hidden_layers": 2}}
    index = {"metadata": {"total_size": 1}, "weight_map": {
        "model.layers.0.w": "a", "model.layers.2.w": "a", "model.mtp.w": "b", "lm_head": "a", "embed": "a"}}
    kept = kept_index(index, table)
    assert set(kept["weight_map"]) == {"model.layers.0.w", "model.layers.2.w", "model.mtp.w"}
    ev = table.of("mtp")
    assert _read_weights(kept, ev, 2).tensors == _read_weights(index, ev, 2).tensors == 5
    assert _read_weights(kept, ev, 2).hits == _read_weights(index, ev, 2).hits


def test_report_shows_each_file_path_once(tmp_path, monkeypatch):
    """Tens of thousands of findings in one file cost one path resolution, not one each."""
    from drafterlint.findings import Finding, Location, Severity
    from drafterlint.report import ReportMeta

    meta = ReportMeta("0", local_roots={"rules": tmp_path}, cwd=tmp_path)
    calls = _count_calls(monkeypatch, ReportMeta, "_display_path")
    f = Finding("DL201", "broken-fragment", Severity.ERROR, Location("rules", "a.md", 1, 1), "m")
    assert {meta.display_path(f) for _ in range(1000)} == {"a.md"}
    assert calls[0] == 1


# -- check --base-ref: which heading a broken fragment named ------------------------------------


def test_rename_explanations_index_each_document_once_and_cap_comparisons(monkeypatch):
    from drafterlint import renames
    from drafterlint.findings import Finding, Location, Severity
    from drafterlint.markdown.parse import parse_document

    m = 200

    def name(i: int) -> str:  # titles far apart from each other's
        return "".join(random.Random(i).choices("abcdefghijklmnopqrstuvwxyz", k=10))

    base = parse_document("# R\n\n" + "".join(f"## {i}. {name(i)} rules\n\n" for i in range(1, m + 1)), "doc.md")
    now = parse_document("# R\n\n" + "".join(f"## {name(i)} rules now\n\n" for i in range(1, m + 1)), "doc.md")
    findings = [Finding("DL201", "broken-fragment", Severity.ERROR, Location("rules", "doc.md", i, 1), "m",
                        key=f"#{i}-{name(i)}-rules") for i in range(1, m + 1)]
    monkeypatch.setattr(renames, "MAX_TITLE_COMPARISONS", 1000)
    built = _count_calls(monkeypatch, renames.Versions, "__init__")
    out = renames.explain(findings, lambda repo, path: base, lambda repo, path: now)
    assert built[0] == 1  # one index for the pair, not one per finding
    explained = [f for f in out if f.cause]
    assert 1 <= len(explained) <= 1000 // m  # m titles each, while the budget lasts; m x m before


def test_fix_aligns_each_document_with_its_base_once(monkeypatch):
    from drafterlint.fix import base as fixbase
    from drafterlint.markdown.parse import parse_document

    old = parse_document("# R\n\n" + "".join(f"## {i}. Part {i}\n\n" for i in range(1, 301)), "doc.md")
    now = parse_document("# R\n\n" + "".join(f"## {i + 1}. Part {i}\n\n" for i in range(1, 301)), "doc.md")
    built = _count_calls(monkeypatch, fixbase.Alignment, "__init__")
    find = fixbase.base_finder(lambda doc: old, lambda doc, fragment: None)
    mapped = [find(now, f"{i}-part-{i}") for i in range(1, 301)]
    assert built[0] == 1  # one alignment for 300 fragments, not 300 (each costs M or more)
    assert mapped[41].heading.number == "43"
