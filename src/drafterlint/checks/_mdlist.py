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
from typing import TYPE_CHECKING, Any

from drafterlint.checks._options import OptionSlot
from drafterlint.findings import Location

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.markdown.model import Document, Heading

# The words of a paragraph ending in ':' that open a list of heads or of checkpoints (by entry
# kind): an option of the rule that compares the list with the registry.
LIST_WORDS = OptionSlot[dict[str, list[str]]]("list_words")

_HF = re.compile(
    r"https?://(?:www\.)?huggingface\.co/(?P<org>[^/\s?#)]+)/(?P<name>[^/\s?#)]+)"
    r"(?:/(?:tree|commit|blob|resolve)/(?P<rev>[^/\s?#)]+))?",
    re.IGNORECASE,
)
_REPO_WORD = re.compile(r"(?<![\w/.-])(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/-])")
_SHA = re.compile(r"(?P<sha>[0-9a-fA-F]{7,64})\b")  # at the start of a code span
_LEADING_REPO = re.compile(r"\s*(?P<repo>[\w.-]+/[\w.-]+)")
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
    return ctx.shared(_parsed_markdown_list)


def _parsed_markdown_list(ctx: "Context") -> MarkdownList | None:
    doc, view = ctx.documents.markdown_list, ctx.registry_repo
    if doc is None or view is None:
        return None
    from drafterlint.checks._facts import kind_words

    return parse_list(doc, view.name, ctx.config.registry.get("markdown_list_section") or "",
                      kind_words(ctx.config), LIST_WORDS.read(ctx.config))


def _any_word(words) -> "re.Pattern[str]":
    """Any of the words, whole and case-insensitive; matches nothing when there are none."""
    if not words:
        return re.compile(r"(?!)")
    return re.compile(r"\b(?:" + "|".join(re.escape(str(w).lower()) for w in words) + r")\b")


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
        list_lines = {it.line for _, _, b in blocks if _ == "l" for it in b.items}
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
                            named = tuple(r.lower() for r in _REPO_WORD.findall(block.text))
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


def _entry(kind, model, item, repo, path) -> Entry | None:
    """The entry a list item names: its repository and revision, read from the item's links
    and its own prose (what GitHub renders: not a comment, not a nested item's text)."""
    link_loc = None
    repository = revision = None
    for link in item.links:
        m = _HF.match(link.target.strip())
        if m:
            repository = f"{m.group('org')}/{m.group('name')}"
            revision = m.group("rev")
            link_loc = Location(repo, path, link.line, link.column)
            break
    text = " ".join(p.text for p in item.prose)
    if repository is None:
        m = _HF.search(text)
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


def _code_pieces(item) -> list[str]:
    """The text of the code spans in the item's own prose, one piece per line they are on."""
    return [block.text[p.start:p.end] for block in item.prose for p in block.pieces if p.kind == "code"]


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


# -- the comparison with the registry ------------------------------------------------------


@dataclass(frozen=True)
class Drift:
    code: str  # "DL302" | "DL504"
    location: Location
    message: str
    related: tuple[Location, ...] = ()
    suggestion: str | None = None
    key: str = ""


def reference_policy(ctx: "Context"):
    """The policy the Markdown list is held against: the newest cohort folder."""
    return ctx.registry.latest() if ctx.registry is not None else None


def drifts(ctx: "Context") -> list[Drift]:
    return ctx.shared(_all_drifts)


def _all_drifts(ctx: "Context") -> list[Drift]:
    return list(_drifts(ctx))


def _model_location(policy, model: str) -> Location | None:
    for cp in policy.checkpoints:
        if cp.model == model:
            return cp.location
    for h in policy.heads:
        if h.model == model:
            return h.location
    for name, loc in policy.enrolled_models:
        if name == model:
            return loc
    return None


def _key(repository, revision) -> tuple:
    return ((repository or "").lower(), (revision or "").lower() or None)


def _same_rev(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return a == b
    a, b = a.lower(), b.lower()
    return a.startswith(b) or b.startswith(a) if min(len(a), len(b)) >= 7 else a == b


def _find(items, repository, revision):
    return [i for i in items
            if (i.repository or "").lower() == (repository or "").lower()
            and _same_rev(i.revision, revision)]


def _drifts(ctx: "Context"):
    ml = markdown_list(ctx)
    policy = reference_policy(ctx)
    if policy is None or "catalog.yaml" in policy.unreadable:
        return  # an unreadable catalog is DL702's: the lists cannot disagree with what no one read
    where = f"policy {policy.folder}"
    if ml is not None and ml.section is not None:
        yield from _list_drifts(ctx, ml, policy, where)
    yield from _table_drifts(ctx, policy, where)
    for extra in getattr(ctx.registry, "extra_lists", ()):
        yield from _extra_drifts(extra, policy, where)


def _extra_drifts(extra, policy, where: str):
    """A configured extra copy of the list (the `drafters:` shape) against the policy's heads.

    Weight-identified entries name a repository and, as `git-sha1:<revision>`, its revision;
    configuration-identified entries have no counterpart in the catalog's shape and are left out.
    """
    weight = [e for e in extra.entries if e.model_id]
    for e in weight:
        heads = [h for h in policy.heads if h.model == e.benchmark]
        found = _find(heads, e.model_id, e.revision) if e.revision else [
            h for h in heads if (h.repository or "").lower() == e.model_id.lower()]
        if not found:
            same_repo = [h for h in policy.heads if (h.repository or "").lower() == e.model_id.lower()]
            detail = (f"{where} lists {e.model_id} only at "
                      + ", ".join(f"{h.repository}@{short(h.revision)} ({h.model})" for h in same_repo)
                      if same_repo else f"{where} has no such head for {e.benchmark}")
            yield Drift(
                "DL302", e.location,
                f"drafter {e.model_id}@{short(e.revision)} of {e.benchmark} in the list "
                f"“{extra.name}” is not an approved head: {detail}",
                tuple(h.location for h in same_repo) or tuple(
                    x for x in (_model_location(policy, e.benchmark or ""),) if x),
                key=f"extra-only:{extra.name}:{e.benchmark}:{e.model_id}@{e.revision}",
            )
            continue
        head = found[0]
        if e.approved_cohort and head.approved_cohort and e.approved_cohort != head.approved_cohort:
            yield Drift(
                "DL302", e.field_location("approved_cohort"),
                f"drafter {e.model_id}@{short(e.revision)} is approved in {e.approved_cohort} in the "
                f"list “{extra.name}” but in {head.approved_cohort} in {where}",
                (head.field_location("approved_cohort"),),
                key=f"extra-cohort:{extra.name}:{e.model_id}@{e.revision}",
            )
    if extra.doc is None:
        return
    for h in policy.heads:
        listed = [e for e in weight if e.benchmark == h.model and (e.model_id or "").lower() == (h.repository or "").lower()
                  and (not e.revision or _same_rev(e.revision, h.revision))]
        if not listed:
            yield Drift(
                "DL302", h.location,
                f"approved head {h.repository}@{short(h.revision)} of {h.model} is missing from the "
                f"list “{extra.name}” ({extra.path})",
                (Location(extra.name, extra.path, 1, 1),),
                key=f"catalog-only-extra:{extra.name}:{h.repository}@{h.revision}",
            )


def _list_drifts(ctx, ml: MarkdownList, policy, where: str):
    keys = sorted({c.model for c in policy.checkpoints} | {h.model for h in policy.heads if h.model}
                  | {m for m, _ in policy.enrolled_models})
    matched: dict[str, ModelSection] = {}
    unmatched: list[ModelSection] = []
    for ms in ml.models:
        k = match_model(ctx, ms.title, keys)
        if k is None:
            unmatched.append(ms)
        else:
            matched.setdefault(k, ms)
    scope = set(matched) | {h.model for h in policy.heads if h.model}
    absent = [k for k in sorted(scope) if k not in matched]
    absent_locs = tuple(loc for loc in (_model_location(policy, k) for k in absent) if loc)
    list_name = f"{ml.path} “{ml.section.title if ml.section else ''}”"

    for ms in unmatched:
        listed = ", ".join(e.repository for e in ms.checkpoints) or "none"
        owners = sorted({cp.model for e in ms.checkpoints for cp in policy.checkpoints
                         if (cp.repository or "").lower() == e.repository.lower()})
        hint = owners[0] if len(owners) == 1 else None  # its checkpoints say which
        others = f"; models of the registry missing from the list: {', '.join(absent)}" if absent else ""
        yield Drift(
            "DL302", ms.location,
            f"model “{ms.title}” of the Markdown list (checkpoints: {listed}) matches no model of "
            f"{where}{others}. If it is the same model, add it to registry.model_aliases; "
            "otherwise the list and the catalog disagree",
            absent_locs,
            f"add `{ms.title}: {hint}` to registry.model_aliases" if hint else None,
            key=f"model:{ms.title}",
        )
    for k in absent:
        loc = _model_location(policy, k)
        if loc is None:
            continue
        cps = [f"{c.repository}@{short(c.revision)}" for c in policy.checkpoints_of(k)]
        yield Drift(
            "DL302", loc,
            f"model {k} of {where} (checkpoints: {', '.join(cps) or 'none'}) has no subsection in "
            f"the Markdown list {list_name}",
            tuple(ms.location for ms in unmatched) or (ml_location(ml),),
            key=f"absent-model:{k}",
        )

    for k, ms in matched.items():
        cps = policy.checkpoints_of(k)
        heads = [h for h in policy.heads if h.model == k]
        for e in ms.entries:
            if e.conflict:
                yield Drift("DL302", e.location,
                            f"{e.repository}: the link pins revision {short(e.revision)} but the "
                            f"text says `{e.conflict}`; make them the same",
                            key=f"conflict:{e.repository}")
            if not e.revision:
                yield Drift("DL302", e.location,
                            f"{e.repository} is listed without a pinned revision; link to "
                            f"huggingface.co/{e.repository}/tree/<revision>",
                            key=f"unpinned:{e.repository}")
                continue
            pool = cps if e.kind == "checkpoint" else heads
            if _find(pool, e.repository, e.revision):
                continue
            same_repo = [i for i in pool if (i.repository or "").lower() == e.repository.lower()]
            if same_repo:
                revs = ", ".join(short(i.revision) for i in same_repo)
                detail = f"{where} pins {e.repository} for {k} at {revs} only"
            else:
                detail = f"{where} has no such {e.kind} for {k}"
            yield Drift(
                "DL302", e.location,
                f"{e.kind} {e.repository}@{short(e.revision)} (“{ms.title}”) is in the Markdown "
                f"list but not in the catalog: {detail}",
                tuple(i.location for i in same_repo) or tuple(
                    x for x in (_model_location(policy, k),) if x),
                key=f"md-only:{e.kind}:{e.repository}@{e.revision}",
            )
        for cp in cps:
            if not _find(ms.checkpoints, cp.repository, cp.revision):
                same = [e.location for e in ms.checkpoints
                        if e.repository.lower() == (cp.repository or "").lower()]
                yield Drift(
                    "DL302", cp.location,
                    f"approved checkpoint {cp.repository}@{short(cp.revision)} of {k} is missing "
                    f"from the Markdown list {list_name} (subsection “{ms.title}”)",
                    tuple(same) or (ms.location,),
                    key=f"catalog-only:checkpoint:{cp.repository}@{cp.revision}",
                )
        for h in heads:
            if h.bundled:
                continue
            if not _find(ms.heads, h.repository, h.revision):
                yield Drift(
                    "DL302", h.location,
                    f"approved head {h.repository}@{short(h.revision)} of {k} is missing from the "
                    f"Markdown list {list_name} (subsection “{ms.title}”)",
                    (ms.location,),
                    key=f"catalog-only:head:{h.repository}@{h.revision}",
                )

    # DL504: claims of native/bundled heads
    model_of = {id(ms): k for k, ms in matched.items()}
    for ms in ml.models:
        k = model_of.get(id(ms))
        for claim in ms.claims:
            covered = [e for e in ms.checkpoints
                       if not claim.repositories or e.repository.lower() in claim.repositories]
            bundled = [h for h in policy.heads if h.bundled and (k is None or h.model == k)]
            unbacked = [e for e in covered
                        if not any(h.method == claim.method
                                   for h in _find(bundled, e.repository, e.revision))]
            if not unbacked:
                continue
            other = [h for e in unbacked for h in _find(bundled, e.repository, e.revision)]
            same_method = [h for h in policy.heads if h.bundled and h.method == claim.method
                           and (k is None or h.model == k)]
            names = ", ".join(f"{e.repository}@{short(e.revision)}" for e in unbacked)
            msg = (f"the Markdown list says {names} ship(s) a bundled {claim.method} head, but "
                   f"{where} has no bundled {claim.method} head for "
                   f"{'it' if len(unbacked) == 1 else 'them'}")
            if other:
                msg += " (it records " + ", ".join(
                    f"{h.repository}@{short(h.revision)} as {h.method}" for h in other) + ")"
            elif same_method:
                msg += " (its bundled " + claim.method + " heads: " + ", ".join(
                    f"{h.repository}@{short(h.revision)}" for h in same_method) + ")"
            yield Drift("DL504", claim.location, msg,
                        tuple(h.location for h in (other or same_method)) or tuple(
                            e.location for e in unbacked),
                        key=f"claim:{ms.title}:{claim.method}:{names}")
        if k is None:
            continue
        for h in policy.heads:
            if not h.bundled or h.model != k:
                continue
            listed = _find(ms.checkpoints, h.repository, h.revision)
            if not listed:
                continue  # the checkpoint itself is missing: DL302 says so
            # A claim of another kind for this checkpoint is reported at the claim already.
            claimed = any(
                not c.repositories or (h.repository or "").lower() in c.repositories
                for c in ms.claims
            )
            if not claimed:
                yield Drift(
                    "DL504", h.field_location("bundled") if hasattr(h, "field_location") else h.location,
                    f"{where} records a bundled {h.method} head in {h.repository}@{short(h.revision)}, "
                    f"but the Markdown list (“{ms.title}”) does not say that checkpoint ships one",
                    tuple(e.location for e in listed),
                    key=f"unclaimed:{h.repository}@{h.revision}:{h.method}",
                )


def ml_location(ml: MarkdownList) -> Location:
    return Location("registry", ml.path, ml.section.line if ml.section else 1,
                    ml.section.column if ml.section else 1)


def _table_drifts(ctx, policy, where: str):

    if ctx.rules is None or not policy.enrolled_models:
        return
    facts = ctx.facts
    if not facts.supported_models:
        return
    keys = [m for m, _ in policy.enrolled_models]
    seen = set()
    unmatched = []
    for f in facts.supported_models:
        k = match_model(ctx, f.value, keys)
        if k is None:
            unmatched.append(f)
        else:
            seen.add(k)
    missing = [(m, loc) for m, loc in policy.enrolled_models if m not in seen]
    for f in unmatched:
        yield Drift(
            "DL302", f.location,
            f"supported model “{f.value}” matches no model {where} enrolls"
            + (f" (enrolled but not in this table: {', '.join(m for m, _ in missing)})" if missing else "")
            + "; add it to registry.model_aliases if it is the same model",
            tuple(loc for _, loc in missing),
            key=f"table:{f.value}",
        )
    for m, loc in missing:
        yield Drift(
            "DL302", loc,
            f"{where} enrolls model {m}, which the supported-models table of the rules "
            "does not list",
            tuple(f.location for f in unmatched) or (facts.supported_models[0].location,),
            key=f"enrolled:{m}",
        )
