"""The document's headings, finished once every one is found: in line order, with their number,
title, GitHub anchor and the last line of their section."""

from __future__ import annotations

import re
from operator import itemgetter

from drafterlint import lazyre
from drafterlint.markdown.model import Heading
from drafterlint.markdown.slug import Slugger

_NUMBER_RE = lazyre.compile(r"^\s*((?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?)(?=\s|$)\s*(.*)$", re.S)

# A heading as the document builder finds it: line, column, level, rendered text, explicit anchors.
RawHeading = tuple[int, int, int, str, list[str]]


def finish_headings(head_raw: list[RawHeading], text: str) -> list[Heading]:
    """The headings of document `text` (normalized line ends) found at `head_raw`, in any order."""
    slugger = Slugger()
    raw = sorted(head_raw, key=itemgetter(0, 1))
    last = text.count("\n") + 1
    if last > 1 and text.endswith("\n"):
        last -= 1  # the empty string after the final newline is not a line
    # A section ends before the next heading of the same or a higher level: one pass with
    # a stack of open sections (linear, whatever the order of levels). (Before the headings are
    # made: each is made once, with its end.)
    ends = [last] * len(raw)
    open_: list[int] = []
    for i, h in enumerate(raw):
        while open_ and raw[open_[-1]][2] >= h[2]:
            ends[open_.pop()] = h[0] - 1
        open_.append(i)
    out: list[Heading] = []
    for (line, col, level, title_text, anchors), end in zip(raw, ends):
        m = _NUMBER_RE.match(title_text)
        if m:
            number = m.group(1).rstrip(".")
            title = " ".join(m.group(2).split())
        else:
            number, title = None, " ".join(title_text.split())
        out.append(Heading(level, title_text, number, title, slugger.slug(title_text), tuple(anchors), line, col,
                           max(line, end)))
    return out
