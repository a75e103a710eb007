"""The cache's directory (drafterlint.cache): atomic writes, tolerant reads, a bounded size,
and no link ever followed (see drafterlint.cache for what that means for the user)."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drafterlint import lazyre
from drafterlint.cache_codec import decode, digest, encode

if TYPE_CHECKING:
    from pathlib import Path

MAX_ENTRIES = 200
MAX_BYTES = 64 * 1024 * 1024

# The only names the cache writes, and so the only ones it ever reads or deletes.
_ENTRY_NAME = lazyre.compile(r"(?:run|config|doc|front)-[0-9a-f]{64}\.json\Z")
_TMP_NAME = lazyre.compile(r"\.tmp-[0-9a-f]{32}\Z")
_HEADER = lazyre.compile(rb"sha256:[0-9a-f]{64}\n")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# Every open is relative to the directory's own descriptor and refuses a link: a name in the
# cache can never lead outside it, whatever is put there between two runs. Where the system has
# neither (Windows, where making a link takes a privilege), each name is checked with lstat first.
_DIR_FD = bool(_NOFOLLOW) and os.open in os.supports_dir_fd and os.unlink in os.supports_dir_fd \
    and os.rename in os.supports_dir_fd and os.scandir in os.supports_fd


class Store:
    """One cache directory: atomic writes, tolerant reads, bounded size, no link ever followed."""

    def __init__(self, directory: "Path | str"):
        self.path = os.fspath(directory)  # text: the command line's front imports no pathlib
        self._ok: bool | None = None
        self._fd: int | None = None
        self.problem: str | None = None  # why the cache is off for this run, said once

    @property
    def dir(self) -> "Path":
        from pathlib import Path

        return Path(self.path)

    def _off(self, why: str) -> None:
        self.problem = self.problem or f"cache {self.path}: {why}; running without it"

    def usable(self) -> bool:
        """Create the directory (private to this user) if needed; refuse one that is a link,
        holds one, or that others can write."""
        if self._ok is None:
            self._ok = False
            try:
                os.makedirs(os.path.dirname(self.path) or ".", mode=0o700, exist_ok=True)
                try:
                    os.mkdir(self.path, 0o700)
                except FileExistsError:
                    pass
                if os.path.islink(self.path):
                    raise OSError(errno.ELOOP, "it is a symbolic link")
                if _DIR_FD:
                    self._fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
                why = self._unfit()
            except OSError as exc:
                why = "it is a symbolic link" if os.path.islink(self.path) else exc.strerror or type(exc).__name__
            if why:
                self.close()
                self._ok = False
                self._off(why)
                return False
            self._ok = True
        return self._ok

    def _here(self) -> Any:
        """The directory as the calls below take it: its descriptor, else its path."""
        return self._fd if self._fd is not None else self.path

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
        path = os.path.join(self.path, name)
        if os.path.islink(path):
            raise OSError(errno.ELOOP, "a symbolic link", str(path))
        return os.open(path, flags | getattr(os, "O_BINARY", 0), mode)

    def _rename(self, old: str, new: str) -> None:
        if self._fd is not None:
            os.replace(old, new, src_dir_fd=self._fd, dst_dir_fd=self._fd)
        else:
            os.replace(os.path.join(self.path, old), os.path.join(self.path, new))

    def _touch(self, name: str) -> None:
        if self._fd is not None:
            os.utime(name, dir_fd=self._fd, follow_symlinks=False)
        elif not os.path.islink(os.path.join(self.path, name)):
            os.utime(os.path.join(self.path, name))

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

    def load(self, name: str, decoder: Callable[[str], Any] = decode) -> Any:
        if not _ENTRY_NAME.match(name) or not self.usable():
            return None
        raw = self._read(name, MAX_BYTES + 1)
        if raw is None:
            return None
        stored, _, data = raw.partition(b"\n")  # (hashed as read: not decoded and encoded again)
        try:
            body = data.decode("utf-8")
            stored.decode("utf-8")
        except UnicodeDecodeError:
            return None
        try:
            # the digest of the body: an entry edited by hand (or damaged) is never trusted
            if stored != b"sha256:" + digest(data).encode("ascii"):
                raise ValueError("digest mismatch")
            value = decoder(body)
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
        return self.save_text(name, text, max_bytes=max_bytes)

    def save_text(self, name: str, text: str, *, max_bytes: int | None = None) -> bool:
        """Keep `text` (ASCII, what `load`'s decoder is given back) as the entry `name`."""
        if not _ENTRY_NAME.match(name) or not self.usable() or not text.isascii():
            return False
        if max_bytes is not None and len(text) > max_bytes:
            return False
        body = text.encode("ascii")
        data = b"sha256:" + digest(body).encode("ascii") + b"\n" + body
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
                os.unlink(os.path.join(self.path, name))
        except OSError:
            pass
