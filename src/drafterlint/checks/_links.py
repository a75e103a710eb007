"""Where every link of the checked documents leads: resolved once, read by the DL2xx rules.

Each link gets an outcome (what kind of link it is and whether it works) and, when it does not
work, a problem record saying what is wrong. Each rule picks the outcome it owns and words its
problems; none of them re-resolves a link.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import unquote

from drafterlint import lazyre
from drafterlint.findings import UnreadableFile, did_you_mean, quoted
from drafterlint.records import dataclass
from drafterlint.rendered import is_markdown
from drafterlint.sources import github_pair

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.findings import Location
    from drafterlint.markdown.model import Heading, Link, Outline
    from drafterlint.sources import RepoView

# Outcomes: what a link is, and whether it works.
OK = "ok"
BROKEN_FRAGMENT = "broken-fragment"  # `#frag` into the linking document itself
BROKEN_FILE = "broken-file"  # a relative link (or a URL scheme GitHub cannot follow)
BROKEN_CROSS_DOC = "broken-cross-doc"  # `other.md#frag` within the repository
BROKEN_CROSS_REPO = "broken-cross-repo"  # a github.com link into a configured repository
UNVERIFIABLE = "unverifiable"  # into a repository or ref this run cannot check
NOT_GIVEN = "not-given"  # into a configured repository this run was not given: not checked
UNREADABLE = "unreadable"  # the target lies in a folder that cannot be read: DL702 says so
EXTERNAL = "external"


# Problems: what is wrong with a link whose outcome is not OK. A problem that several rules
# report words itself (`worded`), so that they say it one way: the rules never rephrase it.


@dataclass(frozen=True, eq=False, repr=False)
class FragmentMissing:
    """A link's `#fragment` names no heading or anchor of its document."""

    fragment: str  # as written after `#`
    path: str  # the document that lacks it
    repository: str | None  # that document's repository, when it is not the linking one
    anchor: str | None  # the closest existing anchor
    file: str | None  # how a link names that document (None: the linking document itself)

    @property
    def document(self) -> str:
        """The document as a reader names it: `repository:path` when it is in another one."""
        return f"{self.repository}:{self.path}" if self.repository else self.path

    @property
    def closest_target(self) -> str | None:
        """The closest anchor as the link would write it (`#a`, `other.md#a`), or None."""
        return f"{self.file or ''}#{self.anchor}" if self.anchor else None

    def worded(self) -> tuple[str, str | None]:
        """The message and the suggestion, the same in DL201, DL203 and DL204."""
        target = self.closest_target
        return (f"no heading or anchor {quoted('#' + self.fragment)} in {self.document}",
                did_you_mean(target))


@dataclass(frozen=True, eq=False, repr=False)
class FileMissing:
    """A link's file does not exist."""

    path: str  # as written (a relative link) or repository-relative (a github.com link)
    closest: str | None  # the existing file it most likely meant
    owner: str = ""  # a github.com link's repository and ref
    repo: str = ""
    ref: str = ""

    def worded(self) -> tuple[str, str | None]:
        """The message and the suggestion, the same in DL202 and DL204: where the file is
        missing (a github.com link's repository at its ref), and the closest file there."""
        where = f"{self.owner}/{self.repo} at {quoted(self.ref)}" if self.owner else "the repository"
        return (f"{quoted(self.path)} does not exist in {where}",
                did_you_mean(self.closest))


@dataclass(frozen=True, eq=False, repr=False)
class OutsideRepository:
    """A path that climbs out of the repository with `..`."""

    path: str


@dataclass(frozen=True, eq=False, repr=False)
class PathTooLong:
    """A path no file can have (`why`: the file system's limit it passes)."""

    path: str
    why: str

    def worded(self) -> tuple[str, str | None]:
        """The message (no suggestion), the same in DL202 and DL204."""
        return f"{quoted(self.path)} cannot name a file: {self.why}; shorten the link", None


@dataclass(frozen=True, eq=False, repr=False)
class UnusableScheme:
    """A link with a scheme GitHub does not follow."""

    scheme: str  # file:, javascript:, …: nothing a reader on GitHub can follow


@dataclass(frozen=True, eq=False, repr=False)
class NotConfigured:
    """A github.com link into a repository the configuration does not name."""

    owner: str  # as written
    repo: str


@dataclass(frozen=True, eq=False, repr=False)
class OtherRef:
    """A github.com link into a configured repository at a ref this run cannot check."""

    owner: str
    repo: str
    ref: str
    default_branch: str


@dataclass(frozen=True, eq=False, repr=False)
class PartialCopy:
    """A file absent from a plain (non-git) copy of the repository, which may be partial."""

    path: str
    owner: str
    repo: str


@dataclass(frozen=True, eq=False, repr=False)
class NotGiven:
    """A link into a configured repository this run was not given."""

    owner: str
    repo: str


Problem = (FragmentMissing | FileMissing | OutsideRepository | PathTooLong | UnusableScheme | NotConfigured
           | OtherRef | PartialCopy | NotGiven)

# What a link of one outcome can have wrong, one union per rule that reports that outcome (see
# docs/development.md, Routing records): each rule takes its links with their problems narrowed
# to its union (`broken_files`, ...) and words them in a `match` ending in assert_never, so a
# kind added to a union and worded by no case fails mypy there. A problem of a kind outside its
# outcome's union stops the run where the rule takes it (`_unrouted`), never passes unreported.
FileProblem = FileMissing | OutsideRepository | PathTooLong | UnusableScheme  # BROKEN_FILE
CrossRepoProblem = FragmentMissing | FileMissing | OutsideRepository | PathTooLong  # BROKEN_CROSS_REPO
Unverified = NotConfigured | OtherRef | PartialCopy  # UNVERIFIABLE

_LINE_ANCHOR = lazyre.compile(r"^L\d+(C\d+)?(-L\d+(C\d+)?)?$", re.IGNORECASE)
_SCHEME = lazyre.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_GITHUB = lazyre.compile(
    r"^https?://(?:www\.)?github\.com/(?P<owner>[^/?#]+)/(?P<repo>[^/?#]+)"
    r"(?:/(?P<kind>blob|tree)/(?P<ref>[^/?#]+)(?P<path>/[^?#]*)?)?/?(?:\?[^#]*)?(?:#(?P<frag>.*))?$",
    re.IGNORECASE,
)


# Slotted: one for every link of every checked document is kept for the run.
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Resolved:
    """Where one link leads: its outcome, and what is wrong when it is not OK."""

    # The linking document and the one it points into: their outlines (the engine keeps no
    # more of a checked document once its per-document checks ran; fix keeps them whole).
    doc: "Outline"
    repo: "RepoView"
    link: "Link"
    outcome: str
    problem: Problem | None = None
    heading: "Heading | None" = None  # the heading the link lands on, when it is one
    # The Markdown document the link points into; for a broken fragment, the one that lacks it.
    target_doc: "Outline | None" = None

    @property
    def location(self) -> "Location":
        """Where the link starts."""
        return self.repo.location(self.doc.path, self.link.line, self.link.column)


def checked_documents(ctx: "Context") -> list[tuple["RepoView", "Outline"]]:
    """The Markdown files whose links are checked: the engine's one resolved list."""
    return ctx.documents.checked


def fragment_ok(doc: "Outline", fragment: str) -> bool:
    frag = unquote(fragment)
    if frag == "" or frag.lower() == "top" or _LINE_ANCHOR.match(frag):
        return True
    return frag.lower() in doc.anchors()


class _AnchorIndex:
    """Lookups for suggestions, built once per document so that many broken links in a large
    document stay linear: anchors by their title part (the slug without its section number) and
    by word, so that spelling comparisons only look at anchors sharing a word (the rarest words
    first), or else at the anchors next to it in sorted order."""

    def __init__(self, doc: "Outline"):
        self.anchors = list(doc.anchors())
        self.sorted = sorted(self.anchors)
        self.by_title: dict[str, str] = {}
        self.by_word: dict[str, list[str]] = {}
        # Section number (its digits, "294" for 2.9.4) -> the anchor of the one heading carrying
        # it; None when several do. A heading renamed in place keeps its number.
        self.by_number: dict[str, str | None] = {}
        for h in doc.headings:
            digits = (h.number or "").replace(".", "")
            if digits.isdigit():
                self.by_number[digits] = None if digits in self.by_number else h.slug
        for a in self.anchors:
            self.by_title.setdefault(_title_part(a), a)
            for word in set(a.split("-")):
                if len(word) >= 3:
                    self.by_word.setdefault(word, []).append(a)

    def suggest(self, fragment: str) -> str | None:
        frag = unquote(fragment).lower()
        title = _title_part(frag)
        if title and title in self.by_title:
            return self.by_title[title]
        candidates: dict[str, None] = {}
        shared = [self.by_word[w] for w in set(frag.split("-")) if w in self.by_word]
        for anchors in sorted(shared, key=len):
            candidates.update(dict.fromkeys(anchors[:MAX_ANCHOR_CANDIDATES]))
            if len(candidates) >= MAX_ANCHOR_CANDIDATES:
                break
        close = closest(frag, list(candidates)[:MAX_ANCHOR_CANDIDATES] or _around(self.sorted, frag), 0.6)
        numbered = _NUMBER_PREFIX.match(frag)
        digits = numbered.group(0).rstrip("-") if numbered else ""
        # `#294-old-title` when §2.9.4 is now "New Title": the heading with that number is a
        # better guess than a spelling match under another number (one digit says too little).
        same_number = self.by_number.get(digits) if len(digits) >= 2 else None
        if same_number and not (close and close.startswith(digits + "-")):
            return same_number
        return close


# The most spelling comparisons one suggestion may cost: a did-you-mean looks only at candidates
# an index picks (sharing a word, a file name, a neighbour in sorted order), never at everything,
# so N broken links cost N times this, not N times the size of the repository.
MAX_CANDIDATES = 200
MAX_ANCHOR_CANDIDATES = 50  # a broken fragment is the commonest finding: tens of thousands fit
_NEIGHBOURS = 8  # files on each side of a missing path, in sorted order, that a suggestion weighs


def closest(word: str, candidates: list[str], cutoff: float) -> str | None:
    """The candidate spelled most like `word` (difflib ratio at least `cutoff`), or None."""
    close = difflib.get_close_matches(word, candidates[:MAX_CANDIDATES], n=1, cutoff=cutoff)
    return close[0] if close else None


class _FileIndex:
    """The files of one repository, for suggesting the one a broken link meant: neighbours of the
    missing path in sorted order (a typo late in the name), neighbours of its file name within its
    folder, and files of the same name in other folders (a wrong folder)."""

    def __init__(self, files: "frozenset[str]"):
        self.paths = sorted(files)
        self.by_folder: dict[str, list[str]] = {}
        self.by_name: dict[str, list[str]] = {}
        for p in self.paths:  # sorted, so each folder's names are too
            folder, _, name = p.rpartition("/")
            self.by_folder.setdefault(folder, []).append(name)
            self.by_name.setdefault(name.lower(), []).append(p)

    def suggest(self, rel: str) -> str | None:
        folder, _, name = rel.rpartition("/")
        names = self.by_folder.get(folder, [])
        candidates = dict.fromkeys(_around(self.paths, rel))
        candidates.update(dict.fromkeys(f"{folder}/{n}" if folder else n for n in _around(names, name)))
        candidates.update(dict.fromkeys(self.by_name.get(name.lower(), ())[:_NEIGHBOURS]))
        return closest(rel, list(candidates), 0.7)


def _around(ordered: list[str], key: str) -> list[str]:
    i = bisect.bisect_left(ordered, key)
    return ordered[max(0, i - _NEIGHBOURS): i + _NEIGHBOURS]


def suggest_file(ctx: "Context", view: "RepoView", rel: str) -> str | None:
    """The existing file a broken link most likely meant, from a bounded set of candidates."""
    indexes = ctx.shared(_file_indexes)
    index = indexes.get(id(view))
    if index is None:
        index = indexes[id(view)] = _FileIndex(view.files)
    return index.suggest(rel)


def _file_indexes(ctx: "Context") -> "dict[int, _FileIndex]":
    return {}  # per run, as _anchor_indexes


def _title_part(anchor: str) -> str:
    return _NUMBER_PREFIX.sub("", anchor)


_NUMBER_PREFIX = lazyre.compile(r"^[0-9]+-?")
def suggest_anchor(ctx: "Context", doc: "Outline", fragment: str) -> str | None:
    """The closest existing anchor: same title under another number first, then by spelling."""
    indexes = ctx.shared(_anchor_indexes)
    index = indexes.get(id(doc))
    if index is None:
        index = indexes[id(doc)] = _AnchorIndex(doc)
    return index.suggest(fragment)


def _anchor_indexes(ctx: "Context") -> "dict[int, _AnchorIndex]":
    # Per run, not per process: the documents of a run (kept alive by the context) are the
    # only ones whose id() is a key, and nothing outlives the run that parsed them.
    return {}


def resolve_all(ctx: "Context") -> list[Resolved]:
    """Every link of every checked document, resolved once per run."""
    return ctx.shared(_resolved_links)


def _resolved_links(ctx: "Context") -> list[Resolved]:
    return list(_resolve_all(ctx))


def with_outcome(ctx: "Context", outcome: str) -> Iterator[tuple[Resolved, Problem]]:
    """The links of one outcome that is not OK, each with its problem, in document order."""
    yield from ctx.shared(_by_outcome).get(outcome, ())


def _by_outcome(ctx: "Context") -> "dict[str, list[tuple[Resolved, Problem]]]":
    # One pass for the rules that each read one outcome: each walking every link of a
    # 20,000-file tree (480,000 records, far beyond the processor's caches) cost more a link
    # the larger the tree.
    out: dict[str, list[tuple[Resolved, Problem]]] = {}
    for r in resolve_all(ctx):
        if r.problem is not None:
            out.setdefault(r.outcome, []).append((r, r.problem))
    return out


def missing_fragments(ctx: "Context", outcome: str) -> Iterator[tuple[Resolved, FragmentMissing]]:
    """The links of a fragment outcome (BROKEN_FRAGMENT, BROKEN_CROSS_DOC) and their problem."""
    return _routed(ctx, outcome, lambda p: p if isinstance(p, FragmentMissing) else None)


def broken_files(ctx: "Context") -> Iterator[tuple[Resolved, FileProblem]]:
    """The BROKEN_FILE links and their problems."""
    return _routed(ctx, BROKEN_FILE, lambda p: p if isinstance(p, FileProblem) else None)


def broken_cross_repo(ctx: "Context") -> Iterator[tuple[Resolved, CrossRepoProblem]]:
    """The BROKEN_CROSS_REPO links and their problems."""
    return _routed(ctx, BROKEN_CROSS_REPO, lambda p: p if isinstance(p, CrossRepoProblem) else None)


def unverified(ctx: "Context") -> Iterator[tuple[Resolved, Unverified]]:
    """The UNVERIFIABLE links and why each cannot be checked."""
    return _routed(ctx, UNVERIFIABLE, lambda p: p if isinstance(p, Unverified) else None)


_Kind = TypeVar("_Kind")


def _routed(ctx: "Context", outcome: str,
            narrowed: Callable[[Problem], _Kind | None]) -> Iterator[tuple[Resolved, _Kind]]:
    """The links of `outcome` with their problems, `narrowed` to its union (None: a kind outside
    it, a bug). mypy checks each reader's isinstance against the union its return type names,
    through `_Kind`: a union alias is no `type[T]`, and a TypeGuard's body is never compared with
    the type it claims."""
    for r, p in with_outcome(ctx, outcome):
        kind = narrowed(p)
        if kind is None:
            raise _unrouted(r, p)
        yield r, kind


def _unrouted(r: Resolved, p: Problem) -> AssertionError:
    """A bug: a problem resolved for an outcome whose union lacks its kind, which no rule words."""
    return AssertionError(f"a {type(p).__name__} on a {r.outcome} link, which no rule words: {p!r}")


def _resolve_all(ctx: "Context") -> Iterator[Resolved]:
    for view, doc in checked_documents(ctx):
        for link in doc.links:
            yield _resolve(ctx, view, doc, link)


def _resolve(ctx: "Context", view: "RepoView", doc: "Outline", link: "Link") -> Resolved:
    target = link.target.strip()
    if target.startswith("#") or target == "":
        return _same_doc(ctx, view, doc, link, target[1:])
    scheme = _SCHEME.match(target)
    if scheme:
        name = scheme.group(1).lower()
        if name in ("http", "https"):
            gh = parse_github(target)
            if gh:
                return _github(ctx, view, doc, link, gh)
            return Resolved(doc, view, link, EXTERNAL)
        if name in ("file", "javascript", "vbscript", "data"):
            return Resolved(doc, view, link, BROKEN_FILE, UnusableScheme(name))
        return Resolved(doc, view, link, EXTERNAL)  # mailto:, ftp:, …
    if target.startswith("//"):
        return Resolved(doc, view, link, EXTERNAL)
    return _relative(ctx, view, doc, link, target)


def _same_doc(ctx: "Context", view: "RepoView", doc: "Outline", link: "Link", fragment: str) -> Resolved:
    if fragment_ok(doc, fragment):
        return Resolved(doc, view, link, OK, heading=doc.heading_for_fragment(unquote(fragment)),
                        target_doc=doc)
    return Resolved(doc, view, link, BROKEN_FRAGMENT,
                    FragmentMissing(fragment, doc.path, None, suggest_anchor(ctx, doc, fragment), None),
                    target_doc=doc)


def _split(target: str) -> tuple[str, str | None]:
    path, sep, frag = target.partition("#")
    path = path.split("?", 1)[0]
    return unquote(path), (frag if sep else None)


def _relative(ctx: "Context", view: "RepoView", doc: "Outline", link: "Link", target: str) -> Resolved:
    path, fragment = _split(target)
    base = doc.path.rsplit("/", 1)[0] if "/" in doc.path else ""
    joined = path[1:] if path.startswith("/") else (f"{base}/{path}" if base else path)
    rel = view.normalize(joined)
    if rel is None:
        return Resolved(doc, view, link, BROKEN_FILE, OutsideRepository(path))
    if rel == "" or view.is_dir(rel):
        readme = view.readme(rel)
        if fragment and readme:
            return _fragment_in(ctx, view, view, doc, link, readme, fragment, BROKEN_CROSS_DOC)
        return Resolved(doc, view, link, OK)
    if not view.is_file(rel):
        unknown = _not_listed(ctx, view, view, doc, link, rel, path, BROKEN_FILE)
        if unknown is not None:
            return unknown
        return Resolved(doc, view, link, BROKEN_FILE, FileMissing(path, suggest_file(ctx, view, rel)))
    if fragment is not None:
        return _fragment_in(ctx, view, view, doc, link, rel, fragment, BROKEN_CROSS_DOC)
    return Resolved(doc, view, link, OK)


def _not_listed(ctx: "Context", source: "RepoView", target: "RepoView", doc: "Outline", link: "Link", rel: str,
                shown: str, broken: str) -> Resolved | None:
    """Why `rel`, absent from `target`'s listing, is not simply missing: it lies in a folder
    that could not be read (DL702 of that folder; the link is not judged), or no file can have
    a path that long (reported as `broken`, saying so). None when it is just missing."""
    unlisted = target.unlisted_folder(rel)
    if unlisted is not None:
        folder, why = unlisted
        ctx.unreadable(UnreadableFile(target.location(folder or "."),
                                      f"folder cannot be read ({why}); links into it are not checked"))
        return Resolved(doc, source, link, UNREADABLE)
    too_long = target.too_long(rel)
    if too_long:
        return Resolved(doc, source, link, broken, PathTooLong(shown, too_long))
    return None


def _fragment_in(ctx: "Context", target: "RepoView", source: "RepoView", doc: "Outline", link: "Link", rel: str,
                 fragment: str, outcome: str) -> Resolved:
    """Check `fragment` against document `rel` of repository `target`."""
    if not is_markdown(rel):
        return Resolved(doc, source, link, OK)  # fragments into code or data files: line anchors
    try:
        target_doc = target.outline(rel)
    except UnreadableFile as err:
        ctx.unreadable(err)
        return Resolved(doc, source, link, OK)
    if fragment_ok(target_doc, fragment):
        return Resolved(doc, source, link, OK,
                        heading=target_doc.heading_for_fragment(unquote(fragment)),
                        target_doc=target_doc)
    problem = FragmentMissing(fragment, rel, None if target is source else target.github_name,
                              suggest_anchor(ctx, target_doc, fragment), None if target_doc is doc else rel)
    return Resolved(doc, source, link, outcome, problem, target_doc=target_doc)


@dataclass(frozen=True, eq=False, repr=False)
class GitHubLink:
    """`https://github.com/OWNER/REPO[/blob|tree/REF[/PATH]][#frag]`, taken apart."""

    owner: str  # as written
    repo: str  # as written, without `.git`
    kind: str | None  # "blob", "tree", or None for the repository's front page
    ref: str | None
    path: str  # repository-relative, percent-decoded, no leading or trailing "/"
    fragment: str | None

    @property
    def pair(self) -> tuple[str, str]:
        return self.owner.lower(), self.repo.lower()


def parse_github(url: str) -> GitHubLink | None:
    m = _GITHUB.match(url.strip())
    if m is None:
        return None
    return GitHubLink(m.group("owner"), m.group("repo").removesuffix(".git"), m.group("kind"),
                      m.group("ref"), unquote((m.group("path") or "").strip("/")), m.group("frag"))


def _github(ctx: "Context", view: "RepoView", doc: "Outline", link: "Link", gh: GitHubLink) -> Resolved:
    owner, repo = gh.pair
    targets = [v for v in (ctx.rules, ctx.registry_repo) if v is not None and v.github == (owner, repo)]
    configured = {github_pair(ctx.config.rules.get("github")), github_pair(ctx.config.registry.get("github"))}
    if not targets:
        if (owner, repo) in configured:
            return Resolved(doc, view, link, NOT_GIVEN, NotGiven(owner, repo))
        return Resolved(doc, view, link, UNVERIFIABLE, NotConfigured(gh.owner, gh.repo))
    target = targets[0]
    kind, ref = gh.kind, gh.ref
    if kind is None:
        return Resolved(doc, view, link, OK)  # the repository's front page
    if ref not in (target.default_branch, "HEAD"):
        return Resolved(doc, view, link, UNVERIFIABLE, OtherRef(owner, repo, ref or "", target.default_branch))
    rel = target.normalize(gh.path)
    fragment = gh.fragment
    if rel is None:
        return Resolved(doc, view, link, BROKEN_CROSS_REPO, OutsideRepository(gh.path))
    present_dir = rel == "" or target.is_dir(rel)
    present_file = target.is_file(rel)
    if not (present_dir or present_file):
        unknown = _not_listed(ctx, view, target, doc, link, rel, rel, BROKEN_CROSS_REPO)
        if unknown is not None:
            return unknown
        if not target.complete:
            return Resolved(doc, view, link, UNVERIFIABLE, PartialCopy(rel, owner, repo))
        return Resolved(doc, view, link, BROKEN_CROSS_REPO,
                        FileMissing(rel, suggest_file(ctx, target, rel), owner, repo, ref or ""))
    if fragment is None:
        return Resolved(doc, view, link, OK)
    md = target.readme(rel) if present_dir else rel
    if md is None:
        return Resolved(doc, view, link, OK)
    return _fragment_in(ctx, target, view, doc, link, md, fragment, BROKEN_CROSS_REPO)


