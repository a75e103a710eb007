"""The bounds on what a document may hold before it is parsed: a hostile file is refused
(`TooComplex`, reported as DL702) in linear time instead of costing minutes or gigabytes."""

from __future__ import annotations

import re

from drafterlint import lazyre
from drafterlint.records import dataclass

# Inline parsing costs time and memory per markup opener (`[`, `` ` ``, `*`, `_`, `<`): about
# 20 us and 1 KB each. The real rules document has under 4 000 of them, a document 16 times its
# size about 50 000. Beyond this many, a document is refused (DL702) instead of parsed, so a
# hostile file cannot make a check take minutes or gigabytes.
MAX_MARKUP = 100_000


# Block parsing costs per block and per line whatever the markup: about 40-70 us and 2-4 KB a
# block (a heading, a list item, a paragraph), about 7 us and 0.7 KB a line, more for the lines of
# one long block (a setext heading of many lines). Counted before parsing, in linear time; the
# real rules document (endpoints_rules.md, 240 KB) has 1 733 blocks, 3 847 lines and at most 61
# lines in one block. Over any of these, the document is refused (DL702) instead of parsed.
MAX_BLOCKS = 30_000
MAX_LINES = 120_000
MAX_BLOCK_LINES = 60_000

# A run of non-blank lines; what counts as blank (only spaces and tabs) is what Markdown's is.
_RUN = lazyre.compile(r"^[ \t]*\S.*(?:\n[ \t]*\S.*)*", re.MULTILINE)
# A line that may open a block of its own inside a run (heading, list item, fence, table row,
# setext underline, thematic break), after any block-quote markers.
BLOCK_LINE = r"[ \t]*(?:>[ \t]*)*(?:#|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|```|~~~|\||[=-]+[ \t]*$)"
_FIRST_BLOCK_LINE = lazyre.compile(BLOCK_LINE, re.MULTILINE)
# (the line end before each such line: the regex engine skips from one line end to the next,
# where `^` would have it try every character)
_BLOCK_LINE_AFTER = lazyre.compile(r"\n(?=" + BLOCK_LINE + ")", re.MULTILINE)


class TooComplex(ValueError):
    """The document holds more markup than `parse_document` agrees to parse."""


def markup_count(text: str) -> int:
    return sum(text.count(c) for c in "[`*_<")


@dataclass(frozen=True, eq=False, repr=False)
class BlockCount:
    """What the block parser will cost, counted without it: blocks (each run of non-blank lines,
    plus each line inside one that opens a block of its own), lines, and the longest run."""

    blocks: int
    lines: int
    longest: int


def block_count(text: str, stop_after: int = MAX_BLOCKS) -> BlockCount:
    """The block count of `text` (normalized line ends); counting stops past `stop_after` runs,
    so a hostile document costs no more to refuse than one at the limit."""
    runs = longest = 0
    for m in _RUN.finditer(text):
        runs += 1
        longest = max(longest, text.count("\n", m.start(), m.end()) + 1)
        if runs > stop_after:
            break
    openers = (_FIRST_BLOCK_LINE.match(text) is not None) + len(_BLOCK_LINE_AFTER.findall(text))
    return BlockCount(runs + openers, text.count("\n") + 1, longest)


def may_pass_a_block_bound(lines: int) -> bool:
    """Whether a document of `lines` lines may hold more blocks than MAX_BLOCKS or a block
    longer than MAX_BLOCK_LINES. A block is counted for each run of non-blank lines (a line at
    least) and for each line inside one that opens a block of its own (block_count): at most two
    a line; and no run is longer than the document."""
    return 2 * lines > MAX_BLOCKS or lines > MAX_BLOCK_LINES


def refuse_if_too_big(text: str, max_markup: int) -> None:
    n = markup_count(text)
    if n > max_markup:
        raise TooComplex(
            f"document has {n} link, code and emphasis markers, over the limit of {max_markup}; "
            "refusing to parse it"
        )
    breaks = text.count("\n")
    if breaks >= MAX_LINES:
        raise TooComplex(f"document has more than {MAX_LINES} lines, over the limit; refusing to parse it")
    if not may_pass_a_block_bound(breaks + 1):
        return  # (counting the blocks of the real rules document cost a run with it changed 2 %)
    size = block_count(text)
    if size.blocks > MAX_BLOCKS:
        raise TooComplex(f"document has more than {MAX_BLOCKS} blocks (paragraphs, headings, list items, "
                         "table rows), over the limit; refusing to parse it")
    if size.longest > MAX_BLOCK_LINES:
        raise TooComplex(f"document has a block of {size.longest} lines without a blank line, over the "
                         f"limit of {MAX_BLOCK_LINES}; refusing to parse it")
