"""Where a link's parts are written in its document: the spans a fix may rewrite.

The parser records where each link's text and destination are written (`Link.text_span`,
`Link.dest_span`); a fix takes them from there. Only the plain inline form
`[text](destination)` is rewritten: anything else (reference links, whose definition may serve
other links; titles, angle brackets, blanks, parentheses or escapes in the destination) is left
to a human.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.markdown.model import Document, Link

_NOT_PLAIN = lazyre.compile(r"[\s()<>\\]")


@dataclass(frozen=True)
class LinkSpans:
    """Offsets into the document's text."""

    text_start: int  # just after "["
    text_end: int  # the "]"
    dest_start: int  # just after "("
    dest_end: int  # the ")"


def offset_of(doc: "Document", line: int, column: int) -> int:
    return doc.line_starts()[line - 1] + column - 1


def position_of(doc: "Document", offset: int) -> tuple[int, int]:
    starts = doc.line_starts()
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def inline_spans(doc: "Document", link: "Link") -> LinkSpans | None:
    """The spans of `[text](destination)`, if the link is written just so: its destination, as
    written, is its target."""
    text_span, dest_span = link.text_span, link.dest_span
    if link.kind != "inline" or text_span is None or dest_span is None:
        return None
    text = doc.text
    text_start = offset_of(doc, text_span.line, text_span.column)
    text_end = offset_of(doc, text_span.end_line, text_span.end_column)
    dest_start = offset_of(doc, dest_span.line, dest_span.column)
    dest_end = offset_of(doc, dest_span.end_line, dest_span.end_column)
    written = text[dest_start:dest_end]
    if (text[text_start - 1:text_start] != "[" or text[text_end:dest_start] != "]("
            or text[dest_end:dest_end + 1] != ")" or written != link.target or _NOT_PLAIN.search(written)):
        return None
    return LinkSpans(text_start, text_end, dest_start, dest_end)
