"""A content-hash cache for `drafterlint check`, so that repeated pre-commit runs on unchanged
files cost almost nothing. Safe to delete at any time; never stale.

Stores under ``sources.cache_root(config)/check-cache/``:

* ``run-<key>.json``: the findings of a whole run. ``key`` hashes everything the engine is given
  (the effective configuration -- file and command-line flags merged --, the repository roots,
  the date), taken from the one dict `commands.check` passes to the engine, and the tool itself
  (its version, this format, and the size and modification time of every file of the installed
  package and of its Markdown/YAML/schema dependencies). The entry lists every input the run
  read: each repository's file listing, each file's content digest (or the error reading it
  gave), and the extra lists the configuration names. A lookup re-lists and re-hashes all of
  them; any difference is a miss. So the result is reused only when every input is
  byte-for-byte what produced it.
* ``doc-<key>.json``: parsed Markdown documents keyed by the digest of their bytes, their path and
  the tool fingerprint, so that a run after an edit to one file re-parses only that file.

No link is ever followed: every file is opened relative to the directory's own descriptor with
O_NOFOLLOW, a `check-cache` that is a link or holds one is not used (one warning, an uncached
run), and pruning deletes only names of the cache's own pattern whose contents start with its
header. The cache's location is the user's (`--cache-dir`, $DRAFTERLINT_CACHE, XDG), never a
configuration file's `cache_dir`.

Entries are JSON (never pickle: a cache directory may be writable by someone else, and loading
must not run code), decoded only into the model's own classes; written to a temporary file and
renamed; anything unreadable, truncated or of another format is ignored (and removed). The
directory is bounded: beyond ``MAX_ENTRIES`` files or ``MAX_BYTES`` bytes, the least recently
used entries are removed.

Set ``DRAFTERLINT_NO_CACHE=1`` (or pass ``--no-cache``) to bypass it.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from drafterlint import __version__

FORMAT = 2  # 2: each entry starts with the digest of its body
MAX_ENTRIES = 200
MAX_BYTES = 64 * 1024 * 1024
MAX_DOC_BYTES = 8 * 1024 * 1024  # a parsed document larger than this (as JSON) is not kept
_DEPENDENCIES = ("mistune", "yaml", "jsonschema")


# -- the tool's fingerprint ------------------------------------------------------------------

_FINGERPRINT: str | None = None


def fingerprint() -> str:
    """Changes whenever the code that computes findings may have changed."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        h = hashlib.sha256()
        h.update(f"{FORMAT}\0{__version__}\0{sys.version}\0".encode())
        package = Path(__file__).resolve().parent
        _stat_tree(h, package)
        import importlib.util

        for name in _DEPENDENCIES:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            origin = getattr(spec, "origin", None)
            h.update(f"{name}\0".encode())
            if origin:
                _stat_tree(h, Path(origin).parent)
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def _stat_tree(h: Any, top: Path) -> None:
    stack = [str(top)]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name == "__pycache__":
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                elif e.name.endswith((".py", ".json", ".so", ".pyd")):
                    st = e.stat()
                    h.update(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
            except OSError:
                continue


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- encoding: JSON, decoded only into known classes ----------------------------------------

_CLASSES: dict[str, type] | None = None
_DOCUMENT_CLASSES = ("Document", "Heading", "Link", "ListBlock", "ListItem", "Paragraph", "Piece", "Prose",
                     "Quote", "Span", "Suppression", "Table", "TableCell")


def _class(name: str) -> type | None:
    """The class a cache entry may name; the Markdown model is imported only for documents
    (a whole-run hit decodes findings alone, and a warm run should not pay for the rest)."""
    global _CLASSES
    if _CLASSES is None:
        from drafterlint.findings import Finding, Location, Skipped

        _CLASSES = {"Finding": Finding, "Location": Location, "Skipped": Skipped}
    if name in _DOCUMENT_CLASSES and name not in _CLASSES:
        from drafterlint.markdown import model

        _CLASSES.update({n: getattr(model, n) for n in _DOCUMENT_CLASSES})
    return _CLASSES.get(name)


def encode(obj: Any) -> Any:
    t = type(obj)
    if obj is None or t is str or t is int or t is float or t is bool:
        return obj
    if t is list:
        return [encode(x) for x in obj]
    if t is tuple:
        return {"t": [encode(x) for x in obj]}
    if t is frozenset or t is set:
        return {"s": [encode(x) for x in obj]}
    if t is dict:
        return {"d": [[encode(k), encode(v)] for k, v in obj.items()]}
    from drafterlint.findings import Severity

    if t is Severity:
        return {"e": int(obj)}
    name = t.__name__
    if dataclasses.is_dataclass(obj) and _class(name) is t:
        return {"c": name, "v": [encode(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init]}
    raise TypeError(f"cannot cache a {t.__name__}")


def _hook(d: dict) -> Any:
    if "c" in d:
        cls = _class(d["c"])
        if cls is None:
            raise KeyError(d["c"])  # not ours: the entry is rejected
        return cls(*d["v"])
    if "t" in d:
        return tuple(d["t"])
    if "s" in d:
        return frozenset(d["s"])
    if "d" in d:
        return dict(d["d"])
    if "e" in d:
        from drafterlint.findings import Severity

        return Severity(d["e"])
    raise ValueError("unknown cache object")


def decode(text: str) -> Any:
    return json.loads(text, object_hook=_hook)


# -- the directory -----------------------------------------------------------------------------


# The only names the cache writes, and so the only ones it ever reads or deletes.
_ENTRY_NAME = re.compile(r"(?:run|config|doc)-[0-9a-f]{64}\.json\Z")
_TMP_NAME = re.compile(r"\.tmp-[0-9a-f]{32}\Z")
_HEADER = re.compile(rb"sha256:[0-9a-f]{64}\n")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# Every open is relative to the directory's own descriptor and refuses a link: a name in the
# cache can never lead outside it, whatever is put there between two runs. Where the system has
# neither (Windows, where making a link takes a privilege), each name is checked with lstat first.
_DIR_FD = bool(_NOFOLLOW) and os.open in os.supports_dir_fd and os.unlink in os.supports_dir_fd \
    and os.rename in os.supports_dir_fd and os.scandir in os.supports_fd


class Store:
    """One cache directory: atomic writes, tolerant reads, bounded size, no link ever followed."""

    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self._ok: bool | None = None
        self._fd: int | None = None
        self.problem: str | None = None  # why the cache is off for this run, said once

    def _off(self, why: str) -> None:
        self.problem = self.problem or f"cache {self.dir}: {why}; running without it"

    def usable(self) -> bool:
        """Create the directory (private to this user) if needed; refuse one that is a link,
        holds one, or that others can write."""
        if self._ok is None:
            self._ok = False
            try:
                self.dir.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                try:
                    os.mkdir(self.dir, 0o700)
                except FileExistsError:
                    pass
                if os.path.islink(self.dir):
                    raise OSError(errno.ELOOP, "it is a symbolic link")
                if _DIR_FD:
                    self._fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
                why = self._unfit()
            except OSError as exc:
                why = "it is a symbolic link" if os.path.islink(self.dir) else exc.strerror or type(exc).__name__
            if why:
                self.close()
                self._ok = False
                self._off(why)
                return False
            self._ok = True
        return self._ok

    def _here(self) -> Any:
        """The directory as the calls below take it: its descriptor, else its path."""
        return self._fd if self._fd is not None else str(self.dir)

    def _unfit(self) -> str | None:
        st = os.stat(self._here())
        mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
        # Windows reports every writable folder as mode 0o777 and guards it with ACLs instead
        # (a per-user cache folder is the user's own): the mode says nothing there.
        if not mine or (os.name != "nt" and st.st_mode & 0o022):
            return "writable by others or not this user's"
        with os.scandir(self._here()) as it:
            for e in it:
                if e.is_symlink():
                    return f"it holds a symbolic link ({e.name!r})"
        return None

    def _open(self, name: str, flags: int, mode: int = 0o600) -> int:
        if self._fd is not None:
            return os.open(name, flags | _NOFOLLOW, mode, dir_fd=self._fd)
        path = self.dir / name
        if os.path.islink(path):
            raise OSError(errno.ELOOP, "a symbolic link", str(path))
        return os.open(path, flags | getattr(os, "O_BINARY", 0), mode)

    def _rename(self, old: str, new: str) -> None:
        if self._fd is not None:
            os.replace(old, new, src_dir_fd=self._fd, dst_dir_fd=self._fd)
        else:
            os.replace(self.dir / old, self.dir / new)

    def _touch(self, name: str) -> None:
        if self._fd is not None:
            os.utime(name, dir_fd=self._fd, follow_symlinks=False)
        elif not os.path.islink(self.dir / name):
            os.utime(self.dir / name)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd, self._ok = None, None

    def _read(self, name: str, limit: int) -> bytes | None:
        """Up to `limit` bytes of the regular file `name` in the cache, opened as itself (never
        through a link); None if it is anything else or cannot be read."""
        try:
            fd = self._open(name, os.O_RDONLY)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
                return None
            with os.fdopen(os.dup(fd), "rb") as fh:
                return fh.read(limit)
        except OSError:
            return None
        finally:
            os.close(fd)

    def load(self, name: str) -> Any:
        if not _ENTRY_NAME.match(name) or not self.usable():
            return None
        raw = self._read(name, MAX_BYTES + 1)
        try:
            text = raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            text = None
        if text is None:
            return None
        stored, _, body = text.partition("\n")
        try:
            # the digest of the body: an entry edited by hand (or damaged) is never trusted
            if stored != "sha256:" + digest(body.encode("utf-8")):
                raise ValueError("digest mismatch")
            value = decode(body)
        except Exception:  # corrupted, truncated, or from another version: not an entry
            self._unlink(name)
            return None
        try:
            self._touch(name)  # least recently used goes first when pruning
        except (OSError, NotImplementedError):
            pass
        return value

    def save(self, name: str, value: Any, *, max_bytes: int | None = None) -> bool:
        if not _ENTRY_NAME.match(name) or not self.usable():
            return False
        try:
            # ASCII: a path that is not valid UTF-8 (surrogate escapes) is kept as a \\udcXX escape
            text = json.dumps(encode(value), ensure_ascii=True, separators=(",", ":"))
        except (TypeError, ValueError):
            return False
        if max_bytes is not None and len(text) > max_bytes:
            return False
        data = ("sha256:" + digest(text.encode("ascii")) + "\n" + text).encode("ascii")
        tmp = f".tmp-{os.urandom(16).hex()}"
        try:
            fd = self._open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except OSError as exc:
            self._off(exc.strerror or type(exc).__name__)
            return False
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            self._rename(tmp, name)
        except OSError:
            self._unlink(tmp)
            return False
        self.prune()
        return True

    def _ours(self, name: str) -> bool:
        """Whether `name` is a regular file the cache wrote: its name pattern and its header (a
        temporary file may still be empty or partly written)."""
        entry = _ENTRY_NAME.match(name)
        if not entry and not _TMP_NAME.match(name):
            return False
        head = self._read(name, 72)
        if head is None:
            return False
        return bool(_HEADER.match(head)) if entry else (head == b"sha256:"[:len(head)] or bool(_HEADER.match(head)))

    def prune(self) -> None:
        if not self.usable():
            return
        try:
            with os.scandir(self._here()) as it:
                entries = []
                for e in it:
                    try:
                        st = e.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISREG(st.st_mode):
                        entries.append((st.st_mtime_ns, st.st_size, e.name))
        except OSError:
            return
        entries.sort(reverse=True)  # newest first
        total = 0
        for n, (_, size, name) in enumerate(entries):
            total += size
            stale_tmp = name.startswith(".tmp-") and n > 8
            if (n >= MAX_ENTRIES or total > MAX_BYTES or stale_tmp) and self._ours(name):
                self._unlink(name)

    def _unlink(self, name: str) -> None:
        # Relative to the directory's descriptor: removes that entry (a link at most), never
        # what a link points to.
        try:
            if self._fd is not None:
                os.unlink(name, dir_fd=self._fd)
            else:
                os.unlink(self.dir / name)
        except OSError:
            pass


# -- parsed documents --------------------------------------------------------------------------


class DocumentCache:
    """Parsed Markdown documents keyed by (tool fingerprint, path, digest of the bytes)."""

    def __init__(self, store: Store):
        self.store = store

    def _name(self, rel: str, data: bytes) -> str:
        h = hashlib.sha256(f"{fingerprint()}\0{rel}\0".encode("utf-8", "surrogateescape"))
        h.update(data)
        return f"doc-{h.hexdigest()}.json"

    def get(self, rel: str, data: bytes):
        from drafterlint.markdown.model import Document

        doc = self.store.load(self._name(rel, data))
        return doc if isinstance(doc, Document) and doc.path == rel else None

    def put(self, rel: str, data: bytes, doc: Any) -> None:
        self.store.save(self._name(rel, data), doc, max_bytes=MAX_DOC_BYTES)


# -- whole runs --------------------------------------------------------------------------------


class Recorder:
    """Told by each RepoView of every listing and file it read during one run."""

    def __init__(self) -> None:
        self.trees: dict[str, list] = {}
        self.files: dict[tuple[str, str, int | None], str] = {}

    def tree(self, view: Any) -> None:
        self.trees[str(view.root)] = [view.name, _tree_digest(view)]

    def read(self, view: Any, rel: str, limit: int | None, data: bytes | None, error: str | None) -> None:
        outcome = f"sha256:{digest(data)}" if data is not None else f"error:{error}"
        self.files[(str(view.root), rel, limit)] = outcome


def _tree_digest(view: Any) -> str:
    h = hashlib.sha256()
    h.update(b"git" if (view.root / ".git").exists() else b"plain")
    for name in sorted(view.files):
        h.update(b"\0f" + name.encode("utf-8", "surrogateescape"))
    for name in sorted(view.dirs):
        h.update(b"\0d" + name.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _file_outcome(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            return f"sha256:{digest(fh.read())}"
    except OSError as exc:
        return f"error:{type(exc).__name__}"


def _extra_list_paths(config: Any) -> list[str]:
    """The files `registry.adapters.load_extra_lists` reads (resolved the way it resolves them)."""
    out = []
    for spec in (config.registry.get("extra_lists") or []):
        if isinstance(spec, dict) and spec.get("path"):
            full = Path(str(spec["path"])).expanduser()
            if not full.is_absolute():
                full = Path(getattr(config, "base_dir", Path.cwd())) / full
            out.append(str(full))
    return out


def canonical(value: Any) -> Any:
    """A JSON-able, order-independent form of an engine input:
    dataclasses (the configuration) field by field, paths and dates as text. Anything else is
    refused, so a new kind of input cannot silently be keyed by its repr."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    import datetime

    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _key(*parts: Any) -> str:
    text = json.dumps(canonical([fingerprint(), *parts]), sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


class RunCache:
    """The cache of one `drafterlint check` invocation.

    ``run-<key>``: the findings, keyed by every input the engine is given (the
    effective configuration, the repository roots, the date) and checked against every file and
    listing the run read.
    """

    def __init__(self, root: Path, config_path: Path | None, config_bytes: bytes | None):
        self.store = Store(Path(root) / "check-cache")
        self.docs = DocumentCache(self.store)
        self.recorder = Recorder()
        self.config_path = config_path
        self.config_bytes = config_bytes
        self.key: str | None = None
        self.outcome = "not looked up"
        # What the run read ({root: [name, tree digest]}, [[root, rel, limit, outcome]]): from
        # the entry on a hit, from the recorder once saved.
        self.seen: tuple[dict, list] | None = None
        self.base_inputs: dict[str, Any] = {}  # set by drafterlint.baserun for a base's cache

    def sibling(self) -> "RunCache":
        """Another run's cache in the same store (a base's findings beside the current run's)."""
        other = RunCache(self.store.dir.parent, None, None)
        other.store = self.store
        other.docs = self.docs
        return other

    def inputs_under(self, root: Path) -> list:
        """What this run read under `root`: its listing's digest and each file's, sorted; a key
        part for a run that reads the same repository (None when not known)."""
        if self.seen is None:
            return [None]
        trees, files = self.seen
        where = str(Path(root).resolve())
        return [trees.get(where), sorted([rel, limit, outcome] for r, rel, limit, outcome in files if r == where)]

    @property
    def name(self) -> str:
        return f"run-{self.key}.json"

    def lookup(self, inputs: dict[str, Any]) -> Any:
        """The stored result of a run given `inputs` (the engine's arguments), if every file and
        listing it read is unchanged; else None (and `outcome` says why)."""
        self.config = inputs["config"]
        try:
            self.key = _key("run", inputs)
        except TypeError:  # an input without a canonical form: this run is not cached
            self.outcome = "off (an input has no canonical form)"
            return None
        entry = self.store.load(self.name)
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            self.outcome = "miss (no entry for these inputs)"
            return None
        try:
            changed = self._changed_input(entry, self.config)
            if changed:
                self.outcome = f"miss ({changed} changed)"
                return None
            from drafterlint.findings import Result

            result = Result(findings=list(entry["findings"]), skipped=list(entry["skipped"]))
            self.seen = (dict(entry["trees"]), [list(row) for row in entry["files"]])
        except Exception:  # an entry that does not fit is a miss, never an error
            self.outcome = "miss (entry unusable)"
            return None
        self.outcome = f"hit ({self.name})"
        return result

    def _changed_input(self, entry: dict, config: Any) -> str | None:
        from drafterlint.sources import RepoView

        views: dict[str, RepoView] = {}
        for root, (name, tree) in entry["trees"].items():
            view = RepoView(name, Path(root))
            if str(view.root) != root or _tree_digest(view) != tree:
                return f"the file listing of {root}"
            views[root] = view
        for root, rel, limit, outcome in entry["files"]:
            view = views.get(root) or RepoView("x", Path(root))
            views.setdefault(root, view)
            try:
                now = f"sha256:{digest(view._read_bytes(rel, view.max_file_bytes if limit is None else limit))}"
            except Exception as exc:
                now = f"error:{getattr(exc, 'message', exc)}"
            if now != outcome:
                return f"{root}/{rel}"
        extra = entry["extra"]
        if sorted(extra) != sorted(_extra_list_paths(config)):
            return "the extra lists"
        for p, o in extra.items():
            if _file_outcome(Path(p)) != o:
                return p
        return None

    def save(self, result: Any) -> None:
        if self.key is None:
            return
        rec = self.recorder
        entry = {
            "format": FORMAT,
            "trees": rec.trees,
            "files": [[root, rel, limit, outcome] for (root, rel, limit), outcome in rec.files.items()],
            "extra": {p: _file_outcome(Path(p)) for p in _extra_list_paths(self.config)},
            "findings": result.findings,
            "skipped": result.skipped,
        }
        self.seen = (dict(rec.trees), [list(row) for row in entry["files"]])
        self.store.save(self.name, entry)


def disabled(no_cache: bool = False) -> bool:
    """--no-cache (`no_cache`) or DRAFTERLINT_NO_CACHE=1."""
    return bool(os.environ.get("DRAFTERLINT_NO_CACHE")) or no_cache
