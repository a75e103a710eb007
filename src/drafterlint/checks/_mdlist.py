"""The reference repository's Markdown copy of the list, read into entries with positions, and
the matching of model names between it, the rules text and the registry.

The list is one section (``registry.markdown_list_section`` of ``registry.markdown_list``) with
one subsection per model. Under each, bullets name checkpoints or heads (which one is said by the
paragraph that introduces the bullets) as a model-hub link pinned to a revision
(``huggingface.co/<org>/<name>/tree/<rev>``) and/or the revision in backticks; a paragraph may
claim that the checkpoints ship native/bundled heads of some kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from drafterlint.findings import Location

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.markdown.model import Document, Heading

_HF = re.compile(
    r"https?://(?:www\.)?huggingface\.co/(?P<org>[^/\s?#)]+)/(?P<name>[^/\s?#)]+)"
    r"(?:/(?:tree|commit|blob|resolve)/(?P<rev>[^/\s?#)]+))?",
    re.IGNORECASE,
)
_REPO_WORD = re.compile(r"(?<![\w/.-])(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/-])")
_SHA = re.compile(r"`(?P<sha>[0-9a-fA-F]{7,64})\b")
_CLAIM = re.compile(r"\b(?:bundled|native|ships?|shipped|includes?|contains?)\b", re.IGNORECASE)
_VARIANT_SUFFIXES = ("instruct", "chat", "it", "base")


@dataclass(frozen=True)
class Entry:
    kind: str  # "checkpoint" | "head"
    model: str  # the subsection's title, as written
    repository: str
    revision: str | None  # from the link, else from the backticked sha
    location: Location  # the link (or the bullet)
    conflict: str | None = None  # link and backticked revisions disagree

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.repository.lower(), (self.revision or "").lower() or None)


@dataclass(frozen=True)
class Claim:
    """A sentence saying checkpoints ship native/bundled heads of a kind."""

    model: str
    method: str
    text: str
    location: Location
    repositories: tuple[str, ...]  # named explicitly; empty: every checkpoint of the subsection


@dataclass
class ModelSection:
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


@dataclass
class MarkdownList:
    path: str
    section: "Heading | None"
    models: list[ModelSection] = field(default_factory=list)


def markdown_list(ctx: "Context") -> MarkdownList | None:
    """The configured Markdown list, parsed once; None when it is not configured or absent."""

    def compute():
        view = ctx.registry_repo
        rel = ctx.config.registry.get("markdown_list")
        if view is None or not rel or not view.is_file(rel):
            return None
        return parse_list(view.document(rel), view.name, ctx.config.registry.get("markdown_list_section") or "")

    return ctx.remember("markdown_list", compute)


def _norm_title(text: str) -> str:
    return " ".join(text.replace("\\", "").lower().split())


def find_section(doc: "Document", title: str) -> "Heading | None":
    want = _norm_title(title)
    for h in doc.headings:
        if _norm_title(h.title) == want:
            return h
    for h in doc.headings:
        if want and _norm_title(h.title).startswith(want):
            return h
    return None


def parse_list(doc: "Document", repo: str, title: str) -> MarkdownList:
    from drafterlint.checks._facts import KIND_WORDS

    out = MarkdownList(doc.path, find_section(doc, title))
    sec = out.section
    if sec is None:
        return out
    end = sec.end_line or doc.line_count
    subs = [h for h in doc.headings if sec.line < h.line <= end and h.level == sec.level + 1]
    lines = doc.lines
    for i, sub in enumerate(subs):
        sub_end = sub.end_line or end
        ms = ModelSection(sub.title.strip(), Location(repo, doc.path, sub.line, sub.column))
        out.models.append(ms)
        blocks = sorted(
            [("p", p.line, p) for p in doc.paragraphs if sub.line < p.line <= sub_end]
            + [("l", b.line, b) for b in doc.lists if sub.line < b.line <= sub_end]
            + [("t", t.line, t) for t in doc.tables if sub.line < t.line <= sub_end],
            key=lambda x: x[1],
        )
        kind = "checkpoint"
        list_lines = {it.line for _, _, b in blocks if _ == "l" for it in b.items}
        for what, _line, block in blocks:
            if what == "p":
                if block.line in list_lines:
                    continue  # a list item's own paragraph
                low = block.text.lower()
                if re.search(r"\bheads?\b|\bdrafters?\b", low) and low.rstrip().endswith(":"):
                    kind = "head"
                elif "checkpoint" in low and low.rstrip().endswith(":"):
                    kind = "checkpoint"
                elif _CLAIM.search(block.text) and re.search(r"\bheads?\b", low):
                    for pattern, method in KIND_WORDS:
                        m = re.search(pattern, block.text)
                        if m:
                            named = tuple(r.lower() for r in _REPO_WORD.findall(block.text))
                            ms.claims.append(Claim(
                                ms.title, method, block.text.strip(),
                                Location(repo, doc.path, block.line, block.column), named,
                            ))
                            break
            elif what == "l":
                items = block.items
                for j, item in enumerate(items):
                    nxt = items[j + 1].line if j + 1 < len(items) else (block_end(doc, block, sub_end))
                    raw = "\n".join(lines[item.line - 1: max(item.line, nxt - 1)])
                    entry = _entry(kind, ms.title, item, raw, repo, doc.path)
                    if entry is not None:
                        ms.entries.append(entry)
    return out


def block_end(doc, block, limit: int) -> int:
    """The line after the last line of a list block (its items' continuation lines included)."""
    last = block.items[-1].line
    ln = last + 1
    lines = doc.lines
    while ln <= limit and ln <= len(lines) and lines[ln - 1].strip() and not lines[ln - 1].lstrip().startswith(("-", "*", "+", "#")):
        ln += 1
    return ln


def _entry(kind, model, item, raw, repo, path) -> Entry | None:
    link_loc = None
    repository = revision = None
    for link in item.links:
        m = _HF.match(link.target.strip())
        if m:
            repository = f"{m.group('org')}/{m.group('name')}"
            revision = m.group("rev")
            link_loc = Location(repo, path, link.line, link.column)
            break
    if repository is None:
        m = _HF.search(raw)
        if m:
            repository = f"{m.group('org')}/{m.group('name')}"
            revision = m.group("rev")
    if repository is None:
        m = re.match(r"\s*(?:[-*+]|\d+[.)])\s+`?(?P<repo>[\w.-]+/[\w.-]+)`?", raw)
        if not m:
            return None
        repository = m.group("repo")
    sha = _SHA.search(raw)
    conflict = None
    if sha:
        s = sha.group("sha")
        if revision is None:
            revision = s
        elif not (revision.lower().startswith(s.lower()) or s.lower().startswith(revision.lower())):
            conflict = s
    return Entry(kind, model, repository, revision,
                 link_loc or Location(repo, path, item.line, item.column), conflict)


# -- model names ----------------------------------------------------------------------------


def norm_model(name: str) -> str:
    """`Qwen3.6-35B-A3B`, `qwen3_6-35b-a3b` and `Qwen3.6 35B A3B` all become `qwen3635ba3b`."""
    return re.sub(r"[^0-9a-z]+", "", name.lower())


def match_model(ctx: "Context", name: str, keys) -> str | None:
    """The registry model key `name` stands for, or None. No guessing: the name must equal a key
    after normalisation, or after dropping a variant suffix (`-Instruct`, `-Chat`), or be
    mapped by ``registry.model_aliases``."""
    keys = list(keys)
    aliases = ctx.config.registry.get("model_aliases") or {}
    for alias, key in aliases.items():
        if norm_model(str(alias)) == norm_model(name) and key in keys:
            return key
    by_norm = {norm_model(k): k for k in keys}
    n = norm_model(name)
    if n in by_norm:
        return by_norm[n]
    for suffix in _VARIANT_SUFFIXES:
        if n.endswith(suffix) and n[: -len(suffix)] in by_norm:
            return by_norm[n[: -len(suffix)]]
    return None


def short(rev: str | None) -> str:
    return (rev or "?")[:7]
