"""Where a link's parts are written in its document: the spans a fix may rewrite.

The parser places a link at its opening bracket; a fix needs the exact characters of its text
and destination. Only the plain inline form `[text](destination)` is taken apart; anything
else (reference links, titles, angle brackets, escapes in the destination) is left to a human.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drafterlint.markdown.model import Document, Link

_PLAIN_DEST = re.compile(r"[^\s()<>\\]*\)")


@dataclass(frozen=True)
class LinkSpans:
    """Offsets into the document's text."""

    text_start: int  # just after "["
    text_end: int  # the "]"
    dest_start: int  # just after "("
    dest_end: int  # the ")"


def offset_of(doc: "Document", line: int, column: int) -> int:
    starts = _starts(doc)
    return starts[line - 1] + column - 1


def position_of(doc: "Document", offset: int) -> tuple[int, int]:
    import bisect

    starts = _starts(doc)
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def _starts(doc: "Document") -> list[int]:
    starts = doc.__dict__.get("_fix_line_starts")
    if starts is None:
        from drafterlint.markdown.positions import line_starts

        starts = doc.__dict__["_fix_line_starts"] = line_starts(doc.text)
    return starts


def inline_spans(doc: "Document", link: "Link") -> LinkSpans | None:
    """The spans of `[text](destination)` at the link's position, if it is written that way and
    its destination reads exactly as the link's target."""
    if link.kind != "inline":
        return None
    text = doc.text
    start = offset_of(doc, link.line, link.column)
    if text[start:start + 1] != "[":
        return None
    close = _closing_bracket(text, start)
    if close is None or text[close + 1:close + 2] != "(":
        return None
    m = _PLAIN_DEST.match(text, close + 2)
    if m is None or text[close + 2:m.end() - 1] != link.target:
        return None
    return LinkSpans(start + 1, close, close + 2, m.end() - 1)


def _closing_bracket(text: str, start: int) -> int | None:
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            run = 0
            while i + run < n and text[i + run] == "`":
                run += 1
            end = text.find("`" * run, i + run)
            i = end + run if end >= 0 else i + run
            continue
        if c == "\n" and text.startswith("\n", i + 1):
            return None  # a blank line ends the paragraph
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None
