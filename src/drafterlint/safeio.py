"""Containment: every file drafterlint writes and every line it prints goes through here.

The checked repositories, their `.drafterlint.yaml` and every network answer are untrusted (a
fork's pull request, a clone). So:

* **Lines.** `safe_line` is the one escape for a printed line: control characters and line
  separators are shown escaped (so a file name or a quoted document line cannot start a line of
  its own), and the two shapes the GitHub Actions runner reads as a workflow command are broken:
  `::name ...::` at a line's start after any leading whitespace (the runner's `TrimStart`), and
  the legacy `##[name]` anywhere in a line. Only the `github` report emits real commands, through
  its own builder that escapes their data as the runner unescapes it.
* **Secrets.** Inside `masking(tokens)` (the audit, with the tokens it was given), every line
  `safe_line` escapes and every file `write_file` or `append_text` writes has each token replaced
  by `***`, in every form a message may show it: as it is, escaped as Python's repr, JSON or
  `safe_line` write it (`\\n` for a line break, as requests' InvalidHeader shows a header), and
  each printable run of it long enough to be the secret itself (a token with a line break at its
  end is still that token).
* **Writes.** `write_file` is the one way to write a file: the target (every symbolic link
  resolved) must lie inside `within` when the path came from a repository (a fix, a configured
  baseline), and a path lexically inside a checked repository may not lead out of it through a
  link; a read-only file stays read-only; a file with other hard links is written in place (its
  links keep seeing one file); anything else is written beside the target and renamed, keeping
  the file's mode. Every OSError becomes one InputError line naming the path and the reason.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from drafterlint import lazyre
from drafterlint.findings import InputError

# -- printed lines -----------------------------------------------------------------------------

# C0 and C1 controls except TAB, DEL, and the Unicode line and paragraph separators: each could
# end a line for a terminal or a log reader, or move the cursor.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0))}
_CONTROLS.update({0x0A: "\\n", 0x0D: "\\r", 0x2028: "\\u2028", 0x2029: "\\u2029"})
# Characters that disguise text rather than end it: the bidirectional controls reorder what a
# reader sees (U+202E shows `gnp.exe` for `exe.png`), the zero-width ones hide a difference between
# two names that look the same. Quoted text shows them as `\u202e`, in every format.
DISGUISING = (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C,
              *range(0x200B, 0x200E), 0x2060, 0xFEFF)
_CONTROLS.update({c: f"\\u{c:04x}" for c in DISGUISING})
# What the runner's String.TrimStart() drops (Unicode white space), with the invisible format
# characters some runtimes have counted as white space: over-matching only escapes one colon more.
_LEADING_COMMAND = lazyre.compile(r"^([\s\u180e\u200b-\u200f\u2060-\u2064\ufeff]*):(?=:)")
LEGACY_COMMAND = "##["  # the runner looks for it anywhere in a line


def has_surrogate(text: str) -> bool:
    """Whether `text` holds a surrogate (U+D800 to U+DFFF), which no stream can write: exactly
    the characters strict UTF-8 refuses, so the codec tells in one pass in C (a test of each
    character in Python cost every printed line holding a quote mark or a section sign)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def encodable(text: str) -> str:
    """The bytes of a name that is not valid UTF-8 (surrogate escapes, as file systems hand them
    over) shown as \\xNN, so that any stream can write the text."""
    if not has_surrogate(text):
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no file system produced: show its code point
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def visible(text: str) -> str:
    """`text` with every control, line break and disguising character shown escaped (`\\n`,
    `\\x1b`, `\\u202e`): the one escape that printed lines, annotations, SARIF message text and
    Markdown apply to what they quote."""
    return encodable(text).translate(_CONTROLS)


def safe_line(text: str) -> str:
    """`text` as one printed line that no log reader takes for anything but text (nor shows a
    masked secret)."""
    text = _escaped(redact(text))
    return redact(text) if _SECRETS else text


def _escaped(text: str) -> str:
    text = visible(text)
    if "::" in text:
        text = _LEADING_COMMAND.sub(r"\1\\x3a", text, count=1)
    if LEGACY_COMMAND in text:
        text = text.replace(LEGACY_COMMAND, "##\\x5b")
    return text


def safe_text(text: str) -> str:
    """Each line of `text` through `safe_line`; the final newline kept."""
    end = "\n" if text.endswith("\n") else ""
    body = text[:-1] if end else text
    return "\n".join(safe_line(line) for line in body.split("\n")) + end


def is_command_line(line: str) -> bool:
    """Whether the Actions runner would read `line` as a workflow command (either shape)."""
    return bool(_LEADING_COMMAND.match(line)) or LEGACY_COMMAND in line


_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *DISGUISING)}


def json_safe(text: str) -> str:
    """Serialized JSON made safe to print without changing what it decodes to: `##[` occurs only
    inside strings, where `\\u005b` is the same bracket, and the controls JSON leaves raw are
    written as escapes. (A JSON line never starts with `::`.)"""
    return text.translate(_JSON_ESCAPES).replace(LEGACY_COMMAND, "##\\u005b")


def say(message: str, file: TextIO | None = None) -> None:
    """Print a log line (stderr by default) through the escape."""
    stream = file if file is not None else sys.stderr
    stream.write(safe_line(message) + "\n")


# -- secrets -------------------------------------------------------------------------------

MIN_SECRET = 8  # shorter is no token, and masking it would blank letters inside words
_SECRETS: list[str] = []  # the forms of the tokens masked now, longest first


def secret_forms(token: str | None) -> list[str]:
    """Every form in which a message may show `token`, longest first."""
    if not token:
        return []
    forms = {token, repr(token)[1:-1], json.dumps(token)[1:-1], _escaped(token)}
    forms.update(run for run in re.split(r"[^!-~]+", token) if len(run) >= MIN_SECRET)
    return sorted(forms, key=len, reverse=True)


def redact(text: str, forms: Iterable[str] | None = None) -> str:
    """`text` with each whole occurrence of a form (`forms`, else the ones masked now) replaced
    by ***: one not inside a longer run of token characters, so no word loses letters."""
    wanted = _SECRETS if forms is None else list(forms)
    if not wanted:
        return text
    alternatives = "|".join(re.escape(f) for f in wanted)
    return re.sub(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])", "***", text)


@contextmanager
def masking(tokens: Iterable[str | None]) -> Iterator[None]:
    """Within the block, `tokens` never appear in a printed line or a written file."""
    saved = list(_SECRETS)
    # A value too short to be a token is never used as one (githubapi.token_problem).
    forms = {form for token in tokens if token and len(token) >= MIN_SECRET for form in secret_forms(token)}
    forms |= set(saved)
    _SECRETS[:] = sorted(forms, key=len, reverse=True)
    try:
        yield
    finally:
        _SECRETS[:] = saved


# -- writes --------------------------------------------------------------------------------


class Refused(InputError):
    """A write drafterlint will not make (outside the allowed place, read-only, not a file)."""


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _real(path: Path) -> Path:
    """`path` with every symbolic link resolved (the target itself need not exist)."""
    return Path(os.path.realpath(path))


def check_target(path: Path, *, within: Path | None = None, repos=(), what: str = "file") -> Path:
    """The real file a write of `path` would change, after the containment checks."""
    path = Path(path)
    real = _real(path)
    if within is not None and not _inside(real, _real(within)):
        raise Refused(f"{what} resolves to {real}, outside {within}; not written", str(path))
    absolute = Path(os.path.abspath(path))
    for repo in repos:
        if repo is None:
            continue
        top = Path(os.path.abspath(repo))
        if (_inside(absolute, top) or _inside(absolute, _real(top))) and not _inside(real, _real(top)):
            raise Refused(f"{what} lies in the repository {top} but a symbolic link leads it to {real}; "
                          "not written", str(path))
    return real


def write_file(path, data: bytes | str, *, within: Path | None = None, repos=(), what: str = "file") -> Path:
    """Write `data` to `path` (see the module's docstring); returns the real file written."""
    if _SECRETS:
        text = data if isinstance(data, str) else data.decode("utf-8", "surrogateescape")
        data = redact(text)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    real = check_target(Path(path), within=within, repos=repos, what=what)
    try:
        try:
            st = os.stat(real)
        except FileNotFoundError:
            st = None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise Refused(f"{what} is a directory; not written", str(path))
            if not stat.S_ISREG(st.st_mode):
                raise Refused(f"{what} is not a regular file; not written", str(path))
            # Root passes access(); the mode bits still say the owner meant it read-only.
            if not (st.st_mode & 0o222) or not os.access(real, os.W_OK):
                raise Refused(f"{what} is read-only; not written", str(path))
            if st.st_nlink > 1:
                _write_in_place(real, data)
                return real
        _replace(real, data, None if st is None else stat.S_IMODE(st.st_mode))
    except OSError as exc:
        raise InputError(f"cannot write {what}: {exc.strerror or exc}", str(path)) from None
    return real


def _replace(real: Path, data: bytes, mode: int | None) -> None:
    """Write beside `real` and rename over it: a failed write leaves the old file whole."""
    import tempfile

    if not real.parent.is_dir():
        raise FileNotFoundError(2, f"no such directory {real.parent}")
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".drafterlint", dir=real.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _write_in_place(real: Path, data: bytes) -> None:
    """Rewrite the file itself, so its other hard links see the change. The space is reserved
    first where the system can, so that a full disk fails before a byte is changed."""
    fd = os.open(real, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        if hasattr(os, "posix_fallocate") and data:
            try:
                os.posix_fallocate(fd, 0, len(data))
            except OSError as exc:
                if exc.errno not in _UNSUPPORTED:
                    raise
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


_UNSUPPORTED = {getattr(__import__("errno"), name, -1) for name in ("EOPNOTSUPP", "ENOTSUP", "EINVAL", "ENOSYS")}


def append_text(path, text: str) -> bool:
    """Append to a file the environment names (the job summary); False if it cannot be."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "a", encoding="utf-8", newline="\n") as fh:
            fh.write(redact(text))
    except OSError:
        return False
    return True
