"""DL205 section-ref-mismatch — a link's text names §X.Y but lands elsewhere; or a bare,
unqualified §X.Y names a section that does not exist.

`[§7.4](#74-rdi)` must land on §7.4 or a subsection of it (`#741-scope` is fine). This catches
links left behind when sections move: the anchor may still exist, but now belongs to another
section. Link text qualified by another document (`[Submission Rules §6.8](other.md#68-…)`) is
checked against that document. A bare `§X.Y` in prose, not preceded by the name of another
document ("General Submission Rules §4.3"), must exist in the same document (warning). Prose is
what GitHub renders as text: a `§X.Y` in a code block or code span, an HTML comment or block,
or a link's text or destination is not a bare reference.

Not fixed automatically: either the text or the target may be the wrong one. `drafterlint fix`
lists these as needing a human.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.checks import _links
from drafterlint.checks._fixes import Fix
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity, did_you_mean

if TYPE_CHECKING:
    from drafterlint.markdown.model import Body, Document, Heading, Outline, Prose
    from drafterlint.sources import RepoView

RULE = Rule("DL205", "section-ref-mismatch", Severity.ERROR,
            "link text says §X.Y but the target is neither §X.Y nor inside it; or a bare §X.Y that does not exist",
            frozenset({RULES}))
FIX = Fix.for_a_human("the link text and its target disagree, and either could be the wrong one")

EXAMPLES = (
    Example("link to a subsection of the named section; a bare reference that exists", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## 7.4 RDI\n\n### 7.4.1 Scope\n\nSee [§7.4](#741-scope) and §7.4.1.\n"
            "Per the General Submission Rules §9.9, nothing.\n"
        ),
    }),
    Example("link text and target disagree; a bare reference to a missing section", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## 7.4 RDI\n\n## 7.5 Available\n\nSee [§7.4](#75-available).\n\nAs in §7.9, too.\n"
        ),
    }, expect=(("rules:endpoints_rules.md", 7, 5), ("rules:endpoints_rules.md", 9, 7))),
)

_SECTION = lazyre.compile(r"§\s?([0-9]+(?:\.[0-9]+)*|[A-Z](?:\.[0-9]+)+)")
# Words that, just before a bare §, say it belongs to another document.
_QUALIFIED = lazyre.compile(
    r"(rules|guidelines|policies|policy|\.adoc|\.md|document|inference|submission|mlperf)"
    r"[\s\w.,'’-]{0,12}$",
    re.IGNORECASE,
)
def _covers(doc: "Outline", number: str, heading: "Heading") -> bool:
    named = doc.heading_by_number(number)
    if named is None:
        return False
    return named.line <= heading.line <= (named.end_line or named.line)


def check(ctx: Context) -> Iterator[Finding]:
    """The links whose text names a section they do not land in."""
    for r in _links.resolve_all(ctx):
        if r.heading is None or r.target_doc is None:
            continue
        numbers = _SECTION.findall(r.link.text)
        if not numbers or any(_covers(r.target_doc, n, r.heading) for n in numbers):
            continue
        landed = f"§{r.heading.number}" if r.heading.number else f"“{r.heading.title}”"
        exists = r.target_doc.heading_by_number(numbers[0])
        suggestion = did_you_mean('#' + exists.slug if exists else None)
        yield RULE.at(
            r.repo.location(r.doc.path, r.link.line, r.link.column),
            f"link text says §{numbers[0]} but the link lands on {landed} ({r.target_doc.path})",
            suggestion=suggestion,
            key=f"{r.link.text}->{r.link.target}",
        )


def _plain(text: Prose) -> str:
    """The block's text with code spans and link text blanked: neither is a bare reference (a
    link's text is checked against its target above), nor names the document of one."""
    chars = list(text.text)
    for p in text.pieces:
        if p.kind != "text":
            chars[p.start : p.end] = " " * (p.end - p.start)
    return "".join(chars)


def _bare_references(doc: "Document") -> tuple[tuple[str, int, int], ...]:
    """Each bare reference of `doc` to a section it does not have: (its number, line, column)."""
    numbers = {h.number for h in doc.headings if h.number}
    found = []
    for text in doc.prose:
        if "§" not in text.text:
            continue
        plain = _plain(text)
        for m in _SECTION.finditer(plain):
            number = m.group(1)
            if number in numbers or _QUALIFIED.search(plain[: m.start()]):
                continue
            found.append((number, *text.position(m.start())))
    return tuple(found)


def check_document(ctx: Context, view: "RepoView", doc: "Body") -> Iterator[Finding]:
    """The bare references of one checked document to sections it does not have."""
    for number, line, column in doc.read(_bare_references):
        yield RULE.at(
            view.location(doc.path, line, column),
            f"§{number} does not exist in {doc.path}",
            severity=Severity.WARNING,
            key=f"bare §{number}",
        )
