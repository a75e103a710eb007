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
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from drafterlint.findings import FetchError, InputError

_CONTROL = re.compile(r"[\x00-\x20\x7f]")
# git check-ref-format: no `..`, `@{`, `\`, `~^:?*[`, control characters or spaces; components
# may not start with `.` or end with `.lock`; the whole may not end with `/` or `.`.
_REF_FORBIDDEN = re.compile(r"[\\~^:?*\[]|\.\.|@\{|//")
_SHA = re.compile(r"^[0-9a-fA-F]{7,64}$")
_HOST = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?$")


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


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_TERMINAL_PROMPT="0",  # never wait for a password on a CI runner
        GIT_ASKPASS="echo",
        SSH_ASKPASS="echo",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_PROTOCOL_FROM_USER="0",
        LC_ALL="C",
    )
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
        env.pop(var, None)
    return env


def _protocol_config(allow_local: bool) -> list[str]:
    cfg = ["-c", "protocol.allow=never", "-c", "protocol.https.allow=always"]
    if allow_local:
        cfg += ["-c", "protocol.file.allow=always"]
    # Nothing in the fetched repository runs: no hooks, no filters configured by us.
    cfg += ["-c", "core.hooksPath=" + os.devnull, "-c", "advice.detachedHead=false"]
    return cfg


def _git(repo_dir: Path, args: list[str], *, allow_local: bool, timeout: int = 600, binary: bool = False):
    """Run git in repo_dir through GitPython, with our safety configuration; FetchError on failure.

    Returns stdout as str, or as bytes with `binary` (an archive)."""
    import git  # GitPython; imported on use, a pre-commit hook pays for every import

    cmd = ["git", *_protocol_config(allow_local), *args]
    try:
        return git.Git(str(repo_dir)).execute(
            # A tar archive ends in zero blocks, so the trailing-newline strip never touches it.
            cmd, env=_git_env(), kill_after_timeout=timeout, stdout_as_string=not binary
        )
    except git.GitCommandError as exc:
        detail = (exc.stderr or "").strip().replace("stderr: ", "").strip(" '\n")
        raise FetchError(detail or str(exc)) from None
    except (OSError, git.GitError) as exc:
        raise FetchError(str(exc)) from None


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
        _git(tmp, ["init", "--quiet"], allow_local=allow_local)
        _git(tmp, ["remote", "add", "origin", url], allow_local=allow_local)
        depth = [] if full_history else ["--depth=1"]
        fetch = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", *depth, "origin"]
        try:
            _git(tmp, [*fetch, ref], allow_local=allow_local)
        except FetchError:
            if not is_sha(ref):
                raise
            # Servers that refuse to serve a bare commit: fetch everything, then pick it.
            _git(tmp, ["fetch", "--quiet", "--no-recurse-submodules", "origin"], allow_local=allow_local)
            _git(tmp, ["checkout", "--quiet", "--detach", ref], allow_local=allow_local)
        else:
            _git(tmp, ["checkout", "--quiet", "--detach", "FETCH_HEAD"], allow_local=allow_local)
        sha = _git(tmp, ["rev-parse", "HEAD"], allow_local=allow_local).strip()
        if before_swap is not None:
            before_swap()
        _swap_into_place(tmp, dest)
        return sha
    except BaseException:
        _remove_tree(tmp)
        raise


def _swap_into_place(new: Path, dest: Path) -> None:
    """Rename `new` to `dest`; an existing `dest` is moved aside first, then removed."""
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
        out = subprocess.run(
            ["git", "-C", str(repo_dir), "rev-parse", "--verify", "--quiet", "HEAD"],
            capture_output=True, text=True, env=_git_env(), timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


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
            out = subprocess.run(
                ["git", "-C", str(repo_dir), "-c", "core.quotePath=false", "diff", "-U0",
                 "--no-color", "--no-ext-diff", "--no-renames", spec, "--"],
                capture_output=True, env=_git_env(), timeout=120,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if out.returncode == 0:
            return _parse_diff(out.stdout.decode("utf-8", "replace"))
    return None


def _parse_diff(text: str) -> dict[str, set[int]]:
    changed: dict[str, set[int]] = {}
    current: set[int] | None = None
    for line in text.splitlines():
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
        if m and current is not None:
            start, count = int(m.group(1)), int(m.group(2) or "1")
            if count == 0:
                current.add(max(start, 1))  # a pure deletion: mark the line it happened at
            else:
                current.update(range(start, start + count))
    return changed
