"""Where repositories come from, and the read-only view of one that checks are given.

A RepoView answers "does this file exist", "what does this document say" and "what is the
parsed registry", confined to the repository root: nothing resolves outside it, symlinks that
leave it are treated as missing, and each document is read and parsed once.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from drafterlint import inputs
from drafterlint.findings import REGISTRY_REPO, REPORT_MARKER, REPORT_MARKER_WITHIN, RULES_REPO, Location, UnreadableFile
from drafterlint.gitlines import markdown_renumbered
from drafterlint.rendered import ROOT_README_FOLDERS, is_markdown, readme_of

if TYPE_CHECKING:
    from drafterlint.cohorts import Calendar
    from drafterlint.gitlines import Renumber
    from drafterlint.markdown.model import Body, Document, Outline
    from drafterlint.registry.model import Registry

# Files larger than this are reported as unreadable instead of being parsed.
MAX_FILE_BYTES = inputs.MAX_FILE_BYTES
# Markdown is parsed at about 1-2 MB/s: a document larger than this (16 times the real rules
# document) is reported as unreadable rather than parsed, so a check stays within seconds.
MAX_MARKDOWN_BYTES = 6 * 1024 * 1024


class RepoView:
    def __init__(
        self,
        name: str,
        root: Path,
        *,
        github: tuple[str, str] | None = None,
        default_branch: str = "main",
        max_file_bytes: int = MAX_FILE_BYTES,
    ):
        self.name = name
        self.root = Path(root).resolve()
        self.github = github  # (owner, repo) as github.com spells it, lowercased for matching
        self.default_branch = default_branch
        self.max_file_bytes = max_file_bytes
        # Each document read, whole, or only its outline once the rules that read its body ran
        # on it (`keep_outline`); `keep_whole` keeps every one whole (fix rewrites their text).
        self._documents: dict[str, Outline] = {}
        self.keep_whole = False
        self._files: frozenset[str] | None = None
        self._dirs: frozenset[str] | None = None
        # Folders that could not be listed (relative path -> why): what is inside them is
        # unknown, not absent.
        self._unlisted: dict[str, str] = {}
        self._folder_names: dict[str, list[str]] | None = None  # folder -> its files' names
        # Set by the check command's cache (drafterlint.cache): told of every input read, and
        # a store of parsed documents keyed by content. Both optional.
        self.recorder: Any = None
        self.doc_cache: Any = None
        self._read_as: dict[str, str] = {}  # what the cache names the bytes of each document read
        # A folder written from a git commit's tree holds every file of it, without a `.git`.
        self.known_complete: bool | None = None
        # The registry read from this view (registry.load.registry_of): (the configuration, the
        # calendar, the registry).
        self.registry_read: tuple[Any, Calendar, Registry] | None = None
        # Per document read whose lines git numbers otherwise than the parser (a bare "\r"):
        # what takes the parser's positions to git's (drafterlint.gitlines).
        self.renumbered: dict[str, "Renumber"] = {}

    @property
    def complete(self) -> bool:
        """Whether a missing file is really missing: true for a git checkout.

        A plain folder may be a partial copy (a snapshot of a few files), so links into it
        that name absent files are reported as unverifiable rather than broken.
        """
        if self.known_complete is not None:
            return self.known_complete
        if self.recorder is not None:
            self.files  # noqa: B018  (the listing, which the cache records with this answer)
        return (self.root / ".git").exists()

    @property
    def github_name(self) -> str:
        return "/".join(self.github) if self.github else self.name

    def __repr__(self) -> str:
        return f"RepoView({self.name!r}, {str(self.root)!r})"

    def location(self, path: str, line: int = 1, column: int = 1) -> Location:
        return Location(self.name, path, line, column)

    # -- the tree -------------------------------------------------------------------------

    def _scan(self) -> None:
        files, dirs, self._unlisted = inputs.scan(str(self.root))
        self._files = frozenset(files)
        self._dirs = frozenset(dirs)
        if self.recorder is not None:
            self.recorder.tree(self)

    def _inside(self, full: str) -> bool:
        return inputs.inside(str(self.root), full)

    @property
    def files(self) -> frozenset[str]:
        if self._files is None:
            self._scan()
        return self._files  # type: ignore[return-value]

    @property
    def dirs(self) -> frozenset[str]:
        if self._dirs is None:
            self._scan()
        return self._dirs  # type: ignore[return-value]

    @staticmethod
    def normalize(path: str) -> str | None:
        """A repository-relative POSIX path with '.' and '..' resolved; None if it escapes."""
        parts: list[str] = []
        # As PurePosixPath(path).parts but for its root: a path led by exactly two slashes
        # keeps them as its root part, which the loop keeps. Split by hand, since making a
        # PurePosixPath was a third of resolving a link between two documents.
        names = PurePosixPath(path).parts if path.startswith("//") else path.split("/")
        for part in names:
            if part in ("", "."):
                continue
            if part == "/":
                continue
            if part == "..":
                if not parts:
                    return None
                parts.pop()
            else:
                parts.append(part)
        return "/".join(parts)

    def is_file(self, rel: str) -> bool:
        return rel in self.files

    def unlisted_folder(self, rel: str) -> tuple[str, str] | None:
        """(folder, why) when `rel` lies in a folder that could not be listed, else None."""
        self.files  # noqa: B018  (the scan fills the unlisted folders)
        parts = rel.split("/")
        for i in range(len(parts), 0, -1):
            folder = "/".join(parts[:i])
            if folder in self._unlisted:
                return folder, self._unlisted[folder]
        return None

    def too_long(self, rel: str) -> str | None:
        """Why no file can have path `rel` here (a name past NAME_MAX, the whole past
        PATH_MAX), or None."""
        name_max, path_max = _limits(self.root)
        longest = max(rel.split("/"), key=lambda n: len(n.encode("utf-8", "surrogateescape")))
        size = len(longest.encode("utf-8", "surrogateescape"))
        if size > name_max:
            return f"a name in it is {size} bytes long, past the file system's limit of {name_max} (NAME_MAX)"
        full = len(os.fsencode(self.root / rel))
        if full > path_max:
            return (f"joined to the repository folder it is {full} bytes long, past the file "
                    f"system's limit of {path_max} (PATH_MAX)")
        return None

    def is_dir(self, rel: str) -> bool:
        return rel.rstrip("/") in self.dirs

    def readme(self, folder: str) -> str | None:
        """The README github.com shows for `folder` (the one in it), or for the repository
        (`""`: the first of `.github/`, the root and `docs/` that holds one)."""
        if self._folder_names is None:
            names: dict[str, list[str]] = {}
            for rel in self.files:
                here, _, name = rel.rpartition("/")
                names.setdefault(here, []).append(name)
            self._folder_names = names
        folder = folder.rstrip("/")
        for where in ROOT_README_FOLDERS if folder == "" else (folder,):
            found = readme_of(self._folder_names.get(where, ()))
            if found is not None:
                return f"{where}/{found}" if where else found
        return None

    # -- contents -------------------------------------------------------------------------

    def read_bytes(self, rel: str, limit: int | None = None) -> bytes:
        try:
            data = self._read_bytes(rel, self.max_file_bytes if limit is None else limit)
        except UnreadableFile as exc:
            if self.recorder is not None:
                self.recorder.read(self, rel, limit, None, exc.message)
            raise
        if self.recorder is not None:
            self.recorder.read(self, rel, limit, data, None)
        return data

    def _read_bytes(self, rel: str, limit: int) -> bytes:
        try:
            return inputs.read_bounded(str(self.root), rel, limit)
        except inputs.Unreadable as exc:
            raise UnreadableFile(self.location(rel), exc.message) from None

    def read_text(self, rel: str, limit: int | None = None) -> str:
        return decode_text(self.read_bytes(rel, limit), self.location(rel))

    def expand(self, patterns: list[str]) -> list[str]:
        """Configured names and glob patterns (`**/*`), in order, each file once.

        A pattern matches only files github.com renders as Markdown (`README.MD`,
        `guide.markdown`), and matches them whatever the case of their names (`**/*.md` takes
        `README.MD`, as GitHub renders it), never a report drafterlint wrote (one that opens
        with REPORT_MARKER): a Markdown or audit report written into the repository would
        otherwise be linted by the next run. A file named explicitly is always kept."""
        out: dict[str, None] = {}
        for pattern in patterns:
            if any(ch in pattern for ch in "*?["):
                glob = Glob(pattern.lower())
                out.update((f, None) for f in sorted(self.files)
                           if is_markdown(f) and glob.match(f.lower()) and not self._is_own_report(f))
            else:
                out[pattern] = None
        return list(out)

    def _is_own_report(self, rel: str) -> bool:
        if not is_markdown(rel):
            return False
        try:
            data = self.read_bytes(rel, min(self.max_file_bytes, MAX_MARKDOWN_BYTES))
        except UnreadableFile:
            return False  # reading it again for the check reports why
        return REPORT_MARKER.encode() in data[:REPORT_MARKER_WITHIN]

    def with_documents(self, documents: "dict[str, Document]") -> "RepoView":
        """The same tree, with `documents` standing for the files of those names: how a fix is
        checked before it is written. Everything else (listing, parsed documents) is shared."""
        twin = copy.copy(self)
        twin._documents = {**self._documents, **documents}
        return twin

    def parsed(self, rel: str) -> "Outline | None":
        """The document (or its outline) if it has already been read; never reads."""
        return self._documents.get(rel)

    def parsed_documents(self) -> "list[Outline]":
        """Every document read so far (or its outline), in the order they were first asked for."""
        return list(self._documents.values())

    def document(self, rel: str) -> "Document":
        """The whole document: read and parsed once, unless only its outline was kept, which
        is read again and not kept."""
        from drafterlint.markdown.model import Document

        kept = self._documents.get(rel)
        if isinstance(kept, Document):
            return kept
        doc = self._read_document(rel)
        if kept is None:
            self._documents[rel] = doc
        return doc

    def body(self, rel: str) -> "Body":
        """A checked document as the rules' per-document parts read it (markdown.model.Body),
        kept whole until `keep_outline`. One this run read already with the same bytes and kept
        only the outline of (a base's document the change left alone) is not parsed again: its
        outline and what the parts read of its body are the run's."""
        from drafterlint.markdown.model import Body

        cache = self.doc_cache
        if rel in self._documents or cache is None or self.keep_whole:
            doc = self.document(rel)
            name = self._read_as.get(rel)
            return Body(doc, cache.read(name).body if name is not None else {})
        data, name, read = self._known(rel)
        if read.outline is not None:
            self._documents[rel] = read.outline
            return Body(read.outline, read.body, lambda: self._parse(rel, data, None))
        doc = self._documents[rel] = self._read_document(rel, data, name)
        return Body(doc, read.body)

    def outline(self, rel: str) -> "Outline":
        """What other documents read of `rel` (its anchors, headings, links): what is kept of
        it, or it read now, of which only the outline is kept (the run's, where it read the
        same bytes before)."""
        kept = self._documents.get(rel)
        if kept is None:
            if self.doc_cache is None or self.keep_whole:
                doc = self._read_document(rel)
            else:
                data, name, read = self._known(rel)
                if read.outline is not None:
                    self._documents[rel] = read.outline
                    return read.outline
                doc = self._read_document(rel, data, name)
            kept = self._documents[rel] = doc if self.keep_whole else self._summary(rel, doc)
        return kept

    def keep_outline(self, rel: str) -> "Outline":
        """Keep only the outline of `rel` (read already), once the rules that read its body have
        run on it; kept whole under `keep_whole`. Returns what is kept."""
        from drafterlint.markdown.model import Document

        kept = self._documents[rel]
        if isinstance(kept, Document) and not self.keep_whole:
            kept = self._documents[rel] = self._summary(rel, kept)
        return kept

    def _summary(self, rel: str, doc: "Document") -> "Outline":
        """The outline of `doc`: the cache's, one for all the views that read the same bytes
        (a base's unchanged documents keep the current run's, not a copy each)."""
        name = self._read_as.pop(rel, None)
        return self.doc_cache.outline(name, doc) if name is not None else doc.summary()

    def _markdown(self, rel: str) -> bytes:
        data = self.read_bytes(rel, min(self.max_file_bytes, MAX_MARKDOWN_BYTES))
        if markdown_renumbered(data):
            from drafterlint.gitlines import MARKDOWN_ONLY, Renumber

            self.renumbered[rel] = Renumber(decode_text(data, self.location(rel)), MARKDOWN_ONLY)
        return data

    def _known(self, rel: str) -> tuple[bytes, str, Any]:
        """The bytes of `rel`, what the cache names them, and what the run read of them
        (cache.Read)."""
        data = self._markdown(rel)
        name = self.doc_cache.name(rel, data)
        return data, name, self.doc_cache.read(name)

    def _read_document(self, rel: str, data: bytes | None = None, name: str | None = None) -> "Document":
        if data is None:
            data = self._markdown(rel)
        cache = self.doc_cache
        if cache is not None:
            name = self._read_as[rel] = name or cache.name(rel, data)
        doc = cache.get(rel, data) if cache is not None else None
        if doc is None:
            doc = self._parse(rel, data, cache)
        return doc

    def _parse(self, rel: str, data: bytes, cache: Any) -> "Document":
        """`data` parsed, and kept in `cache` (when given): a large document as its sections
        (one entry, written once parsed), the others whole."""
        from drafterlint.markdown.parse import TooComplex, parse_document
        from drafterlint.markdown.sections import WORTH_SECTIONING, parse_sectioned

        sectioned = False
        parsed: list[int] = []
        try:
            text = decode_text(data, self.location(rel))
            if cache is not None and len(data) >= WORTH_SECTIONING and cache.in_sections(self.name, rel):
                # (neither leaves reference cycles: no collection after, PosState.release)
                doc, sectioned = parse_sectioned(text, rel, cache.sections.of(self.name, rel), parsed=parsed)
            else:
                doc = parse_document(text, rel)
        except TooComplex as exc:
            raise UnreadableFile(self.location(rel), str(exc)) from None
        if sectioned and (parsed or not cache.keep):
            cache.remember(rel, data, doc)
        elif cache is not None:
            # (a large document made of sections every one of which was kept: seen before as it
            # is, and likely to be read again so: kept whole too, read next time in one piece
            # without finding its sections, checking each one's entry and assembling them)
            cache.put(rel, data, doc)
        return doc


def github_pair(value: str | None) -> tuple[str, str] | None:
    """`OWNER/REPO` (as configured or as in a URL) -> ("owner", "repo"), lowercased as GitHub
    compares them; None for anything else."""
    if not value or "/" not in value.strip("/"):
        return None
    owner, name = value.strip("/").split("/", 1)
    return owner.lower(), name.lower().removesuffix(".git")


class Glob:
    """A repository-relative glob: `*` and `?` stay within a folder, `**/` spans folders (none
    or any), everything else is literal.

    Matched folder by folder without regular expressions, so no pattern can make it backtrack
    without end: one name against one part costs at most their lengths multiplied, and a path
    against the pattern at most its parts times the pattern's (each pair tried once)."""

    def __init__(self, pattern: str):
        parts = pattern.split("/")
        # `**` spans folders only before a `/`; a last `**` is a `*` (as the shell reads it)
        self.parts = [None if p == "**" and i < len(parts) - 1 else p for i, p in enumerate(parts)]

    def match(self, path: str) -> bool:
        names = path.split("/")
        parts = self.parts
        seen: set[tuple[int, int]] = set()
        todo = [(0, 0)]
        while todo:
            i, j = todo.pop()
            if (i, j) in seen:
                continue
            seen.add((i, j))
            if i == len(parts):
                if j == len(names):
                    return True
                continue
            part = parts[i]
            if part is None:  # `**/`: this folder is spanned, or the span ends here
                todo.append((i + 1, j))
                if j < len(names) - 1:
                    todo.append((i, j + 1))
            elif j < len(names) and _name_matches(part, names[j]):
                todo.append((i + 1, j + 1))
        return False


def _name_matches(pattern: str, name: str) -> bool:
    """`*` (any run) and `?` (one character) within one name: the greedy matcher that retries
    only from the last `*`, in at most len(pattern) x len(name) steps."""
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and (pattern[p] == "?" or pattern[p] == name[n]) and pattern[p] != "*":
            p += 1
            n += 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark = p, n
            p += 1
        elif star >= 0:
            p, mark = star + 1, mark + 1
            n = mark
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def _limits(root: Path) -> tuple[int, int]:
    """(NAME_MAX, PATH_MAX) of the file system holding `root` (POSIX); 255 and 4096 elsewhere."""
    try:
        return os.pathconf(root, "PC_NAME_MAX"), os.pathconf(root, "PC_PATH_MAX")
    except (AttributeError, OSError, ValueError):
        return 255, 4096


def decode_text(data: bytes, loc: Location) -> str:
    """UTF-8 (with or without BOM) only; anything else is a clear DL702 with its position."""
    # UTF-32's little-endian mark begins with UTF-16's: test the longer one first.
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise UnreadableFile(loc, "file is UTF-32; save it as UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableFile(loc, "file is UTF-16; save it as UTF-8")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise UnreadableFile(
            Location(loc.repo, loc.path, line, 1), "file contains NUL bytes (binary?)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UnreadableFile(
            Location(loc.repo, loc.path, line, col),
            f"invalid UTF-8 (byte 0x{data[exc.start]:02x})",
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


# -- finding the repositories ---------------------------------------------------------------


def repo_view(config, which: str, root: Path) -> RepoView:
    """The view of the `which` ("rules" or "registry") repository at root, as configured."""
    section = config.data[which]
    return RepoView(
        RULES_REPO if which == "rules" else REGISTRY_REPO,
        root,
        github=github_pair(section.get("github")),
        default_branch=section.get("default_branch") or "main",
    )


# The environment variables that choose the user's cache, in order; a relative one is ignored.
CACHE_ENV = inputs.CACHE_ENV


def cache_root(config=None, chosen: Path | None = None) -> Path:
    """The user's cache: `chosen` (a --cache-dir flag), then $DRAFTERLINT_CACHE, then the XDG cache
    directory. Never a configuration file's `cache_dir`: the cache is shared by every repository
    the user checks, and a repository's file would choose where it is written and pruned
    (config.IGNORED_IN_FILES). Nor a relative variable (`ignored_cache_variables` says so): it
    would put the cache, and its pruning, inside whatever folder the command runs in, a
    repository under the hook."""
    if chosen is not None:
        return Path(chosen).expanduser()
    return Path(inputs.cache_root())


def cache_outlives_the_run() -> bool:
    """Whether a later run can read what this one writes to the cache (`cache_root`). Not in CI
    (the `CI` variable, which GitHub Actions, GitLab CI and most CI services set) unless
    $DRAFTERLINT_CACHE chooses the cache's place, as a workflow that keeps the cache between
    jobs does: a runner's default cache folder is thrown away with the job."""
    return not inputs.in_ci() or _absolute_variable("DRAFTERLINT_CACHE") is not None


_absolute_variable = inputs.absolute_variable


def ignored_cache_variables() -> list[str]:
    """One line per cache variable of the environment that `cache_root` ignores."""
    return [f"${name} is ignored: `{os.environ[name]}` is a relative path, which would put the cache inside "
            "whatever folder drafterlint runs in (a repository, under the hook); set an absolute path"
            for name in CACHE_ENV if os.environ.get(name) and not _absolute_variable(name)]


def cached_checkout_dir(config, which: str, cache: Path | None = None) -> Path:
    """Where `drafterlint sync` keeps a checkout of the configured `which` repository."""
    return cache_root(config, cache) / "repos" / inputs.sync_slug(config.data, which)


def cached_checkout(config, which: str) -> Path | None:
    """The checkout `drafterlint sync` made, if one is complete (it records fetched.json last)."""
    base = cached_checkout_dir(config, which)
    if (base / "fetched.json").is_file() and (base / "checkout").is_dir():
        return base / "checkout"
    return None


def looks_like(config, which: str, root: Path) -> bool:
    return inputs.looks_like(config.data, which, os.fspath(root))


def _not_that_repository(config, which: str, given: str, root: Path) -> str:
    """Why a directory given as `which` is refused: what was expected there, and "swapped?" when
    it holds what the other repository should (a checked run of the wrong folder would fold the
    main document's absence away as "not changed here", and pass)."""
    if which == "rules":
        expected = f"--rules-repo {given}: expected the rules repository, but it has no {config.rules['main']}"
    else:
        expected = (f"--registry-repo {given}: expected the reference repository, but it has no policies folder "
                    f"{config.registry['policies']}")
    other = "registry" if which == "rules" else "rules"
    if looks_like(config, other, root):
        return f"{expected}; it looks like the {_REPO_WORDS[other]} (--rules-repo and --registry-repo swapped?)"
    return expected


_REPO_WORDS = {"rules": "rules repository", "registry": "reference repository"}


def git_toplevel(start: Path) -> Path | None:
    found = inputs.git_toplevel(os.fspath(start))
    return None if found is None else Path(found)


def locate(config, which: str, given: str | None, start: Path) -> tuple[Path | None, str]:
    """The checkout of `which` to use, and how it was found (for messages): drafterlint.inputs.locate,
    which the command line's front shares, with its refusals worded.

    Order: the command line, the configuration, the working tree (if it is that repository),
    then the cache `drafterlint sync` fills.
    """
    from drafterlint.findings import InputError

    found, how, refused = inputs.locate(config.data, os.fspath(config.base_dir), which, given, os.fspath(start))
    if refused == "missing":
        raise InputError("repository directory does not exist", given)
    if refused == "not a directory":
        raise InputError("repository path is not a directory", given)
    if refused == "not that repository":
        assert given is not None
        raise InputError(_not_that_repository(config, which, given, Path(given).expanduser()))
    if refused:
        raise InputError(f"{which}.path is not a directory", str(config.repo_path(which)))
    return (None if found is None else Path(found)), how
