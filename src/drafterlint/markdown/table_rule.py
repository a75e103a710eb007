"""mistune's two table rules, GitHub's tables behind a budget of cells per document."""

from __future__ import annotations

import re
from typing import Any

import mistune

from drafterlint import lazyre
from drafterlint.markdown import tables
from drafterlint.markdown._mistune import (
    add_token,
    env_get,
    env_set,
    last_block,
    lazy_line_starts,
    parent_state,
    parse_end,
    src_of,
)
from drafterlint.markdown.patterns import SETEXT_LINE_RE
from drafterlint.markdown.positions import PosState

# --------------------------------------------------------------------------------------------
# a bound on table cells

# Each table cell costs mistune and the document builder about 10 us and 1 KB (split, inline
# parse, position, rendered text). The real rules document has about 1 400 cells in 60 tables
# (at most 50 rows). Beyond this many cells in one document, a table is skipped (its rows are
# neither parsed nor checked) and reported as DL702 at its line: a hostile table costs a scan
# of its text, and the rest of the document is checked as usual.
MAX_TABLE_CELLS = 30_000
CELLS_LEFT = "_drafterlint_table_cells_left"  # in the parse's env, shared by child states

# A line that ends a paragraph (cmark-gfm's block starts that may interrupt one, roughly: an
# ATX heading, a quote, a fence, a non-empty item, a break or underline, a tag)
INTERRUPT_RE = lazyre.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|$)|>|```|~~~|[-*+][ \t]+\S|1[.)][ \t]+\S|(?:[-*_][ \t]*){3,}$|=+[ \t]*$|-+[ \t]*$|<[A-Za-z/!?])"
)


_BLANK_LINE_RE = lazyre.compile(r"\n[ \t]*\n")


def table_ends_paragraph(state: PosState, pos: int) -> bool:
    """Whether the paragraph that starts at `pos` ends with a table's header row: cmark-gfm then
    makes a paragraph of the lines before the header that keeps its reference definitions as
    text (`[r]: /u⏎|a|⏎|-|` shows `[r]: /u`, and `[r]` links nowhere).  One scan per paragraph:
    the definitions after the first in it reuse the answer."""
    end, verdict = state.table_scan
    if pos < end:
        return verdict
    src = src_of(state)
    i, verdict = pos, False
    while True:
        j = src.find("\n", i)
        if j < 0:
            break
        k = src.find("\n", j + 1)
        k = len(src) if k < 0 else k
        following = src[j + 1 : k]
        if not following.strip():
            break
        line = src[i:j]
        cols = None if SETEXT_LINE_RE.match(following) else tables.delimiter_cells(following)
        if cols is not None:
            # a delimiter row under a header of another width: the paragraph starts no table
            verdict = len(cols) == len(tables.split_row(line))
            if not verdict:
                state.table_visited = i
            break
        if INTERRUPT_RE.match(following):
            break
        i = j + 1
    state.table_scan = (i + 1, verdict)
    return verdict


# The delimiter row (`|---|:-:|`), as a cheap first test: one character class, no nesting, so
# linear on any line.
_DELIMITER_ROW_RE = lazyre.compile(r"[ \t|:-]*\n?")
# a line indented by four columns: no delimiter row (cmark-gfm starts no block there)
_INDENTED_RE = lazyre.compile(r" {0,3}\t| {4}")


_NP_TABLE_PATTERN = (
    r"^ {0,3}(?:(?=[^\n]*\|)\S[^\n]*(?:\n|$)|\S[^\n]*\n(?=[ \t]*[|:-][ \t|:-]*(?:\n|$)))"
)


NP_TABLE_RE = lazyre.compile(_NP_TABLE_PATTERN, re.M)


def bounded_tables(md: mistune.Markdown) -> None:
    """GitHub's tables (tables.py) for mistune's two table rules, behind the document's cell
    budget."""
    from mistune.plugins import table as _table

    md.use(_table.table)
    # (a header row needs no `|` (`a⏎-|` is a table), mistune's no-leading-pipe rule wants two)
    for name, pattern in (("table", _table.TABLE_PATTERN), ("nptable", _NP_TABLE_PATTERN)):
        md.block.register(name, pattern, parse_table, before="paragraph")


def _line_end(src: str, pos: int) -> int:
    j = src.find("\n", pos)
    return len(src) if j < 0 else j + 1


def _lazy_in_a_container(state: PosState, at: int) -> bool:
    """Whether the line at `at` is a lazy line of this state's container or of one around it
    (a quote's lazy lines inside the list item the quote holds): only paragraph text."""
    line = state.orig_line(at)
    st: PosState | None = state
    while st is not None:
        if line in st.lazy_lines:
            return True
        st = parent_state(st)
    return False


def _failed_before(paragraph: str, header: str) -> bool:
    """Whether a line of the paragraph `paragraph`, which `header` continues, is a delimiter row
    under a line of another width: cmark-gfm tried a table there (its header is the
    paragraph's line before, however indented: `a⏎    b⏎|-|-|`), and the paragraph starts
    none after it."""
    if "-" not in paragraph and "-" not in header:
        return False
    lines = paragraph.rstrip("\n").split("\n") + [header.rstrip("\n")]
    for above, line in zip(lines, lines[1:]):
        if "-" in line and not SETEXT_LINE_RE.match(line):
            cols = tables.delimiter_cells(line)
            if cols is not None and len(cols) != len(tables.split_row(above)):
                return True
    return False


def parse_table(block: Any, m: re.Match[str], state: Any) -> int | None:
    """A table, unless it would take the document over its cell budget: then one
    `table_skipped` token stands for the whole table."""
    src = src_of(state)
    delimiter = m.end()  # mistune's match is the header line
    body = _line_end(src, delimiter)
    if (_DELIMITER_ROW_RE.fullmatch(src, delimiter, body) is None or SETEXT_LINE_RE.match(src, delimiter, body)
            or _INDENTED_RE.match(src, delimiter)):
        return None  # (`---` underlines the header line: a setext heading comes first)
    if delimiter in lazy_line_starts(state) or _lazy_in_a_container(state, delimiter):
        return None  # a lazy line continues a paragraph (`- a⏎-|`, `> - a⏎b|c⏎-|-`)
    cols = tables.delimiter_cells(src[delimiter:body])
    if cols is None:
        return None
    last = last_block(state)
    visited = state.table_visited
    if (0 <= visited < m.start() and last is not None and last["type"] == "paragraph"
            and _BLANK_LINE_RE.search(src, visited, m.start()) is None):
        return None  # a paragraph that failed to start a table starts none (cmark-gfm)
    if len(cols) != len(tables.split_row(m.group(0))):
        state.table_visited = m.start()
        return None
    if last is not None and last["type"] == "paragraph" and _failed_before(last.get("text", ""), m.group(0)):
        return None  # (a header line indented by four, which the rule's pattern skipped)
    end = tables.body_end(src, body, parse_end(state))
    rows = 1 + src.count("\n", body, end) + (end > body and src[end - 1] != "\n")
    cells = len(cols) * rows
    left = env_get(state, CELLS_LEFT, MAX_TABLE_CELLS)
    if cells > left:
        add_token(state, {"type": "table_skipped", "_cells": cells, "_limit": MAX_TABLE_CELLS, "_stop": end})
        return end
    env_set(state, CELLS_LEFT, left - cells)
    token = tables.table_token(m.group(0), src[delimiter:body], src[body:end])
    if token is None:
        return None
    add_token(state, token)
    return end
