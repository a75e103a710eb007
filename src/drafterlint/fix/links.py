"""Fixes for broken fragments (the rules that declare `repointing`): point the link at the
heading it meant.

The heading comes from `renamed` (the document alone) or, with a base ref, from the earlier
version of the target document (`base_heading`). The edit replaces the fragment, and the
section number written in the link's text when it is the old one (`[§8.3](#83-withdrawal)`
becomes `[§8.2](#82-withdrawal)`, `[8.3 Withdrawal](…)` in a table of contents likewise):
text and anchor named the same section, which only moved. Any other wording is kept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.fix.edits import Edit
from drafterlint.fix.renamed import HeadingFinder, NotMapped, renamed_heading
from drafterlint.fix.source import inline_spans, position_of

if TYPE_CHECKING:
    from drafterlint.checks._links import Resolved
    from drafterlint.checks.context import Context
    from drafterlint.findings import Finding
    from drafterlint.fix.edits import Proposes

_SECTION_IN_TEXT = lazyre.compile(r"(§\s?|^\s*)([0-9]+(?:\.[0-9]+)*)(?![0-9]|\.[0-9])")


def link_edits(r: "Resolved", finder: HeadingFinder = renamed_heading) -> tuple[tuple[Edit, ...], str]:
    """The edits that repoint `r`'s link and why; no edits and the reason when it cannot be."""
    target = r.link.target
    hash_at = target.find("#")
    if r.target_doc is None or hash_at < 0:
        return (), "no target document to look the heading up in"
    fragment = target[hash_at + 1:]
    found = finder(r.target_doc.whole(), fragment)  # fix keeps every document whole
    if isinstance(found, NotMapped):
        return (), found.why
    doc = r.doc.whole()
    spans = inline_spans(doc, r.link)
    if spans is None:
        return (), "the link is not written as a plain [text](target); change it by hand"
    heading = found.heading
    line, col = position_of(doc, spans.dest_start + hash_at + 1)  # the destination is on one line
    edits = [Edit(line, col, fragment, heading.slug)]
    old_digits = re.match(r"[0-9]*", fragment).group()  # type: ignore[union-attr]
    link_text = doc.text[spans.text_start:spans.text_end]
    for m in _SECTION_IN_TEXT.finditer(link_text):
        number = m.group(2)
        if number.replace(".", "") == old_digits and number != heading.number:
            line, col = position_of(doc, spans.text_start + m.start(2))
            edits.append(Edit(line, col, number, heading.number or number))
    return tuple(edits), found.why


def repointer(ctx: "Context", outcome: str, finder: HeadingFinder) -> "Proposes":
    """For one run: each finding's link, found again among the run's resolved links of
    `outcome` (the one its rule reports), repointed."""
    from drafterlint.checks import _links

    by_place = {(r.repo.name, r.doc.path, r.link.line, r.link.column): r
                for r in _links.resolve_all(ctx) if r.outcome == outcome}

    def propose(f: "Finding") -> tuple[tuple[Edit, ...], str]:
        loc = f.location
        found = by_place.get((loc.repo, loc.path, loc.line, loc.column))
        return link_edits(found, finder) if found is not None else ((), "link not found again")

    return propose
