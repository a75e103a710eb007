"""DL103 duplicate-section-number — two headings carry one number, or the numbers go backwards.

Section numbers are how the rules are cited ("§2.9.4"), so each must name exactly one place,
in order. Numeric sections (`2.9.4`) and lettered appendix sections (`C.1`) are each checked
in document order; the finding is at the later heading, with the earlier one related.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.checks import _links
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

if TYPE_CHECKING:
    from drafterlint.markdown.model import Heading

RULE = Rule("DL103", "duplicate-section-number", Severity.ERROR,
            "two headings carry one number, or numbers go backwards",
            frozenset({RULES}))

EXAMPLES = (
    Example("numbers in order", {
        "rules:endpoints_rules.md": "# Rules\n\n## 2. Divisions\n\n### 2.8 Tokenizer\n\n### 2.9 Models\n\n## 3. Models\n\n### C.1 Example\n",
    }),
    Example("a repeated number and one that goes backwards", {
        "rules:endpoints_rules.md": "# Rules\n\n### 2.9 Models\n\n### 2.9 KV Cache\n\n### 2.7 Transparency\n",
    }, expect=(("rules:endpoints_rules.md", 5, 1), ("rules:endpoints_rules.md", 7, 1))),
)


def _key(number: str) -> tuple[str, tuple]:
    parts = number.split(".")
    if parts[0].isdigit():
        return "numeric", tuple(int(p) for p in parts)
    return "appendix", (parts[0], *(int(p) for p in parts[1:] if p.isdigit()))


def check(ctx: Context) -> Iterator[Finding]:
    for view, doc in _links.checked_documents(ctx):
        seen: dict[str, Heading] = {}
        last: dict[str, tuple] = {}
        last_heading: dict[str, Heading] = {}
        for h in doc.headings:
            if not h.number:
                continue
            scheme, key = _key(h.number)
            loc = view.location(doc.path, h.line, h.column)
            if h.number in seen:
                first = seen[h.number]
                before = view.location(doc.path, first.line, first.column)
                yield RULE.at(loc, f"§{h.number} is used twice (first at line {ctx.said_line(before)})",
                              related=[before],
                              key=f"dup {h.number} {h.title}")
            elif scheme in last and key < last[scheme]:
                prev = last_heading[scheme]
                before = view.location(doc.path, prev.line, prev.column)
                yield RULE.at(loc, f"§{h.number} comes after §{prev.number} (line {ctx.said_line(before)}): numbers go backwards",
                              related=[before],
                              key=f"order {h.number} {h.title}")
            seen.setdefault(h.number, h)
            if scheme not in last or key > last[scheme]:
                last[scheme], last_heading[scheme] = key, h
