"""Safe git helpers: validate what a user gives us, then bring a repository at a ref.

Everything that reaches `git` from outside (a URL, a ref name, a base ref) passes through
`validate_url` / `validate_ref` first, because git treats some strings as programs to run
(`ext::sh -c …`), as options (`--upload-pack=…`) or as paths outside the repository. Only
https URLs are accepted; local paths and `file://` URLs are refused unless the caller says so
(`allow_local=True`: tests and local mirrors, see `drafterlint.sync`).

`bring(url_or_path, ref, dest)` fetches one ref — shallowly by default, with its whole history
for the audit — into a temporary directory beside `dest` and renames it into place, so `dest` is
always either the previous complete checkout or the new complete one, never half of either.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from drafterlint import lazyre
from drafterlint.findings import FetchError, InputError
from drafterlint.rendered import MARKDOWN_SUFFIXES
from drafterlint.sources import MAX_FILE_BYTES

_CONTROL = lazyre.compile(r"[\x00-\x20\x7f]")
# git check-ref-format: no `..`, `@{`, `\`, `~^:?*[`, control characters or spaces; components
# may not start with `.` or end with `.lock`; the whole may not end with `/` or `.`.
_REF_FORBIDDEN = lazyre.compile(r"[\\~^:?*\[]|\.\.|@\{|//")
_SHA = lazyre.compile(r"^[0-9a-fA-F]{7,64}$")
_HOST = lazyre.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?$")


def validate_ref(ref: str, *, what: str = "ref") -> str:
    """A branch, tag or commit name git will not mistake for anything else, or InputError."""
    if not isinstance(ref, str) or not ref:
        raise InputError(f"{what} must not be empty")
    if len(ref) > 255:
        raise InputError(f"{what} is too long ({len(ref)} characters)")
    if _CONTROL.search(ref):
        raise InputError(f"{what} {ref!r} contains a space or control character")
    if ref.startswith("-"):
        raise InputError(f"{what} {ref!r} looks like a command-line option")
    if ref == "@" or _REF_FORBIDDEN.search(ref):
        raise InputError(f"{what} {ref!r} is not a valid git ref name")
    if ref.endswith(("/", ".")) or ref.startswith("/"):
        raise InputError(f"{what} {ref!r} is not a valid git ref name")
    for part in ref.split("/"):
        if part.startswith(".") or part.endswith(".lock"):
            raise InputError(f"{what} {ref!r} is not a valid git ref name")
    return ref


def validate_revision(rev: str, *, what: str = "base ref") -> str:
    """A revision the user names on the command line (`main`, `origin/main`, `HEAD~1`, a sha):
    wider than a ref name (`~`, `^` are allowed) but never an option, a path (`rev:path`), a
    range or a control character. Passed after `--end-of-options`."""
    if not isinstance(rev, str) or not rev:
        raise InputError(f"{what} must not be empty")
    if len(rev) > 255:
        raise InputError(f"{what} is too long ({len(rev)} characters)")
    if _CONTROL.search(rev) or rev.startswith("-") or re.search(r"[:?*\[\\]|\.\.|@\{", rev):
        raise InputError(f"{what} {rev!r} is not a revision git can name safely")
    return rev


def is_sha(ref: str) -> bool:
    return bool(_SHA.match(ref))


def validate_url(url: str, *, allow_local: bool = False) -> str:
    """An https URL (or, with allow_local, an existing directory or file:// URL), else InputError.

    Refused always: transport helpers (`ext::`, `fd::`, `<helper>::`), option-like strings,
    control characters and whitespace, credentials in the URL, ssh/git/http transports.
    """
    if not isinstance(url, str) or not url:
        raise InputError("repository URL must not be empty")
    if _CONTROL.search(url):
        raise InputError(f"repository URL {url!r} contains a space or control character")
    if url.startswith("-"):
        raise InputError(f"repository URL {url!r} looks like a command-line option")
    if "::" in url:
        raise InputError(f"repository URL {url!r} names a git transport helper; only https URLs are allowed")
    lowered = url.lower()
    if lowered.startswith("https://"):
        parts = urlsplit(url)
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            raise InputError("repository URL must not contain credentials")
        if not parts.netloc or not _HOST.match(parts.netloc):
            raise InputError(f"repository URL {url!r} has no valid host")
        if not parts.path.strip("/"):
            raise InputError(f"repository URL {url!r} names no repository")
        if parts.query or parts.fragment:
            raise InputError(f"repository URL {url!r} must not have a query or fragment")
        return url
    if allow_local:
        if lowered.startswith("file://"):
            path = urlsplit(url).path
            if not Path(path).is_dir():
                raise InputError(f"local repository {path!r} does not exist")
            return url
        if "://" not in url and Path(url).expanduser().is_dir():
            return str(Path(url).expanduser().resolve())
        raise InputError(f"{url!r} is neither an https URL nor an existing local repository")
    raise InputError(f"repository URL {url!r} is not an https URL (only https is allowed)")


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_TERMINAL_PROMPT="0",  # never wait for a password on a CI runner
        GIT_ASKPASS="echo",
        SSH_ASKPASS="echo",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_PROTOCOL_FROM_USER="0",
        GIT_SSH_COMMAND="false",  # beats core.sshCommand; only https is ever fetched anyway
        GIT_PAGER="cat",
        LC_ALL="C",
    )
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_SSH",
                "GIT_EXTERNAL_DIFF", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"):
        env.pop(var, None)
    return env


# Configuration a checkout may set that makes git run a program. Command-line `-c` beats the
# repository's own `.git/config`; keys git reads only from protected (system/global) config, such
# as uploadpack.packObjectsHook, cannot be set by a checkout at all. Filters and textconv drivers
# are named per attribute, so no `-c` can cover them all: blobs are read with `cat-file` (which
# applies none) instead of `archive`, and diffs run with --no-textconv/--no-ext-diff.
_NEUTRAL_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=" + os.devnull,
    "core.pager=cat",
    "diff.external=",
    "advice.detachedHead=false",
)


def git_config_args(repo_dir: Path | None = None, *, allow_local: bool = False) -> list[str]:
    """The `-c` options every git command drafterlint runs starts with.

    `repo_dir` is marked safe (`safe.directory`): the user pointed us at it, so a checkout owned by
    another user (a CI volume, a shared mirror) is still read; nothing in it runs anyway."""
    cfg = ["-c", "protocol.allow=never", "-c", "protocol.https.allow=always"]
    if allow_local:
        cfg += ["-c", "protocol.file.allow=always"]
    for item in _NEUTRAL_CONFIG:
        cfg += ["-c", item]
    if repo_dir is not None:
        cfg += ["-c", f"safe.directory={Path(repo_dir).resolve()}"]
    return cfg


def run_git(repo_dir: Path, args: list[str], *, allow_local: bool = False, timeout: int = 600,
            binary: bool = False, stdin: bytes | None = None):
    """Run `git <args>` in repo_dir with the neutral configuration and environment; every git
    command drafterlint runs goes through here. FetchError on failure (or timeout).

    Returns stdout as str (trailing newline removed), or as bytes with `binary`."""
    cmd = ["git", *git_config_args(repo_dir, allow_local=allow_local), *args]
    try:
        out = subprocess.run(cmd, cwd=repo_dir, input=stdin, capture_output=True, env=git_env(),
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        raise FetchError(f"git {args[0]} did not finish within {timeout} s") from None
    except OSError as exc:
        raise FetchError(f"cannot run git in {repo_dir}: {exc.strerror or exc}") from None
    if out.returncode != 0:
        detail = out.stderr.decode("utf-8", "replace").strip()
        raise FetchError(detail or f"git {args[0]} failed (exit {out.returncode})")
    return out.stdout if binary else out.stdout.decode("utf-8", "replace").rstrip("\n")


def open_git(repo_dir: Path, args: list[str]) -> "subprocess.Popen[bytes]":
    """`git <args>` in repo_dir as run_git runs it, with pipes to stream its input and output
    (e.g. `cat-file --batch`, whose output may be far larger than memory should hold)."""
    cmd = ["git", *git_config_args(repo_dir), *args]
    try:
        return subprocess.Popen(cmd, cwd=repo_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=git_env())
    except OSError as exc:
        raise FetchError(f"cannot run git in {repo_dir}: {exc.strerror or exc}") from None


def _remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def bring(
    url_or_path: str,
    ref: str,
    dest: Path,
    *,
    full_history: bool = False,
    allow_local: bool = False,
    before_swap: Callable[[], None] | None = None,
) -> str:
    """Fetch `ref` of `url_or_path` and check it out at `dest`, atomically. Returns the commit sha.

    Shallow (depth 1) unless `full_history`. A commit sha works as `ref` too. The work happens in
    a temporary directory beside `dest`; only a complete checkout is renamed into place (the
    previous one, if any, is moved aside first and removed afterwards). Raises InputError for a
    bad URL or ref, FetchError if the repository cannot be brought. `before_swap` runs once the
    new checkout is complete, just before it replaces the old one (e.g. to drop a marker that
    vouches for the old one); on failure before that point the old checkout stays untouched.
    """
    url = validate_url(url_or_path, allow_local=allow_local)
    ref = validate_ref(ref)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; a checkout is an ordinary folder
    try:
        run_git(tmp, ["init", "--quiet"], allow_local=allow_local)
        run_git(tmp, ["remote", "add", "origin", url], allow_local=allow_local)
        depth = [] if full_history else ["--depth=1"]
        fetch = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", *depth, "origin"]
        try:
            run_git(tmp, [*fetch, ref], allow_local=allow_local)
        except FetchError:
            if not is_sha(ref):
                raise
            # Servers that refuse to serve a bare commit: fetch everything, then pick it.
            run_git(tmp, ["fetch", "--quiet", "--no-recurse-submodules", "origin"], allow_local=allow_local)
            run_git(tmp, ["checkout", "--quiet", "--detach", ref], allow_local=allow_local)
        else:
            run_git(tmp, ["checkout", "--quiet", "--detach", "FETCH_HEAD"], allow_local=allow_local)
        sha = run_git(tmp, ["rev-parse", "HEAD"], allow_local=allow_local).strip()
        if before_swap is not None:
            before_swap()
        _swap_into_place(tmp, dest)
        return sha
    except BaseException:
        _remove_tree(tmp)
        raise


def _swap_into_place(new: Path, dest: Path) -> None:
    """Rename `new` to `dest`; an existing `dest` is moved aside first, then removed."""
    import uuid  # here: it imports platform, which every `--base-ref` run would import for nothing

    old = None
    if dest.exists() or dest.is_symlink():
        old = dest.with_name(f".{dest.name}.old-{uuid.uuid4().hex[:12]}")
        os.rename(dest, old)
    try:
        os.rename(new, dest)
    except BaseException:
        if old is not None and not dest.exists():
            os.rename(old, dest)  # put the previous checkout back
            old = None
        raise
    finally:
        if old is not None:
            _remove_tree(old)


def head_commit(repo_dir: Path) -> str | None:
    """The commit checked out in repo_dir, or None when it is not a git work tree."""
    try:
        return run_git(Path(repo_dir), ["rev-parse", "--verify", "--quiet", "HEAD"], timeout=60) or None
    except FetchError:
        return None


# What a check reads from a repository: its Markdown documents, its YAML (the registry, the
# configuration) and JSON. Findings are only ever in these, so only they are diffed (and only they
# are read from a base tree); no other file of a change is read, whatever its size.
READ_BY_CHECKS = (*MARKDOWN_SUFFIXES, ".yaml", ".yml", ".json")
_READ_PATHSPECS = [f":(icase)*{suffix}" for suffix in READ_BY_CHECKS]


_HUNK = lazyre.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def changed_lines(repo_dir: Path, base_ref: str) -> dict[str, set[int]] | None:
    """Lines added or changed since `base_ref` (`git diff -U0 base...HEAD`), per path.

    None when it cannot be told (not a git repository, the base is not in this repository's
    history, a shallow clone without it). Paths are POSIX, relative to the repository root.
    """
    try:
        validate_revision(base_ref)
    except InputError:
        return None
    if not (Path(repo_dir) / ".git").exists():
        return None
    for spec in (f"{base_ref}...HEAD", base_ref):
        try:
            # a file over the size limit is refused unread by the checks: git need not load it
            out = run_git(Path(repo_dir), ["-c", "core.quotePath=false", "-c", f"core.bigFileThreshold={MAX_FILE_BYTES}",
                                           "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
                                           "--no-renames", spec, "--", *_READ_PATHSPECS],
                          timeout=120, binary=True)
        except FetchError:
            continue
        return _parse_diff(out.decode("utf-8", "replace"))
    return None


def _parse_diff(text: str) -> dict[str, set[int]]:
    """The lines each file's hunks add or change, read from `git diff -U0`: a line of it ends at
    "\n" only (U+2028 or \x0c in a document's line is text), and a hunk's lines are counted off
    its header, so an added line that reads `++ b/x` or `@@ …` is one of its lines, not a header."""
    changed: dict[str, set[int]] = {}
    current: set[int] | None = None
    left = 0  # lines of the current hunk still to come
    for line in text.split("\n"):
        if left:
            if not line.startswith("\\"):  # "\ No newline at end of file" is no line of the hunk
                left -= 1
            continue
        if line.startswith("+++ "):
            target = line[4:]
            if target == "/dev/null":
                current = None
            else:
                if target.startswith('"') and target.endswith('"'):
                    target = target[1:-1]
                target = target[2:] if target.startswith("b/") else target
                current = changed.setdefault(target, set())
            continue
        m = _HUNK.match(line)
        if m:
            removed, start, count = int(m.group(1) or "1"), int(m.group(2)), int(m.group(3) or "1")
            left = removed + count
            if current is None:
                continue
            if count == 0:
                current.add(max(start, 1))  # a pure deletion: mark the line it happened at
            else:
                current.update(range(start, start + count))
    return changed
