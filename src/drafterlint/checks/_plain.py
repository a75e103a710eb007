"""Prose with positions: the text a reader sees in some blocks of a document, searchable as one
string, each match mapped back to its line and column (the facts are read from it)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.findings import Location

if TYPE_CHECKING:
    from drafterlint.markdown.model import Document


class Plain:
    """The prose of the blocks that start on some lines of a document (Document.prose: their
    text as GitHub renders it, markup, destinations, comments and code blocks left out), joined
    with a space, with the original line/column of every character."""

    def __init__(self, doc: "Document", repo: str, first: int, last: int):
        self.doc = doc
        self.repo = repo
        self._blocks = doc.prose_between(first, last)
        self._starts: list[int] = []  # offset in text where each block starts
        parts: list[str] = []
        size = 0
        for block in self._blocks:
            if parts:
                parts.append(" ")
                size += 1
            self._starts.append(size)
            parts.append(block.text)
            size += len(block.text)
        self.text = "".join(parts)

    def location(self, index: int) -> Location:
        if not self._blocks:
            return Location(self.repo, self.doc.path, 1, 1)
        index = min(index, len(self.text) - 1)
        if index < 0:
            index = max(0, index + len(self.text))
        k = bisect.bisect_right(self._starts, index) - 1
        block = self._blocks[k]
        # the space that joins two blocks is placed at the end of the first
        line, column = block.position(min(index - self._starts[k], len(block.text) - 1))
        return Location(self.repo, self.doc.path, line, column)

    def search(self, pattern: str, flags: int = re.IGNORECASE) -> "re.Match[str] | None":
        return re.search(pattern, self.text, flags)

    def finditer(self, pattern: str, flags: int = re.IGNORECASE) -> "Iterator[re.Match[str]]":
        return re.finditer(pattern, self.text, flags)
