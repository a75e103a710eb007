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

from drafterlint.checks import _links
from drafterlint.checks._toc import find_toc, toc_links
from drafterlint.checks.base import RULES, Example, Rule
from drafterlint.findings import Severity

RULE = Rule("DL104", "toc-incomplete", Severity.WARNING,
            "a numbered level-2/3 heading is missing from the table of contents",
            frozenset({RULES}))

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


_NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)*)\.?\s")


def _same_title(entry: str, heading) -> bool:
    number = _NUMBER.match(entry)
    if number and heading.number == number.group(1):
        return True
    a, b = _title_key(entry), _title_key(heading.text)
    if not (a and b):
        return False
    if a in b or b in a:
        return True
    # The cheap upper bounds first: most pairs of titles are far apart.
    m = difflib.SequenceMatcher(None, a, b)
    return m.real_quick_ratio() >= 0.8 and m.quick_ratio() >= 0.8 and m.ratio() >= 0.8


def _listed(toc, entries, doc) -> set[int]:
    """Headings the table of contents has an entry for. An entry whose anchor is broken (that is
    DL201's finding) still counts for the heading it names, so one stale entry is one finding."""
    listed = {id(r.heading) for r in entries if r.heading is not None and r.target_doc is doc}
    for r in entries:
        if r.heading is None:
            listed.update(id(h) for h in doc.headings if h.line > toc.end_line and _same_title(r.link.text, h))
    return listed


def check(ctx):
    for view, doc in _links.checked_documents(ctx):
        toc = find_toc(ctx, doc)
        if toc is None:
            continue
        entries = toc_links(ctx, doc, toc)
        listed = _listed(toc, entries, doc)
        for h in doc.headings:
            if h.level in (2, 3) and h.number and h.number[0].isdigit() and id(h) not in listed:
                yield RULE.at(view.location(doc.path, h.line, h.column),
                              f"§{h.number} “{h.title}” is not in the table of contents (line {toc.line})",
                              suggestion=f"add `[{h.text}](#{h.slug})`", key=f"{h.number} {h.title}")
