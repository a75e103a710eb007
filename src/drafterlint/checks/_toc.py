"""The table of contents of a document, for DL104 and its fix: which heading it is under and
the links written in it. One place, so the rule and the fix that inserts its missing entries
find the same table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drafterlint.checks import _links
from drafterlint.checks._options import OptionSlot

if TYPE_CHECKING:
    from drafterlint.checks._links import Resolved
    from drafterlint.checks.base import Context
    from drafterlint.markdown.model import Heading, Outline

# The headings that open a table of contents: an option of the rule that checks the table.
TOC_TITLES = OptionSlot[list[str]]("toc_titles")


def find_toc(ctx: "Context", doc: "Outline") -> "Heading | None":
    """The table of contents' heading (titled as one of TOC_TITLES), or None."""
    titles = ctx.shared(_toc_titles)
    return next((h for h in doc.headings if h.title.strip().lower() in titles), None)


def _toc_titles(ctx: "Context") -> set[str]:
    # Once a run, not once a document: reading an option copies its declared default.
    return {str(t).strip().lower() for t in TOC_TITLES.read(ctx.config)}


def toc_links(ctx: "Context", doc: "Outline", toc: "Heading") -> "list[Resolved]":
    """The resolved links inside the table of contents, in order."""
    by_doc = ctx.shared(_links_by_document)
    return [r for r in by_doc.get(id(doc), ()) if toc.line < r.link.line <= toc.end_line]


def _links_by_document(ctx: "Context") -> "dict[int, list[Resolved]]":
    out: dict[int, list[Resolved]] = {}
    for r in _links.resolve_all(ctx):
        out.setdefault(id(r.doc), []).append(r)
    return out
