"""DL104 toc-incomplete — (warning) a numbered level-2 or level-3 heading has no entry in the
document's hand-written table of contents.

The table of contents is the section titled "Table of Contents" (or "Contents": option
``toc_titles``); an entry is any
link in it whose fragment resolves to the heading. Lettered appendix subsections (`C.1`) are
numbered within their appendix and are not required. Documents without a table of contents are
not checked. Broken entries are DL201.

Fixable: `drafterlint fix` inserts the entry after the one of the heading before it, in the
table's own marker, indentation and text style; a stale entry is repointed as for DL201.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.checks import _links
from drafterlint.checks._fixes import BEYOND_DOUBT, Fix
from drafterlint.checks._options import Option
from drafterlint.checks._toc import TOC_TITLES, find_toc, toc_links
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity, quoted

if TYPE_CHECKING:
    from drafterlint.checks._links import Resolved
    from drafterlint.fix.edits import Proposes
    from drafterlint.fix.renamed import HeadingFinder
    from drafterlint.markdown.model import Heading, Outline

RULE = Rule("DL104", "toc-incomplete", Severity.WARNING,
            "a numbered level-2/3 heading is missing from the table of contents",
            frozenset({RULES}))

OPTIONS = (
    Option(RULE.code, "toc_titles", {"type": "array", "items": {"type": "string", "minLength": 1}},
           # Headings (any level, case-insensitive) that open a document's table of contents.
           default=["Table of Contents", "Contents"],
           description="headings (case-insensitive) that open a document's table of contents",
           fills=TOC_TITLES),
)


def _insert_entries(ctx: Context, finder: "HeadingFinder") -> Proposes:
    """Each missing heading's entry, in the table's own style (fix/toc.py, loaded by `fix` alone)."""
    from drafterlint.fix.toc import entry_inserter

    return entry_inserter(ctx, finder)


FIX = Fix.sometimes(_insert_entries, BEYOND_DOUBT)

EXAMPLES = (
    Example("every numbered section listed", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## Table of Contents\n\n1. [Basics](#1-basics)\n   - [1.1 Scope](#11-scope)\n\n"
            "## 1. Basics\n\n### 1.1 Scope\n\n#### 1.1.1 Deep\n"
        ),
    }),
    Example("a section added without a table-of-contents entry", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## Table of Contents\n\n1. [Basics](#1-basics)\n\n## 1. Basics\n\n### 1.1 Scope\n"
        ),
    }, expect=(("rules:endpoints_rules.md", 9, 1),)),
)


def _title_key(text: str) -> str:
    return " ".join(re.sub(r"^[0-9A-Z]+(\.[0-9]+)*\.?\s+", "", text).lower().split())


_NUMBER = lazyre.compile(r"^([0-9]+(?:\.[0-9]+)*)\.?\s")

# How many (stale entry, heading) title comparisons one table of contents may cost. Matching by
# number and by exact title is indexed and free; beyond this many spelling comparisons a stale
# entry is matched by those alone, so a document of N stale entries and M headings costs at
# most this, not N x M (the real rules document has a handful of stale entries, if any).
MAX_TITLE_COMPARISONS = 20_000


def similar_titles(a: str, b: str) -> bool:
    """Two normalized titles that differ only slightly (one inside the other, or 80% alike)."""
    if a in b or b in a:
        return True
    # The cheap upper bounds first: most pairs of titles are far apart.
    m = difflib.SequenceMatcher(None, a, b)
    return m.real_quick_ratio() >= 0.8 and m.quick_ratio() >= 0.8 and m.ratio() >= 0.8


def _required(h: "Heading") -> bool:
    """A heading the table of contents must list: a numbered (not lettered) level-2/3 one."""
    return h.level in (2, 3) and bool(h.number and h.number[0].isdigit())


class _Headings:
    """The required headings after the table of contents, indexed by number and by title."""

    def __init__(self, headings: Iterable["Heading"]) -> None:
        self.keyed = [(h, _title_key(h.text)) for h in headings]
        self.by_number: dict[str | None, list] = {}
        self.by_key: dict[str, list] = {}
        for h, key in self.keyed:
            self.by_number.setdefault(h.number, []).append(h)
            self.by_key.setdefault(key, []).append(h)
        self.comparisons_left = MAX_TITLE_COMPARISONS

    def named_by(self, entry: str) -> list:
        number = _NUMBER.match(entry)
        key = _title_key(entry)
        found = list(self.by_number.get(number.group(1), ())) if number else []
        if not key:
            return found
        found += self.by_key.get(key, ())
        if self.comparisons_left <= 0:
            return found
        seen = {id(h) for h in found}
        for h, other in self.keyed:
            if self.comparisons_left <= 0:
                break
            if other and id(h) not in seen:
                self.comparisons_left -= 1
                if similar_titles(key, other):
                    found.append(h)
        return found


def _listed(toc: "Heading", entries: list["Resolved"], doc: "Outline") -> set[int]:
    """Headings the table of contents has an entry for. An entry whose anchor is broken (that is
    DL201's finding) still counts for the heading it names, so one stale entry is one finding."""
    listed = {id(r.heading) for r in entries if r.heading is not None and r.target_doc is doc}
    stale = [r for r in entries if r.heading is None]
    if stale:
        index = _Headings([h for h in doc.headings
                           if h.line > toc.end_line and _required(h) and id(h) not in listed])
        for r in stale:
            listed.update(id(h) for h in index.named_by(r.link.text))
    return listed


def check(ctx: Context) -> Iterator[Finding]:
    for view, doc in _links.checked_documents(ctx):
        toc = find_toc(ctx, doc)
        if toc is None:
            continue
        entries = toc_links(ctx, doc, toc)
        listed = _listed(toc, entries, doc)
        for h in doc.headings:
            if _required(h) and id(h) not in listed:
                yield RULE.at(view.location(doc.path, h.line, h.column),
                              f"§{h.number} “{h.title}” is not in the table of contents (line {ctx.said_line(view.location(doc.path, toc.line))})",
                              suggestion=f"add {quoted(f'[{h.text}](#{h.slug})')}", key=f"{h.number} {h.title}")
