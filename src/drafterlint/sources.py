"""Where repositories come from, and the read-only view of one that checks are given.

A RepoView answers "does this file exist", "what does this document say" and "what is the
parsed registry", confined to the repository root: nothing resolves outside it, symlinks that
leave it are treated as missing, and each document is read and parsed once.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from drafterlint.findings import Location, UnreadableFile

if TYPE_CHECKING:
    from drafterlint.markdown.model import Document

# Files larger than this are reported as unreadable instead of being parsed.
MAX_FILE_BYTES = 20 * 1024 * 1024
_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"}


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
        self._documents: dict[str, Document] = {}
        self._files: frozenset[str] | None = None
        self._dirs: frozenset[str] | None = None

    @property
    def complete(self) -> bool:
        """Whether a missing file is really missing: true for a git checkout.

        A plain folder may be a partial copy (a snapshot of a few files), so links into it
        that name absent files are reported as unverifiable rather than broken.
        """
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
        files: set[str] = set()
        dirs: set[str] = {""}
        root = str(self.root)
        for here, subdirs, names in os.walk(root, followlinks=False):
            # A folder with its own .git is another repository checked out inside this one
            # (as CI does with the other repository): its files are not this repository's.
            subdirs[:] = [
                d for d in subdirs
                if d not in _SKIP_DIRS and not os.path.exists(os.path.join(here, d, ".git"))
            ]
            rel_here = os.path.relpath(here, root)
            rel_here = "" if rel_here == "." else rel_here.replace(os.sep, "/")
            for d in list(subdirs):
                rel = f"{rel_here}/{d}" if rel_here else d
                if self._inside(os.path.join(here, d)):
                    dirs.add(rel)
                if os.path.islink(os.path.join(here, d)):
                    subdirs.remove(d)  # never walk through links: loops, or trees elsewhere
            for n in names:
                full = os.path.join(here, n)
                rel = f"{rel_here}/{n}" if rel_here else n
                if self._inside(full):
                    files.add(rel)
        self._files = frozenset(files)
        self._dirs = frozenset(dirs)

    def _inside(self, full: str) -> bool:
        try:
            real = Path(full).resolve(strict=True)
        except (OSError, RuntimeError):  # dangling link or a loop
            return False
        return real == self.root or self.root in real.parents

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
        for part in PurePosixPath(path).parts:
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

    def is_dir(self, rel: str) -> bool:
        return rel.rstrip("/") in self.dirs

    # -- contents -------------------------------------------------------------------------

    def read_bytes(self, rel: str) -> bytes:
        full = self.root / rel
        loc = self.location(rel)
        if not self._inside(str(full)):
            raise UnreadableFile(loc, "file is missing or outside the repository")
        try:
            if full.is_dir():
                raise UnreadableFile(loc, "is a directory, not a file")
            size = full.stat().st_size
            if size > self.max_file_bytes:
                raise UnreadableFile(
                    loc, f"file is {size} bytes, over the {self.max_file_bytes}-byte limit"
                )
            with open(full, "rb") as fh:
                return fh.read(self.max_file_bytes + 1)
        except OSError as exc:
            raise UnreadableFile(loc, f"cannot read: {exc.strerror or exc}") from None

    def read_text(self, rel: str) -> str:
        return decode_text(self.read_bytes(rel), self.location(rel))

    def parsed(self, rel: str) -> "Document | None":
        """The document if it has already been parsed; never reads."""
        return self._documents.get(rel)

    def document(self, rel: str) -> "Document":
        doc = self._documents.get(rel)
        if doc is None:
            from drafterlint.markdown.parse import parse_document

            doc = parse_document(self.read_text(rel), rel)
            self._documents[rel] = doc
        return doc


def decode_text(data: bytes, loc: Location) -> str:
    """UTF-8 (with or without BOM) only; anything else is a clear DL702 with its position."""
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


def cache_root(config) -> Path:
    """Per-user cache: configuration, then $DRAFTERLINT_CACHE, then the XDG cache directory."""
    configured = config.data.get("cache_dir")
    if configured:
        return Path(configured).expanduser()
    env = os.environ.get("DRAFTERLINT_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "drafterlint"


def cached_checkout_dir(config, which: str) -> Path:
    """Where `drafterlint sync` keeps a checkout of the configured `which` repository."""
    slug = (config.data[which].get("github") or which).replace("/", "__")
    return cache_root(config) / "repos" / slug


def cached_checkout(config, which: str) -> Path | None:
    """The checkout `drafterlint sync` made, if one is complete (it records fetched.json last)."""
    base = cached_checkout_dir(config, which)
    if (base / "fetched.json").is_file() and (base / "checkout").is_dir():
        return base / "checkout"
    return None


def looks_like(config, which: str, root: Path) -> bool:
    if which == "rules":
        return (root / config.rules["main"]).is_file()
    return (root / config.registry["policies"]).is_dir()


def git_toplevel(start: Path) -> Path | None:
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    return None


def locate(config, which: str, given: str | None, start: Path) -> tuple[Path | None, str]:
    """The checkout of `which` to use, and how it was found (for messages).

    Order: the command line, the configuration, the working tree (if it is that repository),
    then the cache `drafterlint sync` fills.
    """
    from drafterlint.findings import InputError

    if given:
        p = Path(given).expanduser()
        if not p.exists():
            raise InputError("repository directory does not exist", given)
        if not p.is_dir():
            raise InputError("repository path is not a directory", given)
        return p, "command line"
    configured = config.repo_path(which)
    if configured is not None:
        if not configured.is_dir():
            raise InputError(f"{which}.path is not a directory", str(configured))
        return configured, "configuration"
    for candidate in (git_toplevel(start), start):
        if candidate is not None and looks_like(config, which, candidate):
            return candidate, "working tree"
    cached = cached_checkout(config, which)
    if cached is not None:
        return cached, "sync cache"
    return None, ""
