"""The reference repository's Markdown copy of the list, read into entries with positions, and
the matching of model names between it, the rules text and the registry.

The list is one section (``registry.markdown_list_section`` of ``registry.markdown_list``) with
one subsection per model. Under each, bullets name checkpoints or heads (which one is said by the
paragraph that introduces the bullets) as a model-hub link pinned to a revision
(``huggingface.co/<org>/<name>/tree/<rev>``) and/or the revision in backticks; a paragraph may
claim that the checkpoints ship native/bundled heads of some kind. What the list and the
registry disagree on is `_drift`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from drafterlint import lazyre
from drafterlint.checks._options import OptionSlot
from drafterlint.findings import Location
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.markdown.model import Document, Heading, ListItem, Outline
    from drafterlint.registry.model import Policy

# The words of a paragraph ending in ':' that open a list of heads or of checkpoints (by entry
# kind): an option of the rule that compares the list with the registry.
LIST_WORDS = OptionSlot[dict[str, list[str]]]("list_words")

# A model-hub repository, as a link and as a bare `org/name` word (DL301 looks for both too).
HF_LINK = lazyre.compile(
    r"https?://(?:www\.)?huggingface\.co/(?P<org>[^/\s?#)]+)/(?P<name>[^/\s?#)]+)"
    r"(?:/(?:tree|commit|blob|resolve)/(?P<rev>[^/\s?#)]+))?",
    re.IGNORECASE,
)
REPO_WORD = lazyre.compile(r"(?<![\w/.-])(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/-])")
_SHA = lazyre.compile(r"(?P<sha>[0-9a-fA-F]{7,64})\b")  # at the start of a code span
_LEADING_REPO = lazyre.compile(r"\s*(?P<repo>[\w.-]+/[\w.-]+)")
_CLAIM = lazyre.compile(r"\b(?:bundled|native|ships?|shipped|includes?|contains?)\b", re.IGNORECASE)
_VARIANT_SUFFIXES = ("instruct", "chat", "it", "base")


@dataclass(frozen=True, eq=False, repr=False)
class Entry:
    """A checkpoint or head the Markdown list names."""

    kind: str  # "checkpoint" | "head"
    model: str  # the subsection's title, as written
    repository: str
    revision: str | None  # from the link, else from the backticked sha
    location: Location  # the link (or the bullet)
    conflict: str | None = None  # link and backticked revisions disagree

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.repository.lower(), (self.revision or "").lower() or None)


@dataclass(frozen=True, eq=False, repr=False)
class Claim:
    """A sentence saying checkpoints ship native/bundled heads of a kind."""

    model: str
    method: str
    text: str
    location: Location
    repositories: tuple[str, ...]  # named explicitly; empty: every checkpoint of the subsection


@dataclass(eq=False, repr=False)
class ModelSection:
    """A model's subsection of the Markdown list: its entries and native-head claims."""

    title: str
    location: Location
    entries: list[Entry] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    @property
    def checkpoints(self) -> list[Entry]:
        return [e for e in self.entries if e.kind == "checkpoint"]

    @property
    def heads(self) -> list[Entry]:
        return [e for e in self.entries if e.kind == "head"]


@dataclass(eq=False, repr=False)
class MarkdownList:
    """The Markdown list of approved checkpoints and heads, as read."""

    path: str
    section: "Heading | None"
    models: list[ModelSection] = field(default_factory=list)


def markdown_list(ctx: "Context") -> MarkdownList | None:
    """The configured Markdown list, parsed once; None when it is not configured or absent."""
    return ctx.shared(_parsed_markdown_list)


def _parsed_markdown_list(ctx: "Context") -> MarkdownList | None:
    doc, view = ctx.documents.markdown_list, ctx.registry_repo
    if doc is None or view is None:
        return None
    from drafterlint.checks._facts import kind_words

    return parse_list(doc, view.name, ctx.config.registry.get("markdown_list_section") or "",
                      kind_words(ctx.config), LIST_WORDS.read(ctx.config))


def _any_word(words: Iterable[object]) -> "re.Pattern[str]":
    """Any of the words, whole and case-insensitive; matches nothing when there are none."""
    if not words:
        return re.compile(r"(?!)")
    return re.compile(r"\b(?:" + "|".join(re.escape(str(w).lower()) for w in words) + r")\b")


def _norm_title(text: str) -> str:
    return " ".join(text.replace("\\", "").lower().split())


def find_section(doc: "Outline", title: str) -> "Heading | None":
    want = _norm_title(title)
    for h in doc.headings:
        if _norm_title(h.title) == want:
            return h
    for h in doc.headings:
        if want and _norm_title(h.title).startswith(want):
            return h
    return None


def parse_list(doc: "Document", repo: str, title: str, kinds: list[tuple[str, str]],
               intro_words: dict[str, list[str]] | None = None) -> MarkdownList:
    """`kinds`: (pattern, method id) of the words that name drafter kinds (_facts.kind_words);
    `intro_words`: per entry kind ("head", "checkpoint"), the words of a paragraph ending in `:`
    that introduce a list of that kind (LIST_WORDS)."""
    words = intro_words or {}
    heads_intro = _any_word(words.get("head") or ())
    checkpoints_intro = _any_word(words.get("checkpoint") or ())

    out = MarkdownList(doc.path, find_section(doc, title))
    sec = out.section
    if sec is None:
        return out
    end = sec.end_line or doc.line_count
    subs = [h for h in doc.headings if sec.line < h.line <= end and h.level == sec.level + 1]
    for sub in subs:
        sub_end = sub.end_line or end
        ms = ModelSection(sub.title.strip(), Location(repo, doc.path, sub.line, sub.column))
        out.models.append(ms)
        blocks: list[tuple[str, int, Any]] = sorted(
            [("p", p.line, p) for p in doc.paragraphs if sub.line < p.line <= sub_end]
            + [("l", b.line, b) for b in doc.lists if sub.line < b.line <= sub_end]
            + [("t", t.line, t) for t in doc.tables if sub.line < t.line <= sub_end],
            key=lambda x: x[1],
        )
        kind = "checkpoint"
        list_lines = {it.line for what, _line, b in blocks if what == "l" for it in b.items}
        for what, _line, block in blocks:
            if what == "p":
                if block.line in list_lines:
                    continue  # a list item's own paragraph
                low = block.text.lower()
                if heads_intro.search(low) and low.rstrip().endswith(":"):
                    kind = "head"
                elif checkpoints_intro.search(low) and low.rstrip().endswith(":"):
                    kind = "checkpoint"
                elif _CLAIM.search(block.text) and re.search(r"\bheads?\b", low):
                    for pattern, method in kinds:
                        m = re.search(pattern, block.text)
                        if m:
                            named = tuple(r.lower() for r in REPO_WORD.findall(block.text))
                            ms.claims.append(Claim(
                                ms.title, method, block.text.strip(),
                                Location(repo, doc.path, block.line, block.column), named,
                            ))
                            break
            elif what == "l":
                for item in block.items:
                    entry = _entry(kind, ms.title, item, repo, doc.path)
                    if entry is not None:
                        ms.entries.append(entry)
    return out


def _entry(kind: str, model: str, item: "ListItem", repo: str, path: str) -> Entry | None:
    """The entry a list item names: its repository and revision, read from the item's links
    and its own prose (what GitHub renders: not a comment, not a nested item's text)."""
    link_loc = None
    repository = revision = None
    for link in item.links:
        m = HF_LINK.match(link.target.strip())
        if m:
            repository = f"{m.group('org')}/{m.group('name')}"
            revision = m.group("rev")
            link_loc = Location(repo, path, link.line, link.column)
            break
    text = " ".join(p.text for p in item.prose)
    if repository is None:
        m = HF_LINK.search(text)
        if m:
            repository = f"{m.group('org')}/{m.group('name')}"
            revision = m.group("rev")
    if repository is None:
        m = _LEADING_REPO.match(text)
        if not m:
            return None
        repository = m.group("repo")
    sha = next(filter(None, (_SHA.match(code) for code in _code_pieces(item))), None)
    conflict = None
    if sha:
        s = sha.group("sha")
        if revision is None:
            revision = s
        elif not (revision.lower().startswith(s.lower()) or s.lower().startswith(revision.lower())):
            conflict = s
    return Entry(kind, model, repository, revision,
                 link_loc or Location(repo, path, item.line, item.column), conflict)


def _code_pieces(item: "ListItem") -> list[str]:
    """The text of the code spans in the item's own prose, one piece per line they are on."""
    return [block.text[p.start:p.end] for block in item.prose for p in block.pieces if p.kind == "code"]


# -- model names ----------------------------------------------------------------------------


def norm_model(name: str) -> str:
    """`Qwen3.6-35B-A3B`, `qwen3_6-35b-a3b` and `Qwen3.6 35B A3B` all become `qwen3635ba3b`."""
    return re.sub(r"[^0-9a-z]+", "", name.lower())


def match_model(ctx: "Context", name: str, keys: Iterable[str]) -> str | None:
    """The registry model key `name` stands for, or None. No guessing: the name must equal a key
    after normalisation, or after dropping a variant suffix (`-Instruct`, `-Chat`), or be
    mapped by ``registry.model_aliases``."""
    keys = list(keys)
    aliases = ctx.config.registry.get("model_aliases") or {}
    for alias, key in aliases.items():
        if norm_model(str(alias)) == norm_model(name) and key in keys:
            return str(key)
    by_norm = {norm_model(k): k for k in keys}
    n = norm_model(name)
    if n in by_norm:
        return by_norm[n]
    for suffix in _VARIANT_SUFFIXES:
        if n.endswith(suffix) and n[: -len(suffix)] in by_norm:
            return by_norm[n[: -len(suffix)]]
    return None


def short(rev: str | None) -> str:
    """A revision as the findings show it."""
    return (rev or "?")[:7]


def reference_policy(ctx: "Context") -> "Policy | None":
    """The policy the Markdown list is held against: the newest cohort folder."""
    return ctx.registry.latest() if ctx.registry is not None else None
