"""Property: random Markdown never crashes parse_document, every position it reports (headings,
links, list items, table cells, quotes, paragraphs) lies inside the file, and each link's position
is where cmark-gfm (tests/helpers/gfm_oracle.py) says such a link starts: its `[`, `![`, `<` or the text
of a bare URL.  That positions are GitHub's own is test_gfm_differential.py's business."""

from __future__ import annotations

from hypothesis import strategies as st

from drafterlint.markdown.parse import parse_document
from tests.helpers.properties import fixed_and_explored
from tests.helpers.strategies import markdown


def _inside(text: str, line: int, col: int) -> bool:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not 1 <= line <= len(lines):
        return False
    return 1 <= col <= len(lines[line - 1]) + 1


def _positions(doc):
    for h in doc.headings:
        yield "heading", h.line, h.column
    for link in doc.links:
        yield "link", link.line, link.column
    for lst in doc.lists:
        yield "list", lst.line, lst.column
        for item in lst.items:
            yield "item", item.line, item.column
            for link in item.links:
                yield "item-link", link.line, link.column
    for table in doc.tables:
        yield "table", table.line, table.column
        for row in (table.header, *table.rows):
            for cell in row:
                yield "cell", cell.line, cell.column
    for q in doc.quotes:
        yield "quote", q.line, q.column
    for p in doc.paragraphs:
        yield "paragraph", p.line, p.column


def _positions_inside_the_file(text):
    doc = parse_document(text, "doc.md")
    for what, line, col in _positions(doc):
        assert _inside(text, line, col), (what, line, col, text)
    for h in doc.headings:
        assert h.line <= h.end_line
    slugs = [h.slug for h in doc.headings]
    assert len(slugs) == len(set(slugs))  # unique within the document
    lines = doc.text.split("\n")
    for link in doc.links:
        at = lines[link.line - 1][link.column - 1 :]
        assert at.startswith(_opening(link)), (link, at, text)


test_random_markdown_parses_with_positions_inside_the_file, test_positions_inside_the_file_explored = (
    fixed_and_explored(markdown, examples=400)(_positions_inside_the_file)
)


def _opening(link) -> tuple[str, ...]:
    """What the source holds at a link's position: its opener, or a bare URL's own text."""
    if link.kind == "image":
        return ("![",)
    if link.kind in ("inline", "reference"):
        return ("[",)
    if link.kind == "html":
        return ("<",)
    return ("<", link.target, link.target.removeprefix("http://"), link.target.removeprefix("mailto:"))


def _line_ends_do_not_move_positions(text, eol):
    base = text.replace("\r\n", "\n").replace("\r", "\n")
    a = parse_document(base, "doc.md")
    b = parse_document(base.replace("\n", eol), "doc.md")
    assert [(h.line, h.column, h.slug) for h in a.headings] == [(h.line, h.column, h.slug) for h in b.headings]
    assert [(x.line, x.column, x.target) for x in a.links] == [(x.line, x.column, x.target) for x in b.links]


test_line_ends_do_not_move_positions, test_line_ends_do_not_move_positions_explored = fixed_and_explored(
    markdown, st.sampled_from(["\n", "\r\n", "\r"]), examples=100
)(_line_ends_do_not_move_positions)
