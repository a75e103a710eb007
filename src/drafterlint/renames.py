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
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import unquote

from drafterlint.findings import quoted
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.findings import Finding
    from drafterlint.markdown.model import Heading, Outline


@cache
def _fragment_codes() -> frozenset[str]:
    """The rules that report links to a missing heading of a document in the same repository
    (their OUTCOME), whose findings are keyed by the link's target."""
    from drafterlint.checks import _links
    from drafterlint.checks.base import all_rules

    fragments = (_links.BROKEN_FRAGMENT, _links.BROKEN_CROSS_DOC)
    return frozenset(m.RULE.code for m in all_rules() if getattr(m, "OUTCOME", None) in fragments)


@dataclass(frozen=True)
class Renamed:
    """A heading of the base version and what this change made of it."""

    old: "Heading"  # in the base version
    new: "Heading"  # the same heading now
    how: str  # "same title", "same number and place", "same number", "same place", "closest title"

    @property
    def verb(self) -> str:
        return "renumbered" if self.how == "same title" else "renamed"


def _positions(doc: "Outline") -> dict[int, tuple[int, ...]]:
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


# How many title comparisons the closest-title step may cost for one pair of versions of a
# document: every other step is a look-up in an index built once per pair, so N broken links
# into a document of M headings cost N look-ups and at most this many comparisons, not N x M.
MAX_TITLE_COMPARISONS = 20_000


class Versions:
    """A document at the base and now, indexed once for every fragment looked up in them."""

    def __init__(self, base_doc: "Outline", current_doc: "Outline"):
        self.base_doc, self.current_doc = base_doc, current_doc
        self.base_index = {id(h): i for i, h in enumerate(base_doc.headings)}
        self.base_places = _positions(base_doc)  # every heading has its place
        self.by_title: dict[tuple[str, int], list] = {}
        self.by_place: dict[tuple[tuple[int, ...], int], Heading] = {}
        self.by_level: dict[int, dict[str, Heading]] = {}
        for i, place in _positions(current_doc).items():
            h = current_doc.headings[i]
            self.by_title.setdefault((_norm(h.title), h.level), []).append(h)
            self.by_place.setdefault((place, h.level), h)
            self.by_level.setdefault(h.level, {})[_norm(h.title)] = h
        self.comparisons_left = MAX_TITLE_COMPARISONS

    def closest_title(self, title: str, level: int) -> "Heading | None":
        """The one title of that level spelled like `title`; None when none or two are."""
        titles = self.by_level.get(level, {})
        if len(titles) > self.comparisons_left:
            return None
        self.comparisons_left -= len(titles)
        close = difflib.get_close_matches(title, list(titles), n=2, cutoff=0.6)
        return titles[close[0]] if len(close) == 1 else None


def heading_now(base_doc: "Outline", current_doc: "Outline", fragment: str,
                versions: Versions | None = None) -> Renamed | None:
    """The heading `#fragment` named in base_doc, and the same heading in current_doc; None when
    the fragment named nothing then, still resolves, or no heading can be told to be it.
    `versions`: the two documents' index, when many fragments are looked up in them."""
    frag = unquote(fragment.lstrip("#"))
    old = base_doc.heading_for_fragment(frag)
    if old is None or current_doc.heading_for_fragment(frag) is not None:
        return None
    v = versions if versions is not None else Versions(base_doc, current_doc)
    same_title = v.by_title.get((_norm(old.title), old.level), [])
    if len(same_title) == 1:
        return Renamed(old, same_title[0], "same title")
    by_number = current_doc.heading_by_number(old.number) if old.number else None
    by_place = v.by_place.get((v.base_places[v.base_index[id(old)]], old.level))
    if by_number is not None and by_number is by_place:
        return Renamed(old, by_number, "same number and place")
    if by_number is not None and by_place is None:
        return Renamed(old, by_number, "same number")
    if by_place is not None and by_number is None and not old.number:
        return Renamed(old, by_place, "same place")
    close = v.closest_title(_norm(old.title), old.level)
    return Renamed(old, close, "closest title") if close is not None else None


def _label(h: "Heading") -> str:
    return f"§{h.number} {h.title}" if h.number else h.title


DEFAULT_HINT = "run `drafterlint fix --base-ref BASE`"


def message(fragment: str, r: Renamed, hint: str = DEFAULT_HINT) -> str:
    return (f"{quoted('#' + fragment.lstrip('#'))} was {_label(r.old)}; this change {r.verb} it to {_label(r.new)} "
            f"({quoted('#' + r.new.slug)}); {hint}")


def cause(target: tuple[str, str], r: Renamed) -> str:
    """What the change did, in words every link it broke shares (reports group by them)."""
    path, fragment = target
    return (f"{_label(r.old)} (`#{unquote(fragment.lstrip('#'))}` in {path}) was {r.verb} to {_label(r.new)} "
            f"(`#{r.new.slug}`)")


def target_of(f: "Finding") -> tuple[str, str] | None:
    """(document path, fragment) a DL201/DL203 finding's link names, from its key (the target)."""
    if f.code not in _fragment_codes() or "#" not in f.key:
        return None
    path, _, fragment = f.key.partition("#")
    if not path:
        return f.location.path, fragment
    base = posixpath.dirname(f.location.path)
    joined = posixpath.normpath(posixpath.join(base, unquote(path.split("?", 1)[0])).lstrip("/"))
    return (None if joined.startswith("..") else joined), fragment  # type: ignore[return-value]


def explain(findings: list["Finding"], base_doc, current_doc, hint: str = DEFAULT_HINT) -> list["Finding"]:
    """New DL201/DL203 findings whose target heading this change renamed, with a message saying
    so. `base_doc(repo, path)` and `current_doc(repo, path)` give a parsed document or None."""
    out = []
    indexed: dict[tuple[int, int], Versions] = {}
    for f in findings:
        target = None if f.baseline else target_of(f)
        if target is not None and target[0] is not None:
            before, now = base_doc(f.location.repo, target[0]), current_doc(f.location.repo, target[0])
            r = None
            if before is not None and now is not None:
                v = indexed.get((id(before), id(now)))
                if v is None:
                    v = indexed[(id(before), id(now))] = Versions(before, now)
                r = heading_now(before, now, target[1], v)
            if r is not None:
                # How the heading was matched justifies the message; it suggests nothing.
                f = replace(f, message=message(target[1], r, hint), suggestion=None, cause=cause(target, r))
        out.append(f)
    return out
