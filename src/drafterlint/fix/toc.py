"""Fixes for a table of contents that lacks a heading (the rule whose FIX names
`entry_inserter`): insert the heading into the table of contents, in its own style.

The style is learned from the entries already there, level by level: the list marker (`-`, or
numbers that follow the sections' own), the space after it, and whether the entry's text is
the heading as written (`2.1 Structure`) or its title alone (`Basics`, after `1.`). A nested
entry is indented to its parent entry's text, as Markdown nests lists; a top-level one as its
peers are. The new line goes after the entry of the heading just before it in the document, so
the table keeps document order. When the entries disagree on a style, or there is no entry of
that level to copy, or the table is not in document order, nothing is inserted.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.checks import _links
from drafterlint.checks._toc import find_toc, toc_links
from drafterlint.fix.edits import Edit
from drafterlint.fix.renamed import Mapped
from drafterlint.fix.source import inline_spans
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks._links import Resolved
    from drafterlint.checks.context import Context
    from drafterlint.findings import Finding
    from drafterlint.fix.edits import Proposes
    from drafterlint.fix.renamed import HeadingFinder
    from drafterlint.markdown.model import Document, Heading

_ITEM = lazyre.compile(r"^( *)([-*+]|[0-9]+[.)])( +)\Z")
_ATX = lazyre.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_ANCHOR_TAG = lazyre.compile(r"\s*<a\s[^>]*>\s*</a>\s*", re.I)
_NUMBER = lazyre.compile(r"^[0-9]+(?:\.[0-9]+)*\.?[ \t]+")
_BULLETS = ("-", "*", "+")
_UNSAFE = lazyre.compile(r"(?<!\\)[\[\]<]")


@dataclass(frozen=True)
class _Entry:
    """An entry of a table of contents, as written or as planned."""

    heading: "Heading"
    line: int  # the real line it is on, or (planned) the line it is inserted after
    indent: int
    marker: str
    gap: str
    text: str | None  # the entry's text as written; None for a planned one
    planned: bool = False
    stale: bool = False  # its link is broken (and fixed in this run): no model for the style

    @property
    def content(self) -> int:
        return self.indent + len(self.marker) + len(self.gap)


def heading_source(doc: "Document", h: "Heading") -> str | None:
    """The heading's text as written (Markdown kept, explicit anchors dropped), or None when it
    cannot be copied into link text as it stands."""
    line = doc.lines[h.line - 1]
    m = _ATX.match(line)
    text = m.group(1) if m else line.strip()
    text = _ANCHOR_TAG.sub(" ", text).strip()
    if not text or _UNSAFE.search(text):
        return None
    return text


class TocFixer:
    """Proposals for one document's table of contents; `missing` is called in document order."""

    def __init__(self, ctx: "Context", doc: "Document", finder: "HeadingFinder") -> None:
        self.doc = doc
        self.toc = find_toc(ctx, doc)
        self.entries: list[_Entry] = []
        self.problem: str | None = None
        if self.toc is None:
            self.problem = "the document has no table of contents"
            return
        for r in toc_links(ctx, doc, self.toc):
            if r.target_doc is not doc:
                continue
            heading = r.heading
            if r.outcome == _links.BROKEN_FRAGMENT:
                # A stale entry is fixed in the same run: it still holds its heading's place.
                found = finder(doc, r.link.target.partition("#")[2])
                heading = found.heading if isinstance(found, Mapped) else None
            entry = self._entry(r, heading, r.outcome != _links.OK) if heading is not None else None
            if entry is not None:
                self.entries.append(entry)
        order = [e.heading.line for e in self.entries]
        if order != sorted(order):
            self.problem = "the table of contents is not in document order"

    def _entry(self, r: "Resolved", heading: "Heading", stale: bool) -> _Entry | None:
        spans = inline_spans(self.doc, r.link)
        if spans is None:
            return None
        line = self.doc.lines[r.link.line - 1]
        m = _ITEM.match(line[: r.link.column - 1])
        text = self.doc.text[spans.text_start:spans.text_end]
        line_start = spans.text_start - r.link.column  # the "[" is at text_start - 1
        if m is None or "\n" in text or line[spans.dest_end + 1 - line_start:].strip():
            return None
        return _Entry(heading, r.link.line, len(m.group(1)), m.group(2), m.group(3), text, stale=stale)

    def missing(self, h: "Heading") -> tuple[tuple[Edit, ...], str]:
        if self.problem:
            return (), self.problem
        peers = [e for e in self.entries if e.heading.level == h.level]
        if not peers:
            return (), f"the table of contents has no level-{h.level} entry to copy the style from"
        source = heading_source(self.doc, h)
        if source is None:
            return (), "the heading's text cannot be copied into a link as it stands"
        style = self._style(peers)
        if isinstance(style, str):
            return (), style
        marker_kind, gap, form = style
        text = source if form == "full" else _NUMBER.sub("", source)
        last = (h.number or "").split(".")[-1]
        marker = marker_kind if marker_kind in _BULLETS else f"{last}{marker_kind}"
        indent = self._indent(h, peers)
        if indent is None:
            return (), f"the level-{h.level} entries of the table of contents are indented inconsistently"
        before = [e for e in self.entries if e.heading.line < h.line]
        entry_text = f"{' ' * indent}{marker}{gap}[{text}](#{h.slug})"
        if before:
            after = before[-1].line
            edit = (Edit(after + 1, 1, "", entry_text + "\n") if after < self.doc.line_count
                    else Edit(after, len(self.doc.lines[after - 1]) + 1, "", "\n" + entry_text))
        else:
            after = self.entries[0].line - 1
            edit = Edit(after + 1, 1, "", entry_text + "\n")
        planned = _Entry(h, after, indent, marker, gap, None, planned=True)
        self.entries.insert(len(before), planned)
        return (edit,), f"inserted after line {after}"

    def _style(self, peers: list[_Entry]) -> "tuple[str, str, str] | str":
        """(marker kind, gap, form) the entries share, or why they share none."""
        real = [e for e in peers if not e.planned and not e.stale]
        if not real:
            return "the table of contents has no sound entry of that level to copy the style from"
        # A bullet, or the delimiter of a numbered item ("." or ")").
        markers = {e.marker if e.marker in _BULLETS else e.marker[-1] for e in real}
        if len(markers) != 1:
            return "the entries of that level use different list markers"
        kind = markers.pop()
        if kind not in _BULLETS and any(e.marker[:-1] != (e.heading.number or "").split(".")[-1] for e in real):
            return "the table's list numbers do not follow the section numbers"
        forms: Counter[str] = Counter()
        for e in real:
            source = heading_source(self.doc, e.heading)
            if source is None:
                continue
            if e.text == source:
                forms["full"] += 1
            elif e.text == _NUMBER.sub("", source):
                forms["title"] += 1
        form, count = (forms.most_common(1) or [("", 0)])[0]
        if 2 * count <= len(real):
            return "the entries of that level do not copy their headings' text in one way"
        gap = Counter(e.gap for e in real).most_common(1)[0][0]
        return kind, gap, form

    def _indent(self, h: "Heading", peers: list[_Entry]) -> int | None:
        parent = self._parent_entry(h)
        nested = [(e, self._parent_entry(e.heading)) for e in peers if not e.planned]
        if parent is not None and nested and all(p is not None and e.indent == p.content for e, p in nested):
            return parent.content
        indents = {e.indent for e in peers if not e.planned}
        return indents.pop() if len(indents) == 1 else None

    def _parent_entry(self, h: "Heading") -> _Entry | None:
        parent = None
        for other in self.doc.headings:
            if other.line >= h.line:
                break
            if other.level < h.level:
                parent = other
        if parent is None:
            return None
        return next((e for e in self.entries if e.heading is parent), None)


def entry_inserter(ctx: "Context", finder: "HeadingFinder") -> "Proposes":
    """For one run: each finding's heading inserted into its document's table of contents; the
    findings of one document are taken in document order, so each entry goes after the last."""
    documents = {(view.name, doc.path): doc for view, doc in _links.checked_documents(ctx)}
    fixers: dict[int, TocFixer] = {}

    def propose(f: "Finding") -> tuple[tuple[Edit, ...], str]:
        doc = documents.get((f.location.repo, f.location.path))
        heading = next((h for h in doc.headings if h.line == f.location.line), None) if doc else None
        if doc is None or heading is None:
            return (), "heading not found again"
        fixer = fixers.get(id(doc))
        if fixer is None:
            fixer = fixers[id(doc)] = TocFixer(ctx, doc.whole(), finder)  # fix keeps documents whole
        return fixer.missing(heading)

    return propose
