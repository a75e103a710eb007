"""Which heading a fragment named before this change, and which heading that is now.

With a base (`check --base-ref`), a link that broke because its target heading was renamed or
renumbered says so. The old anchor is looked up in the base version of the target document; the
same heading is then found in the current one by, in this order of trust:

1. the same title under another number (*renumbered*);
2. the same section number and the same place in the heading tree (*renamed*);
3. the same section number alone, or the same place alone, when only one of them has a heading;
4. the closest title among the current headings (difflib ratio of at least 0.6).

`heading_now` is the mapping (`drafterlint fix` rewrites links with it); `explain` rewrites the
messages of new DL201/DL203 findings.
"""

from __future__ import annotations

import difflib
import posixpath
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from drafterlint.findings import Finding
    from drafterlint.markdown.model import Document, Heading

_FRAGMENT_CODES = ("DL201", "DL203")


@dataclass(frozen=True)
class Renamed:
    old: "Heading"  # in the base version
    new: "Heading"  # the same heading now
    how: str  # "same title", "same number and place", "same number", "same place", "closest title"

    @property
    def verb(self) -> str:
        return "renumbered" if self.how == "same title" else "renamed"


def _positions(doc: "Document") -> dict[int, tuple[int, ...]]:
    """Per heading (by index): its place in the heading tree, as sibling ordinals per level."""
    out: dict[int, tuple[int, ...]] = {}
    stack: list[tuple[int, int]] = []  # (level, ordinal among its siblings)
    counts: dict[tuple, int] = {}
    for i, h in enumerate(doc.headings):
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        parent = tuple(o for _, o in stack)
        ordinal = counts.get((parent, h.level), 0)
        counts[(parent, h.level)] = ordinal + 1
        stack.append((h.level, ordinal))
        out[i] = (*parent, ordinal)
    return out


def _norm(title: str) -> str:
    return " ".join(title.lower().split())


def heading_now(base_doc: "Document", current_doc: "Document", fragment: str) -> Renamed | None:
    """The heading `#fragment` named in base_doc, and the same heading in current_doc; None when
    the fragment named nothing then, still resolves, or no heading can be told to be it."""
    frag = unquote(fragment.lstrip("#"))
    old = base_doc.heading_for_fragment(frag)
    if old is None or current_doc.heading_for_fragment(frag) is not None:
        return None
    same_title = [h for h in current_doc.headings if _norm(h.title) == _norm(old.title) and h.level == old.level]
    if len(same_title) == 1:
        return Renamed(old, same_title[0], "same title")
    by_number = current_doc.heading_by_number(old.number) if old.number else None
    old_place = _positions(base_doc).get(base_doc.headings.index(old))
    now_places = _positions(current_doc)
    by_place = next((current_doc.headings[i] for i, p in now_places.items()
                     if p == old_place and current_doc.headings[i].level == old.level), None)
    if by_number is not None and by_number is by_place:
        return Renamed(old, by_number, "same number and place")
    if by_number is not None and by_place is None:
        return Renamed(old, by_number, "same number")
    if by_place is not None and by_number is None and not old.number:
        return Renamed(old, by_place, "same place")
    titles = {_norm(h.title): h for h in current_doc.headings if h.level == old.level}
    close = difflib.get_close_matches(_norm(old.title), list(titles), n=2, cutoff=0.6)
    if len(close) == 1:
        return Renamed(old, titles[close[0]], "closest title")
    return None


def _label(h: "Heading") -> str:
    return f"§{h.number} {h.title}" if h.number else h.title


def message(fragment: str, r: Renamed) -> str:
    return (f"`#{fragment.lstrip('#')}` was {_label(r.old)}; this change {r.verb} it to {_label(r.new)} "
            f"(`#{r.new.slug}`); run `drafterlint fix`")


def target_of(f: "Finding") -> tuple[str, str] | None:
    """(document path, fragment) a DL201/DL203 finding's link names, from its key (the target)."""
    if f.code not in _FRAGMENT_CODES or "#" not in f.key:
        return None
    path, _, fragment = f.key.partition("#")
    if not path:
        return f.location.path, fragment
    base = posixpath.dirname(f.location.path)
    joined = posixpath.normpath(posixpath.join(base, unquote(path.split("?", 1)[0])).lstrip("/"))
    return (None if joined.startswith("..") else joined), fragment  # type: ignore[return-value]


def explain(findings: list["Finding"], base_doc, current_doc) -> list["Finding"]:
    """New DL201/DL203 findings whose target heading this change renamed, with a message saying
    so. `base_doc(repo, path)` and `current_doc(repo, path)` give a parsed document or None."""
    out = []
    for f in findings:
        target = None if f.baseline else target_of(f)
        if target is not None and target[0] is not None:
            before, now = base_doc(f.location.repo, target[0]), current_doc(f.location.repo, target[0])
            r = heading_now(before, now, target[1]) if before is not None and now is not None else None
            if r is not None:
                f = replace(f, message=message(target[1], r), suggestion=f"matched by {r.how}")
        out.append(f)
    return out
