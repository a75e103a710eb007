"""The one resolved set of documents every check reads.

The configured names and glob patterns (`rules.documents`, `registry.documents`, `**/*`)
are expanded once, before any check runs; the main and companion rules documents and the
registry's Markdown list are looked up once. A configured document that is missing or
unreadable is recorded once (DL702) and left out; the checks all see the same list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from drafterlint.findings import UnreadableFile

if TYPE_CHECKING:
    from drafterlint.config import Config
    from drafterlint.markdown.model import Document
    from drafterlint.sources import RepoView


@dataclass
class Documents:
    # The documents whose contents are checked, in configuration order: the rules
    # repository's `rules.documents`, then the registry's `registry.documents`.
    checked: list[tuple["RepoView", "Document"]] = field(default_factory=list)
    main: "Document | None" = None  # rules.main: the document with §2.9, §3.2, §9.1
    companion: "Document | None" = None  # rules.companion: §4.2 calendar, §4.6 adoption
    markdown_list: "Document | None" = None  # registry.markdown_list, when present

    def of(self, view: "RepoView | None") -> list["Document"]:
        """The checked documents of one repository."""
        return [doc for v, doc in self.checked if v is view]


def resolve(config: "Config", rules: "RepoView | None", registry: "RepoView | None",
            unreadable: Callable[[UnreadableFile], None]) -> Documents:
    """The configured documents of the two repositories; each one missing or unreadable is
    handed to `unreadable` once."""
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
    got = {i: _read(unreadable, *wanted[i], reported) for i in range(len(wanted))}
    docs = Documents()
    for i, (view, _rel, why) in enumerate(wanted):
        doc = got[i]
        if doc is None:
            continue
        if why == "checked":
            docs.checked.append((view, doc))
        else:
            setattr(docs, why, doc)
    return docs


def _read(unreadable, view, rel, why, reported) -> "Document | None":
    try:
        if not view.is_file(rel):
            if why == "markdown_list":
                return None  # optional: the list rules have nothing to compare
            what = "configured document not found" if why == "checked" else f"configured {why} document not found"
            raise UnreadableFile(view.location(rel), "is a directory, not a file" if view.is_dir(rel) else what)
        return view.document(rel)
    except UnreadableFile as err:
        if (view.name, rel) not in reported:
            reported.add((view.name, rel))
            unreadable(err)
        return None
