"""`fix --base-ref`: the old anchor looked up in the base version of its document.

With the version of the target document at the merge base, a broken fragment need not be
guessed at: it named a heading there. That heading is found again now by its place in the
heading tree: the base and current headings (level and title) are aligned as a diff aligns
lines. A heading in an unchanged run kept its title (it was renumbered, or moved with its
neighbours); a heading in a run replaced one for one, at the same level, is the same heading
renamed in place (§2.9.4 "Speculative Decoding" -> "Draft Models"). A heading that left its place
is found where exactly one new heading has its level and title (moved). A heading the change
deleted, or one inside a run that changed shape, is left to a human. The reason names which.
"""

from __future__ import annotations

import difflib
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from drafterlint.fix.renamed import Mapped, NotMapped
from drafterlint.markdown.slug import github_slug

if TYPE_CHECKING:
    from drafterlint.checks.context import Context
    from drafterlint.fix.renamed import HeadingFinder
    from drafterlint.markdown.model import Document, Heading


def _label(h: "Heading") -> str:
    return f"§{h.number} {h.title}" if h.number else f"“{h.title}”"


def _keys(doc: "Document") -> list[tuple[int, str]]:
    return [(h.level, github_slug(h.title)) for h in doc.headings]


def _parent_keys(doc: "Document") -> list[tuple[int, str] | None]:
    """Per heading, the key of the last heading before it of a lower level (its parent)."""
    last: dict[int, int] = {}  # level -> index of the last heading seen at it
    out: list[tuple[int, str] | None] = []
    for i, h in enumerate(doc.headings):
        above = [last[level] for level in last if level < h.level]
        parent = doc.headings[max(above)] if above else None
        out.append((parent.level, github_slug(parent.title)) if parent is not None else None)
        last[h.level] = i
    return out


# Past this many headings, the alignment treats keys repeated all over the document as noise
# (difflib's autojunk), which keeps it near linear; real documents have a few hundred headings.
_ALIGN_EXACTLY_UP_TO = 5_000


class Alignment:
    """The base and current headings of one document aligned once, with the indexes every
    fragment looked up in them uses: N broken links cost N look-ups, not N alignments."""

    def __init__(self, base: "Document", now: "Document"):
        self.base, self.now = base, now
        self.base_keys, self.now_keys = _keys(base), _keys(now)
        self.index = {id(h): i for i, h in enumerate(base.headings)}
        big = max(len(self.base_keys), len(self.now_keys)) > _ALIGN_EXACTLY_UP_TO
        self.opcodes = difflib.SequenceMatcher(None, self.base_keys, self.now_keys, autojunk=big).get_opcodes()
        # Headings that are new in this version, by key: a section moved elsewhere is deleted
        # here and inserted there, and is found by its level and title among these.
        self.arrived: dict[tuple[int, str], list[int]] = {}
        for tag, _, _, j1, j2 in self.opcodes:
            if tag in ("insert", "replace"):
                for j in range(j1, j2):
                    self.arrived.setdefault(self.now_keys[j], []).append(j)
        self.spans = [op for op in self.opcodes if op[1] < op[2]]  # those holding base headings
        self.span_starts = [op[1] for op in self.spans]
        self.base_parents, self.now_parents = _parent_keys(base), _parent_keys(now)

    def span_of(self, i: int) -> tuple[str, int, int, int, int]:
        """The opcode whose base range holds heading i (the ranges partition the headings)."""
        return self.spans[bisect_right(self.span_starts, i) - 1]


def heading_now(base: "Document", now: "Document", fragment: str,
                aligned: Alignment | None = None) -> Mapped | NotMapped | None:
    """The heading of `now` that the base heading `#fragment` became; None if `#fragment` was
    no heading's anchor at the base either (the link was broken before this change).
    `aligned`: the two versions' alignment, when many fragments are looked up in them."""
    old = base.heading_for_fragment(unquote(fragment))
    if old is None:
        return None
    a = aligned if aligned is not None else Alignment(base, now)
    i = a.index[id(old)]
    tag, i1, i2, j1, j2 = a.span_of(i)
    moved = [now.headings[j] for j in a.arrived.get(a.base_keys[i], ())]
    if len(moved) == 1 and tag != "equal":
        return Mapped(moved[0], f"at the base it was {_label(old)}; moved, now {_label(moved[0])}")
    if tag == "equal":
        j = j1 + i - i1
        new = now.headings[j]
        how = "same heading, moved" if a.base_parents[i] != a.now_parents[j] else "same heading, renumbered"
        return Mapped(new, f"at the base it was {_label(old)}; now {_label(new)} ({how})")
    if tag == "replace" and i2 - i1 == j2 - j1 and now.headings[j1 + i - i1].level == old.level:
        new = now.headings[j1 + i - i1]
        return Mapped(new, f"at the base it was {_label(old)}; renamed in place to {_label(new)}")
    if tag == "delete":
        return NotMapped(f"at the base it was {_label(old)}, which this change deleted")
    return NotMapped(f"at the base it was {_label(old)}; the headings around it changed too much to tell")


def base_finder(base_document: Callable[["Document"], "Document | None"],
                fallback: "HeadingFinder") -> "HeadingFinder":
    """A finder that asks the base version of the target document first.

    `base_document(doc)` is the parsed version of `doc`'s file at the base (None when the file
    did not exist there or could not be read). Where the base cannot tell -- no such file, or
    the link was already broken there -- `fallback` (the document alone) decides.
    """

    aligned: dict[tuple[int, int], Alignment] = {}

    def find(doc: "Document", fragment: str) -> Mapped | NotMapped:
        base = base_document(doc)
        found = None
        if base is not None:
            a = aligned.get((id(base), id(doc)))
            if a is None:
                a = aligned[(id(base), id(doc))] = Alignment(base, doc)
            found = heading_now(base, doc, fragment, a)
        if found is None:  # broken before this change: the document alone must tell
            return fallback(doc, fragment)
        return found

    return find



def documents_at_base(ctx: "Context", base_roots: "dict[str, Path | None]") -> Callable[["Document"], "Document | None"]:
    """`doc` -> its version at the base, parsed; for `base_finder`.

    `base_roots` maps a repository's name to a folder holding its files at the merge base
    (drafterlint.basetree), or to None when it has no base.
    """
    from drafterlint.findings import UnreadableFile
    from drafterlint.sources import RepoView

    views = [v for v in (ctx.rules, ctx.registry_repo) if v is not None]
    bases = {v.name: RepoView(v.name, root) for v in views if (root := base_roots.get(v.name)) is not None}
    parsed: dict[tuple[str, str], "Document | None"] = {}

    def base_document(doc: "Document") -> "Document | None":
        view = next((v for v in views if v.parsed(doc.path) is doc), None)
        base = bases.get(view.name) if view is not None else None
        if view is None or base is None:
            return None
        key = (view.name, doc.path)
        if key not in parsed:
            try:
                parsed[key] = base.document(doc.path) if base.is_file(doc.path) else None
            except UnreadableFile:
                parsed[key] = None
        return parsed[key]

    return base_document
