"""Where the parser says a link's text and destination are written (`Link.text_span`,
`Link.dest_span`), and what `fix` makes of them: a span reads, in the source, exactly the
destination as written (its target once escapes and entities are decoded), or it is absent;
`fix` rewrites only the plain `[text](destination)` form."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from drafterlint.fix.source import inline_spans
from drafterlint.markdown.model import Span
from drafterlint.markdown.parse import parse_document
from drafterlint.markdown.text import decode
from tests.helpers.properties import fixed_and_explored
from tests.helpers.strategies import markdown


def _read(text: str, span: Span) -> str:
    lines = text.split("\n")
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1 : span.end_column - 1]
    return "\n".join([lines[span.line - 1][span.column - 1 :], *lines[span.line : span.end_line - 1],
                      lines[span.end_line - 1][: span.end_column - 1]])


def _check_spans(text: str) -> None:
    doc = parse_document(text, "doc.md")
    for link in doc.links:
        if link.dest_span is not None:
            written = _read(doc.text, link.dest_span)
            assert link.dest_span.line == link.dest_span.end_line, (link, text)
            assert decode(written) == link.target, (link, written, text)
        if link.text_span is not None:
            s = link.text_span
            lines = doc.text.split("\n")
            opener = "![" if link.kind == "image" else "["
            assert lines[s.line - 1][: s.column - 1].endswith(opener), (link, text)
            assert lines[s.end_line - 1][s.end_column - 1 : s.end_column] == "]", (link, text)
        spans = inline_spans(doc, link)
        if spans is not None:  # what fix would rewrite: `[text](target)` just so
            assert doc.text[spans.dest_start:spans.dest_end] == link.target
            assert doc.text[spans.text_end:spans.dest_start] == "]("
            assert doc.text[spans.dest_end] == ")"


# Pieces that make links of every form: titles, `<…>`, escapes, entities, a destination on the
# next line, reference definitions (their destination on the next line too), table cells.
_LINKISH = [
    "[t](#a)", "[t](<a b> \"t\")", "[t](#a 'x')", "](a\\(b)", "](&amp;x)", "](&#35;x)", "](\n#f)",
    "](<#g>)", "[r]: <#d>\n", "[r]:\n  #e 'x'\n", "[r]: #f\n", "[r]", "[t][r]", "![i](p.png)",
    "| [x](y\\|z) | b |\n|---|---|\n| [c](#d) | [e][r] |\n", "> ", "- ", "1. ", "\n", "\n\n",
    "    ", "\t", "`", "\\", "[", "]", "(", ")", "<", ">", "#", " ", "a", "§2.3",
]
_links_markdown = st.lists(st.sampled_from(_LINKISH), max_size=30).map("".join)


test_a_span_reads_the_destination_as_written, test_a_span_reads_the_destination_explored = fixed_and_explored(
    st.one_of(_links_markdown, markdown), examples=400
)(_check_spans)


CASES = {
    # source, link index, destination as written, text as written
    "plain": ("See [§2.3](#23-withdrawal).\n", 0, "#23-withdrawal", "§2.3"),
    "title": ('See [a](#x "the title").\n', 0, "#x", "a"),
    "angle brackets": ("See [a](<my file.md#x>).\n", 0, "my file.md#x", "a"),
    "escape": ("See [a](a\\(b.md).\n", 0, "a\\(b.md", "a"),
    "entity": ("See [a](&#35;x).\n", 0, "&#35;x", "a"),
    "destination on the next line": ("See [a](\n  #x).\n", 0, "#x", "a"),
    "text over two lines": ("See [a\nb](#x).\n", 0, "#x", "a\nb"),
    "reference": ("See [a][r].\n\n[r]: #x\n", 0, "#x", "a"),
    "reference defined over two lines": ("See [a][r].\n\n[r]:\n   <#x> 'title'\n", 0, "#x", "a"),
    "table cell, escaped pipe": ("| a | b |\n|---|---|\n| [c](x\\|y.md) | d |\n", 0, "x\\|y.md", "c"),
    "quote": ("> one\n> [a](#x)\n", 0, "#x", "a"),
    "quote, text over two lines": ("> [a\n> b](#x)\n", 0, "#x", "a\n> b"),
    "list item": ("- one\n  - [a](#x) two\n", 0, "#x", "a"),
    "image": ("![alt](p.png)\n", 0, "p.png", "alt"),
    "container tab": ("-\t[a](#x)\n", 0, "#x", "a"),
}


@pytest.mark.parametrize("name", CASES)
def test_spans_of_each_form(name):
    text, index, dest, link_text = CASES[name]
    doc = parse_document(text, "doc.md")
    link = doc.links[index]
    assert link.dest_span is not None and _read(doc.text, link.dest_span) == dest
    assert link.text_span is not None and _read(doc.text, link.text_span) == link_text


@pytest.mark.parametrize("text", [
    "See <https://e.com/x>.\n", "See https://e.com/x.\n", '<a href="#x">x</a>\n',
])
def test_links_without_brackets_have_no_spans(text):
    link = parse_document(text, "doc.md").links[0]
    assert link.text_span is None and link.dest_span is None


@pytest.mark.parametrize("name", ["plain", "text over two lines", "table cell, escaped pipe", "quote",
                                  "quote, text over two lines", "list item", "container tab"])
def test_fix_takes_the_plain_form_from_the_model(name):
    text, index, dest, _ = CASES[name]
    doc = parse_document(text, "doc.md")
    spans = inline_spans(doc, doc.links[index])
    if "\\|" in dest:  # as written it is not the target (`y|z`): nothing to take safely
        assert spans is None
        return
    assert spans is not None and doc.text[spans.dest_start:spans.dest_end] == dest
    assert doc.text[spans.text_start - 1] == "[" and doc.text[spans.text_end] == "]"


@pytest.mark.parametrize("name", ["title", "angle brackets", "escape", "entity", "destination on the next line",
                                  "reference", "reference defined over two lines", "image"])
def test_fix_refuses_every_other_form(name):
    text, index, _, _ = CASES[name]
    doc = parse_document(text, "doc.md")
    assert inline_spans(doc, doc.links[index]) is None


DOC = """\
# Rules

## 1. Basics

> Quoted: see [§2.3](#23-withdrawal).

| Rule | Where |
|---|---|
| withdrawal | [§2.3](#23-withdrawal) |

Titled [§2.3](#23-withdrawal "title"), angled [§2.3](<#23-withdrawal>), referenced [§2.3][w].

[w]: #23-withdrawal

## 2. Seeds

### 2.2 Withdrawal
"""


def test_fix_rewrites_links_in_quotes_and_tables_and_leaves_the_other_forms(cli, tmp_path):
    root = tmp_path / "rules"
    root.mkdir()
    (root / "endpoints_rules.md").write_text(DOC)
    code, out, err = cli("fix", "--rules-repo", root)
    assert out.startswith("fixed 2 (DL201 ×2)\n"), out
    assert (root / "endpoints_rules.md").read_text() == DOC.replace(
        "> Quoted: see [§2.3](#23-withdrawal)", "> Quoted: see [§2.2](#22-withdrawal)").replace(
        "| withdrawal | [§2.3](#23-withdrawal) |", "| withdrawal | [§2.2](#22-withdrawal) |")
    assert out.count("plain [text](target)") == 3
