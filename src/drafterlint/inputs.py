"""What a check's result depends on, derived once for both ways of answering it: the full run
(drafterlint.commands, drafterlint.cache) and the command line's front (drafterlint.front), which
answers an unchanged `check` before argparse, dataclasses, the configuration or the reports are
imported. So this module imports the standard library's lightest parts only (no pathlib, no
dataclasses; `tests/test_front.py` counts what a front hit imports), and works on strings.

Here, each written once: the tool's fingerprint and the canonical key of a run's inputs; where
the configuration file is and whether it may be read; where each repository is (`locate`); a
repository's file listing, the bounded read of one of its files, and the check that every input
a stored run read is unchanged; what else a printed report reads of the file system (`probe`),
and what a full run offers the front to store (`offer`).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

FORMAT = 2  # 2: each entry starts with the digest of its body
_DEPENDENCIES = ("mistune", "yaml", "jsonschema")
CONFIG_NAMES = (".drafterlint.yaml", ".drafterlint.yml")
CACHE_ENV = ("DRAFTERLINT_CACHE", "XDG_CACHE_HOME")
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"})


# -- the tool's fingerprint and the keys -----------------------------------------------------


def sha256(data: bytes = b"") -> Any:
    """hashlib.sha256, imported when first asked for: a run without the cache (`--no-cache`)
    hashes nothing, and importing hashlib loads OpenSSL (0.4 % of such a run's instructions)."""
    import hashlib

    return hashlib.sha256(data)


_FINGERPRINT: str | None = None


def fingerprint() -> str:
    """Changes whenever the code that computes findings may have changed: this package's files
    and its Markdown, YAML and schema dependencies' (size and modification time of each)."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        from drafterlint import __version__

        h = sha256()
        h.update(f"{FORMAT}\0{__version__}\0{sys.version}\0".encode())
        _stat_tree(h, os.path.dirname(os.path.realpath(__file__)))
        from importlib.machinery import PathFinder  # importlib.util costs a tenth of the front

        for name in _DEPENDENCIES:
            try:
                spec = PathFinder.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            origin = getattr(spec, "origin", None)
            h.update(f"{name}\0".encode())
            if origin:
                _stat_tree(h, os.path.dirname(origin))
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def _stat_tree(h: Any, top: str) -> None:
    stack = [top]
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
    return sha256(data).hexdigest()


# The last file content given to content_digest, and its digest (one tuple: read in one step).
_last_content: tuple[bytes | None, str] = (None, "")


def content_digest(data: bytes) -> str:
    """digest(data), for the bytes of a file a run read: what the cache records of them
    (cache.Recorder), names their parse by (cache.DocumentCache.name) and keys a YAML file's by
    (cache.YamlPack) is one digest, computed once for the same bytes object (a document's bytes
    were hashed three to five times: a tenth of a run's instructions with the rules document
    changed)."""
    global _last_content
    last = _last_content
    if last[0] is data:
        return last[1]
    value = sha256(data).hexdigest()
    _last_content = (data, value)
    return value


def canonical(value: Any) -> Any:
    """A JSON-able, order-independent form of an engine input: dataclasses (the configuration)
    field by field under their class's name, paths and dates as text. Anything else is refused
    (TypeError), so a new kind of input cannot silently be keyed by its repr. A field left out of
    the dataclass's equality is the run's state, not its value (`Config.patterns`), and left out.
    (A dataclass or a date can only be given where their modules are imported already.)"""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare}}
    datetime = sys.modules.get("datetime")
    if datetime is not None and isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"no canonical form for {type(value).__name__}")


def key(*parts: Any) -> str:
    text = json.dumps(canonical([fingerprint(), *parts]), sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"))
    return sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def run_key(inputs: dict[str, Any]) -> str:
    """The key of a whole run's stored result: everything the engine is given
    (`steps.Setup.inputs()`: the effective configuration, the repositories' roots, the date).
    The front gives the configuration as `config_form`, which keys as the Config it stands for."""
    return key("run", inputs)


def config_form(data: dict, source: str | None, base_dir: str) -> dict:
    """How a `drafterlint.config.Config` of these values is keyed (`canonical`), built without it."""
    return {"@": "Config", "data": data, "source": source, "base_dir": base_dir}


def config_entry_name(raw: bytes) -> str:
    """The cache entry that keeps what a configuration file of these bytes validated to."""
    h = sha256(f"{fingerprint()}\0config\0".encode())
    h.update(raw)
    return f"config-{h.hexdigest()}.json"


# -- paths, as pathlib spells them ----------------------------------------------------------


def path_text(value: str) -> str:
    """`str(pathlib.PurePosixPath(value))`: what a path given as text is keyed as."""
    if not value:
        return "."
    lead = "//" if value.startswith("//") and not value.startswith("///") else "/" if value.startswith("/") else ""
    rest = "/".join(p for p in value.split("/") if p and p != ".")
    return lead + rest if lead or rest else "."


def git_toplevel(start: str) -> str | None:
    """The nearest folder from `start` (absolute) upward that holds a `.git`."""
    here = start
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


def within(path: str, top: str) -> bool:
    """Whether `path`, links followed, lies in `top`."""
    real, top = os.path.realpath(path), os.path.realpath(top)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def holder(file: str) -> str:
    """The repository that holds `file`, where it sits (a link's own folder, not where it leads):
    the top of its git work tree, else its folder."""
    here = os.path.dirname(os.path.abspath(file))
    return git_toplevel(here) or here


def find_config(start: str) -> str | None:
    """The nearest .drafterlint.yaml from `start` upward (stopping at a filesystem root)."""
    here = os.path.realpath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(here, name)
            if os.path.isfile(candidate):
                return candidate
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


# -- the cache's place -----------------------------------------------------------------------


def absolute_variable(name: str) -> str | None:
    value = os.path.expanduser(os.environ.get(name) or "")
    return value if os.path.isabs(value) else None


def in_ci() -> bool:
    """Whether the `CI` variable (GitHub Actions, GitLab CI and most CI services set it) says
    this is a CI job."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def cache_root() -> str:
    """The user's cache: $DRAFTERLINT_CACHE, then the XDG cache directory (see
    drafterlint.sources.cache_root)."""
    env = absolute_variable("DRAFTERLINT_CACHE")
    if env:
        return path_text(env)
    xdg = absolute_variable("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return path_text(os.path.join(xdg, "drafterlint"))


# -- where the repositories are ---------------------------------------------------------------


def looks_like(data: dict, which: str, root: str) -> bool:
    if which == "rules":
        return os.path.isfile(os.path.join(root, data["rules"]["main"]))
    return os.path.isdir(os.path.join(root, data["registry"]["policies"]))


def repo_path(data: dict, base_dir: str, which: str) -> str | None:
    """The configured `which.path`, relative to the configuration file's folder."""
    value = data[which].get("path")
    if not value:
        return None
    p = path_text(os.path.expanduser(path_text(str(value))))
    return p if os.path.isabs(p) else path_text(os.path.join(base_dir, p))


def sync_slug(data: dict, which: str) -> str:
    """The folder's name under the cache's `repos/` where `drafterlint sync` keeps `which`."""
    slug = (data[which].get("github") or which).replace("/", "__")
    if slug in (".", "..") or "\\" in slug:  # the schema's owner/name pattern already rules these out
        slug = which
    return slug


def sync_checkout_dir(data: dict, which: str) -> str:
    """Where `drafterlint sync` keeps a checkout of the configured `which` repository."""
    return os.path.join(cache_root(), "repos", sync_slug(data, which))


def locate(data: dict, base_dir: str, which: str, given: str | None, start: str) -> tuple[str | None, str, str]:
    """(the checkout of `which` to use, how it was found, why it is refused: "" when it is not).

    Order: the command line, the configuration, the working tree (if it is that repository),
    then the cache `drafterlint sync` fills. The refusals are worded by drafterlint.sources.locate:
    `missing`, `not a directory`, `not that repository` (a given path), `configured not a directory`.
    """
    if given:
        p = path_text(os.path.expanduser(path_text(given)))
        if not os.path.exists(p):
            return None, "", "missing"
        if not os.path.isdir(p):
            return None, "", "not a directory"
        # Only its absence: a main document that cannot be read is a finding (DL702), not a usage error.
        expected = os.path.join(p, data["rules"]["main"] if which == "rules" else data["registry"]["policies"])
        if not os.path.lexists(expected):
            return None, "", "not that repository"
        return p, "command line", ""
    configured = repo_path(data, base_dir, which)
    if configured is not None:
        # A configuration file is shared by everyone who clones the repository; a sibling
        # checkout it names may not be there for them. Then the checks that need it are skipped
        # (the engine says why), unless the working tree or the sync cache has it.
        if os.path.isdir(configured):
            return configured, "configuration", ""
        if os.path.lexists(configured):
            return None, "", "configured not a directory"
    for candidate in (git_toplevel(start), start):
        if candidate is not None and looks_like(data, which, candidate):
            return candidate, "working tree", ""
    base = sync_checkout_dir(data, which)
    if os.path.isfile(os.path.join(base, "fetched.json")) and os.path.isdir(os.path.join(base, "checkout")):
        return os.path.join(base, "checkout"), "sync cache", ""
    return None, "", ""


# -- a repository's files -------------------------------------------------------------------


class Unreadable(Exception):
    """Why a file of a repository cannot be read (the message drafterlint.sources reports)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def inside(root: str, full: str) -> bool:
    """Whether `full`, links followed, exists inside `root` (a resolved folder)."""
    try:
        real = os.path.realpath(full, strict=True)
    except (OSError, RuntimeError):  # dangling link or a loop
        return False
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def scan(root: str) -> tuple[set[str], set[str], dict[str, str]]:
    """(files, folders, folders that could not be listed with why) of the resolved `root`.

    Iterative scandir: a real directory entry under the root is inside it by construction; only
    symbolic links need resolving (they may leave the repository, loop or dangle), and links to
    folders are never walked into. A folder with its own .git is another repository checked out
    inside this one (as CI does with the other repository): not this one's files."""
    files: set[str] = set()
    dirs: set[str] = {""}
    unlisted: dict[str, str] = {}
    stack: list[tuple[str, str]] = [(root, "")]
    while stack:
        here, rel_here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError as exc:
            unlisted[rel_here] = exc.strerror or type(exc).__name__
            continue
        for e in entries:
            rel = f"{rel_here}/{e.name}" if rel_here else e.name
            try:
                if e.is_symlink():
                    if inside(root, e.path):
                        if os.path.isdir(e.path):
                            dirs.add(rel)
                        elif os.path.isfile(e.path):
                            files.add(rel)
                    continue
                if e.is_dir(follow_symlinks=False):
                    if e.name in SKIP_DIRS or os.path.lexists(os.path.join(e.path, ".git")):
                        continue
                    dirs.add(rel)
                    stack.append((e.path, rel))
                elif e.is_file(follow_symlinks=False):  # not FIFOs, sockets or devices
                    files.add(rel)
            except OSError:
                continue
    return files, dirs, unlisted


def tree_digest(root: str, files: Any, dirs: Any) -> str:
    h = sha256()
    h.update(b"git" if os.path.exists(os.path.join(root, ".git")) else b"plain")
    for name in sorted(files):
        h.update(b"\0f" + name.encode("utf-8", "surrogateescape"))
    for name in sorted(dirs):
        h.update(b"\0d" + name.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def read_bounded(root: str, rel: str, limit: int) -> bytes:
    """The bytes of `rel` in the resolved `root`, at most `limit`; Unreadable says why not."""
    full = os.path.join(root, rel)
    if not inside(root, full):
        raise Unreadable("file is missing or outside the repository")
    try:
        st = os.stat(full)
        if stat.S_ISDIR(st.st_mode):
            raise Unreadable("is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable("is not a regular file (a pipe, socket or device?)")
        if st.st_size > limit:
            raise Unreadable(f"file is {st.st_size} bytes, over the {limit}-byte limit")
        with open(full, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:  # grew since stat
        raise Unreadable(f"file is over the {limit}-byte limit")
    return data


# Files larger than this are reported as unreadable instead of being parsed.
MAX_FILE_BYTES = 20 * 1024 * 1024


def file_outcome(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return f"sha256:{digest(fh.read())}"
    except OSError as exc:
        return f"error:{type(exc).__name__}"


def changed_input(trees: dict, files: list, extra: dict, extra_paths: list[str]) -> str | None:
    """What of a stored run's inputs is no longer what it read (None: nothing): each
    repository's listing ({root: [name, digest]}), each file's outcome ([root, rel, limit,
    outcome]), the extra lists ({path: outcome}, against the ones the run names now)."""
    for root, (_name, tree) in trees.items():
        if os.path.realpath(root) != root:
            return f"the file listing of {root}"
        listed, folders, _ = scan(root)
        if tree_digest(root, listed, folders) != tree:
            return f"the file listing of {root}"
    for root, rel, limit, outcome in files:
        try:
            now = f"sha256:{digest(read_bounded(os.path.realpath(root), rel, MAX_FILE_BYTES if limit is None else limit))}"
        except Unreadable as exc:
            now = f"error:{exc.message}"
        if now != outcome:
            return f"{root}/{rel}"
    if sorted(extra) != sorted(extra_paths):
        return "the extra lists"
    for p, o in extra.items():
        if file_outcome(p) != o:
            return p
    return None


# -- what else a printed report depends on --------------------------------------------------


def _file_state(path: str) -> str:
    outcome = file_outcome(path) if os.path.isfile(path) else "no file"
    return f"{os.path.realpath(path)}\0{outcome}"


PROBES: dict[str, Callable[[str], Any]] = {"real": os.path.realpath, "toplevel": git_toplevel, "file": _file_state}


def probe(kind: str, arg: str) -> Any:
    """What a report reads of the file system beyond the run's key (`PROBES`), as the front
    (drafterlint.front) compares it."""
    return PROBES[kind](arg)


# What the full run tells the front it may store for next time (`offer`), None when nothing.
OFFERED: dict[str, Any] | None = None


def offer(given: dict, run_key: str, seen: tuple[dict, list], probes: list) -> None:
    """Called by a full run the front can answer next time: the options it follows (`given`),
    the run's key, what the run read (`RunCache.seen`) and the report's other inputs, each as
    [kind, argument] of `probe`."""
    global OFFERED
    trees, files = seen
    OFFERED = {"given": given, "run": run_key, "trees": trees, "files": files,
               "probes": [[kind, arg, probe(kind, arg)] for kind, arg in probes]}
