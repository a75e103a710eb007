"""The one resolved set of documents every check reads.

The configured names and glob patterns (`rules.documents`, `registry.documents`, `**/*`)
are expanded once, before any check runs; the main and companion rules documents and the
registry's Markdown list are looked up once. A configured document that is missing or
unreadable is recorded once (DL702) and left out; the checks all see the same list.

The main and companion documents and the Markdown list are read first and kept whole (the facts,
the sections and the registry are read from them). The other checked documents are then read one
at a time: the engine runs the rules' per-document parts on each and keeps of it only its outline
(markdown.model.Summary), so that a large docs tree holds what the links between its files need,
not every parsed body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import field
from typing import TYPE_CHECKING, TypeVar

from drafterlint.findings import Finding, UnreadableFile
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.config import Config
    from drafterlint.markdown.model import Body, Document, Outline
    from drafterlint.sources import RepoView

T = TypeVar("T")


@dataclass(eq=False, repr=False)
class Documents:
    """The documents the checks read, resolved once before any check runs."""

    # The documents whose contents are checked, in configuration order: the rules
    # repository's `rules.documents`, then the registry's `registry.documents`. Whole for the
    # three below, the outline of each other one once the rules read its body.
    checked: list[tuple["RepoView", "Outline"]] = field(default_factory=list)
    main: "Document | None" = None  # rules.main: the document with §2.9, §3.2, §9.1
    companion: "Document | None" = None  # rules.companion: §4.2 calendar, §4.6 adoption
    markdown_list: "Document | None" = None  # registry.markdown_list, when present
    # What the rules' per-document parts (`check_document`) found as the checked documents were
    # read, by rule code; a part that raised is kept with what it raised, for the engine to
    # handle at the rule's turn as if its check had raised it.
    found: dict[str, list[Finding]] = field(default_factory=dict)
    failed: dict[str, Exception] = field(default_factory=dict)

    def whole(self) -> frozenset[int]:
        """The ids of the documents kept whole."""
        return frozenset(id(d) for d in (self.main, self.companion, self.markdown_list) if d is not None)


def resolve(config: "Config", rules: "RepoView | None", registry: "RepoView | None",
            unreadable: Callable[[UnreadableFile], None]) -> tuple[Documents, Iterator[tuple["RepoView", "Body"]]]:
    """The configured documents of the two repositories, with the main and companion documents
    and the Markdown list read; and the checked documents, each read when the iterator reaches
    it, as the rules' per-document parts read it (a Body; for the caller to add to `checked` what
    it keeps of it). Each one missing or unreadable
    is handed to `unreadable` once."""
    wanted: list[tuple[RepoView, str, str]] = []  # (view, path, why it is wanted)
    if rules is not None:
        for key in ("main", "companion"):
            if config.rules.get(key):
                wanted.append((rules, config.rules[key], key))
        wanted += [(rules, rel, "checked") for rel in rules.expand(config.rules.get("documents") or [])]
    if registry is not None:
        wanted += [(registry, rel, "checked") for rel in registry.expand(config.registry.get("documents") or [])]
        if config.registry.get("markdown_list"):
            wanted.append((registry, config.registry["markdown_list"], "markdown_list"))

    reported: set[tuple[str, str]] = set()
    docs = Documents()
    for view, rel, why in wanted:
        if why != "checked":
            doc = _read(unreadable, view, rel, why, reported, view.document)
            if doc is not None:
                setattr(docs, why, doc)

    def checked() -> Iterator[tuple["RepoView", "Body"]]:
        for view, rel, why in wanted:
            if why == "checked":
                body = _read(unreadable, view, rel, why, reported, view.body)
                if body is not None:
                    yield view, body

    return docs, checked()


def _read(unreadable, view, rel, why, reported, read: Callable[[str], T]) -> T | None:
    try:
        if not view.is_file(rel):
            if why == "markdown_list":
                return None  # optional: the list rules have nothing to compare
            what = "configured document not found" if why == "checked" else f"configured {why} document not found"
            raise UnreadableFile(view.location(rel), "is a directory, not a file" if view.is_dir(rel) else what)
        return read(rel)
    except UnreadableFile as err:
        if (view.name, rel) not in reported:
            reported.add((view.name, rel))
            unreadable(err)
        return None
