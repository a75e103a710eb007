"""Finding the configured sections of the rules documents: by number, else by title."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.config import Config
    from drafterlint.documents import Documents
    from drafterlint.markdown.model import Document, Heading


@dataclass(frozen=True, eq=False, repr=False)
class Located:
    """A configured section of the rules, and the heading it was found at (if any)."""

    key: str  # the configuration's name for it, e.g. "speculative-decoding"
    number: str  # the configured number
    title: str  # the configured title
    heading: "Heading | None"
    moved: bool  # found by title under another number
    # False: a version of the rules may lack it (`required: false`): its absence is an info
    required: bool = True
    group: str = "sections"  # where it is configured: rules.sections or rules.companion_sections


class Sectioned(Protocol):
    """What reading a located section takes of the checks' Context (which holds the located
    sections, so sits above this module), or of one being prepared."""

    @property
    def sections(self) -> "list[tuple[Document, Located]]": ...


class Locatable(Protocol):
    """What locating the sections reads of the Context being prepared: its documents and
    configuration."""

    @property
    def documents(self) -> "Documents": ...

    @property
    def config(self) -> "Config": ...


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("\\", "").split())


def locate(doc: "Document", key: str, number: str, title: str) -> Located:
    by_number = doc.heading_by_number(number)
    want = _norm(title)
    if by_number is not None and (not want or want in _norm(by_number.title) or _norm(by_number.title) in want):
        return Located(key, number, title, by_number, False)
    by_title = [h for h in doc.headings if want and _norm(h.title).startswith(want)]
    if by_title:
        return Located(key, number, title, by_title[0], by_title[0].number != number)
    # The number exists but with another title: the section is there, renamed.
    if by_number is not None:
        return Located(key, number, title, by_number, False)
    return Located(key, number, title, None, False)


def locate_all(ctx: Locatable) -> list[tuple["Document", Located]]:
    """Every configured section of the main document and of the companion, located (the
    engine does this once, before the checks; a missing document is DL702's)."""
    out = []
    for doc, sec_key in ((ctx.documents.main, "sections"), (ctx.documents.companion, "companion_sections")):
        if doc is None:
            continue
        for key, spec in (ctx.config.rules.get(sec_key) or {}).items():
            if spec is None:
                continue  # this version of the rules has no such section: nothing looks for it
            found = locate(doc, key, str(spec["number"]), spec["title"])
            out.append((doc, replace(found, required=spec.get("required", True) is not False,
                                     group=sec_key)))
    return out


def configured_sections(ctx: Sectioned) -> list[tuple["Document", Located]]:
    return ctx.sections


def section(ctx: Sectioned, key: str) -> tuple["Document | None", "Heading | None"]:
    for doc, loc in configured_sections(ctx):
        if loc.key == key:
            return doc, loc.heading
    return None, None
