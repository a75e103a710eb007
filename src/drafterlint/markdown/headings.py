"""The document's headings, finished once every one is found: in line order, with their number,
title, GitHub anchor and the last line of their section."""

from __future__ import annotations

import re
from dataclasses import replace

from drafterlint import lazyre
from drafterlint.markdown.model import Heading
from drafterlint.markdown.slug import Slugger

_NUMBER_RE = lazyre.compile(r"^\s*((?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?)(?=\s|$)\s*(.*)$", re.S)

# A heading as the document builder finds it: line, column, level, rendered text, explicit anchors.
RawHeading = tuple[int, int, int, str, list[str]]


def finish_headings(head_raw: list[RawHeading], text: str) -> list[Heading]:
    """The headings of document `text` (normalized line ends) found at `head_raw`, in any order."""
    slugger = Slugger()
    raw = sorted(head_raw, key=lambda h: (h[0], h[1]))
    out: list[Heading] = []
    for line, col, level, title_text, anchors in raw:
        m = _NUMBER_RE.match(title_text)
        if m:
            number = m.group(1).rstrip(".")
            title = " ".join(m.group(2).split())
        else:
            number, title = None, " ".join(title_text.split())
        out.append(
            Heading(level, title_text, number, title, slugger.slug(title_text), tuple(anchors), line, col)
        )
    last = text.count("\n") + 1
    if last > 1 and text.endswith("\n"):
        last -= 1  # the empty string after the final newline is not a line
    # A section ends before the next heading of the same or a higher level: one pass with
    # a stack of open sections (linear, whatever the order of levels).
    ends = [last] * len(out)
    open_: list[int] = []
    for i, h in enumerate(out):
        while open_ and out[open_[-1]].level >= h.level:
            ends[open_.pop()] = h.line - 1
        open_.append(i)
    return [replace(h, end_line=max(h.line, end)) for h, end in zip(out, ends)]
