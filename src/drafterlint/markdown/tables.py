"""GitHub's tables (cmark-gfm's table extension), as mistune's table tokens.

A table is a header row, then a delimiter row with as many cells, each of dashes with a colon
at either end or both (`|`, `|-||` or `:-:-` make none); its body is every line after it up
to a blank line or a line that starts another block, whether or not it holds a `|`.  A row
with fewer cells than the header has empty ones added, one with more loses the extra ones
(their text is not on the page).  Cells are split at every `|` not escaped, inside links and
code spans too.  mistune's own rules keep empty delimiter cells, drop the whole table for one
row of another width, and end it at the first line without a `|`.
"""

from __future__ import annotations

from typing import Any

from drafterlint import lazyre
from drafterlint.markdown.escapes import unescaped_pipes
from drafterlint.markdown.patterns import HTML_1_TO_6_RE, HTML_7_RE

_MARKER_RE = lazyre.compile(r":?-+:?")
# a line that starts another block and so ends a table's body: an ATX heading, a quote, a
# fence, a list item (empty or from any number: a table is no paragraph), a thematic break, a
# footnote definition, indented code; an HTML block's start is tested apart (`<x` is a row)
_ROW_END_RE = lazyre.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|$)|>|```|~~~|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)"
    r"|(?:[-*_][ \t]*){3,}$|\[\^[^\]\s]+\]:)| {4}|\t"
)


def split_row(row: str) -> list[str]:
    """The cells of a table row: split at each unescaped `|`, a leading and a trailing one
    dropped, each cell without its surrounding blanks."""
    row = row.strip()
    cells: list[str] = []
    start = 1 if row.startswith("|") else 0
    for pos in unescaped_pipes(row):
        if pos >= start:  # (not the leading one)
            cells.append(row[start:pos].strip())
            start = pos + 1
    if start < len(row) or not cells:
        cells.append(row[start:].strip())
    return cells


def delimiter_cells(row: str) -> list[str] | None:
    """The cells of a delimiter row, or None if `row` is none."""
    if "-" not in row:
        return None
    cells = split_row(row)
    if not all(_MARKER_RE.fullmatch(c) for c in cells):
        return None
    return cells


def body_end(src: str, pos: int, end: int) -> int:
    """Where the body of a table whose rows start at `pos` ends."""
    while pos < end:
        j = src.find("\n", pos, end)
        j = end if j < 0 else j
        line = src[pos:j]
        if not line.strip() or _ROW_END_RE.match(line) or HTML_1_TO_6_RE.match(line) or HTML_7_RE.match(line):
            return pos
        pos = j + 1
    return min(pos, end)


def _align(cell: str) -> str | None:
    if cell.startswith(":"):
        return "center" if cell.endswith(":") and len(cell) > 1 else "left"
    return "right" if cell.endswith(":") else None


def table_token(header: str, delimiter: str, body: str) -> dict[str, Any] | None:
    """mistune's table token for a header row, delimiter row and body lines, or None when
    they make no table on GitHub."""
    aligns_cells = delimiter_cells(delimiter)
    heads = split_row(header)
    if aligns_cells is None or len(aligns_cells) != len(heads):
        return None
    aligns = [_align(c) for c in aligns_cells]
    thead = {
        "type": "table_head",
        "children": [
            {"type": "table_cell", "text": t, "attrs": {"align": aligns[i], "head": True}} for i, t in enumerate(heads)
        ],
    }
    rows = []
    for line in body.split("\n"):
        if not line.strip():
            continue
        cells = split_row(line)[: len(aligns)]
        cells += [""] * (len(aligns) - len(cells))
        rows.append({
            "type": "table_row",
            "children": [
                {"type": "table_cell", "text": t, "attrs": {"align": aligns[i], "head": False}}
                for i, t in enumerate(cells)
            ],
        })
    return {"type": "table", "children": [thead, {"type": "table_body", "children": rows}]}
