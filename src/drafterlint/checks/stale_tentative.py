"""DL801 stale-tentative — a TENTATIVE marker's date has passed.

The rules mark sections that may still change with a status marker such as
``[TENTATIVE — Subject to change after 2026-10-12]``. Once that date is before the audit's date
(``--today``), the marker no longer says anything true: either the section is settled (remove
the marker) or it is still open (move the date). Every marker in every checked Markdown document
of the rules repository is looked at, not only the one in §2.9.4, wherever GitHub renders it as
text (a code span, as in the example below, is text; a marker may be wrapped over two lines).
Markers inside code blocks are examples, not markers, and those in HTML comments are not shown.

Audit only: needs a date (``drafterlint audit --today YYYY-MM-DD``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.checks.base import RULES, TODAY, Context, Example, Rule
from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:
    from drafterlint.markdown.model import Body, Document
    from drafterlint.sources import RepoView

RULE = Rule(
    code="DL801",
    name="stale-tentative",
    severity=Severity.WARNING,
    summary="a TENTATIVE marker's date has passed",
    needs=frozenset({RULES, TODAY}),
)

MARKER = lazyre.compile(r"\bTENTATIVE\b[^\]\n]{0,120}?(?P<d>\d{4}-\d{2}-\d{2})")


def _doc(date: str) -> str:
    return (
        "# Rules\n\n## 2. Models\n\n> [!CAUTION]\n"
        f"> **`[TENTATIVE — Subject to change after {date}]`** This section may change.\n"
    )


EXAMPLES = (
    Example("the marker's date is still ahead", {"rules:endpoints_rules.md": _doc("2026-12-16")}),
    Example("the marker's date has passed", {"rules:endpoints_rules.md": _doc("2026-10-12")},
            expect=(("rules:endpoints_rules.md", 6, 6),)),
)


def _markers(doc: "Document") -> tuple[tuple[datetime.date, int, int, str | None], ...]:
    """Each TENTATIVE marker of `doc` with a date: (the date, its line and column, the number of
    the section it is in)."""
    found = []
    for text in doc.prose:
        for m in MARKER.finditer(text.text):
            try:
                day = datetime.date.fromisoformat(m.group("d"))
            except ValueError:
                continue
            start = m.start()
            if start > 0 and text.text[start - 1] == "[":
                start -= 1  # point at the marker's bracket
            line, column = text.position(start)
            section = doc.section_at(line)
            found.append((day, line, column, section.number if section is not None else None))
    return tuple(found)


def check_document(ctx: Context, view: "RepoView", doc: "Body") -> Iterator[Finding]:
    """The passed markers of one checked document of the rules repository."""
    today = ctx.judged_on
    if view is not ctx.rules_view:
        return
    for day, line, column, number in doc.read(_markers):
        if day >= today:
            continue
        where = f"in §{number} " if number else ""
        yield RULE.at(
            Location(view.name, doc.path, line, column),
            f"the TENTATIVE marker {where}says “subject to change after "
            f"{day.isoformat()}”, and that date has passed ({(today - day).days} days before "
            f"{today.isoformat()}); remove the marker if the section is settled, or move "
            "its date",
            key=day.isoformat(),  # the engine adds the section and the ordinal
        )


def check(ctx: Context) -> Iterator[Finding]:
    """Nothing across documents: what it reports is in one document's body (`check_document`)."""
    return iter(())
