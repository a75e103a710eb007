"""The parsed prose (`Document.prose`) and the rules that read it instead of the raw lines:
DL205's bare `§X.Y` references and DL801's TENTATIVE markers see what GitHub renders as text,
so code blocks, code spans (DL205), HTML comments and link text are told apart from prose."""

from __future__ import annotations

import datetime

from hypothesis import example

from drafterlint.markdown.model import Document, Prose
from drafterlint.markdown.parse import parse_document
from tests.helpers.properties import fixed_and_explored
from tests.helpers.strategies import markdown

DOC = "rules:endpoints_rules.md"
TODAY = datetime.date(2026, 12, 2)


def _found(result, code):
    return [(f.location.line, f.location.column) for f in result.findings if f.code == code]


# -- the model --------------------------------------------------------------------------------


def _pieces(text: str):
    doc = parse_document(text, "x.md")
    return doc, [(p.text[x.start:x.end], x.line, x.column, x.kind) for p in doc.prose for x in p.pieces]


def test_prose_pieces_are_where_they_are_written():
    text = (
        "a \\* b &amp; c §1.2\n  next *em* `code\nspan` [§7.4][r] <!-- not §9 --> [a](<u t> \"t\") t\n\n"
        "> - item www.e.org\n>   more\n\n| h | b |\n|---|---|\n| `c` x | [l](y) |\n\n# Head #\n\n"
        "```\nnot §1 prose\n```\n\n<div>\nnot prose\n</div>\n\n[r]: #x\n"
    )
    doc, pieces = _pieces(text)
    assert pieces == [
        ("a ", 1, 1, "text"), ("* b &amp; c §1.2", 1, 4, "text"),
        ("next ", 2, 3, "text"), ("em", 2, 9, "text"), (" ", 2, 12, "text"),
        ("code", 2, 14, "code"), ("span", 3, 1, "code"), (" ", 3, 6, "text"),
        ("§7.4", 3, 8, "link"), (" ", 3, 16, "text"), (" ", 3, 32, "text"),
        ("a", 3, 34, "link"), (" t", 3, 47, "text"),
        ("item ", 5, 5, "text"), ("www.e.org", 5, 10, "link"), ("more", 6, 5, "text"),
        ("h", 8, 3, "text"), ("b", 8, 7, "text"),
        ("c", 10, 4, "code"), (" x", 10, 6, "text"), ("l", 10, 12, "link"),
        ("Head", 12, 3, "text"),
    ]
    first = doc.prose[0]
    assert first.text.startswith("a * b &amp; c §1.2 next em code span §7.4")
    assert first.position(first.text.index("§7.4")) == (3, 8)
    assert first.kind_at(first.text.index("span")) == "code"
    assert "§9" not in first.text and "u t" not in first.text


# a tab after a marker that is no container is text (an ordered list starting at 2 interrupts
# no paragraph): the piece keeps it as written
@example("`\n2) \t# ")
@example("> a\n> 2) \tb\n> ===")
@example(">\ta\n>\t2)\t\tb [x](#y)\n===")
@example("- a\n\t3.\t\tx y")
def _every_piece_is_a_verbatim_copy_of_its_source(text):
    doc = parse_document(text, "x.md")
    lines = doc.lines
    for prose in doc.prose:
        last = (0, 0)
        for piece in prose.pieces:
            seg = prose.text[piece.start:piece.end]
            assert seg and "\n" not in seg
            assert lines[piece.line - 1][piece.column - 1:piece.column - 1 + len(seg)] == seg
            assert (piece.line, piece.column) > last  # in the order they are written
            last = (piece.line, piece.column + len(seg) - 1)


test_every_piece_is_a_verbatim_copy_of_its_source, test_every_piece_is_a_verbatim_copy_explored = (
    fixed_and_explored(markdown, examples=300)(_every_piece_is_a_verbatim_copy_of_its_source)
)


# -- DL205: bare references ---------------------------------------------------------------------


def test_bare_reference_in_a_code_span_wrapped_over_two_lines_is_code(engine):
    text = "# Rules\n\n## 7.4 RDI\n\nRun `drafterlint explain\n§7.9` first.\n"
    assert _found(engine({DOC: text}), "DL205") == []


def test_reference_link_text_is_checked_as_a_link_not_as_a_bare_reference(engine):
    text = "# Rules\n\n## 7.4 RDI\n\nSee [§6.8][other].\n\n[other]: other.md#68-x\n"
    result = engine({DOC: text, "rules:other.md": "# Other\n\n## 6.8 X\n"})
    assert _found(result, "DL205") == []


def test_bare_reference_on_a_line_with_an_html_comment_is_prose(engine):
    text = "# Rules\n\n## 7.4 RDI\n\nAs in §7.9. <!-- owner: tf -->\n"
    assert _found(engine({DOC: text}), "DL205") == [(5, 7)]


def test_bare_reference_inside_comments_and_code_blocks_is_not_prose(engine):
    text = (
        "# Rules\n\n## 7.4 RDI\n\nText <!-- see §7.9 --> more.\n\n<!--\n§7.8\n-->\n\n"
        "```\n§7.7\n```\n\n    §7.6\n\nAnd §7.5 here.\n"
    )
    assert _found(engine({DOC: text}), "DL205") == [(17, 5)]


# -- DL801: TENTATIVE markers -------------------------------------------------------------------


def _marker(date: str) -> str:
    return f"**`[TENTATIVE — Subject to change after {date}]`**"


def test_marker_on_a_line_with_an_html_comment_is_found(engine):
    text = f"# Rules\n\n## 2. Models\n\n> {_marker('2026-10-12')} <!-- owner: tf -->\n"
    assert _found(engine({DOC: text}, today=TODAY), "DL801") == [(5, 6)]


def test_marker_wrapped_over_two_lines_is_found_where_it_starts(engine):
    text = "# Rules\n\n## 2. Models\n\nThis part is [TENTATIVE — Subject to change\nafter 2026-10-12].\n"
    assert _found(engine({DOC: text}, today=TODAY), "DL801") == [(5, 14)]


def test_markers_in_code_blocks_and_comments_are_not_markers(engine):
    text = (
        "# Rules\n\n## 2. Models\n\n```\n[TENTATIVE — after 2026-10-12]\n```\n\n"
        "<!-- [TENTATIVE — after 2026-10-12] -->\n\nText <!-- TENTATIVE 2026-10-12 --> here.\n"
    )
    assert _found(engine({DOC: text}, today=TODAY), "DL801") == []


SECTIONS = """# Title

Intro *text* on
two lines.

## 1. First

- an item
  - a nested item
- another

| a | b |
|---|---|
| c | d |

> a quote
> and more

## 2. Second

```
code is no prose
```

Last words.
"""


def test_the_prose_of_some_lines_is_what_a_scan_of_every_block_finds():
    doc = parse_document(SECTIONS, "x.md")
    every = len(SECTIONS.splitlines()) + 2
    for first in range(every):
        for last in range(first - 1, every):
            assert doc.prose_between(first, last) == [p for p in doc.prose if p.pieces and first <= p.line <= last]
    # prose not in the order of its lines (the parser makes none) is scanned
    shuffled = Document(doc.path, doc.text, prose=[*reversed(doc.prose), Prose("", ())])
    assert shuffled.prose_between(3, 12) == [p for p in reversed(doc.prose) if p.pieces and 3 <= p.line <= 12]


def test_the_facts_read_a_sections_prose_without_scanning_every_block(monkeypatch):
    from drafterlint.checks._plain import Plain

    doc = parse_document(SECTIONS, "x.md")
    asked = []
    monkeypatch.setattr(Prose, "line", property(lambda p: asked.append(p) or p.pieces[0].line))
    sections = [(h.line + 1, h.end_line or doc.line_count) for h in doc.headings]
    texts = [Plain(doc, "rules", first, last).text for first, last in sections]
    assert texts[1].startswith("an item a nested item another a b c d a quote and more") and asked == []
