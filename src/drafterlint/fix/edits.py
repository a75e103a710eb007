"""Edits and the one place that applies them to files.

A fix is proposed as edits in the parsed document's coordinates (1-based line, column counted
in characters, as every Finding is placed) together with the exact text expected there. This
module turns them into byte ranges of the file as it is on disk -- whatever its line endings or
BOM -- checks that the expected bytes are still there and that no two edits overlap, and writes
the result atomically. Everything it does not touch stays byte-identical.
"""

from __future__ import annotations

import re
import stat
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.findings import Finding

_BOM = b"\xef\xbb\xbf"
_LINE_END = lazyre.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True)
class Edit:
    """Replace `old` (on one line) at `line`:`column` with `new`.

    `new` may hold "\\n" (an inserted line): it is written with the file's own line ending.
    """

    line: int
    column: int
    old: str
    new: str

    def __post_init__(self) -> None:
        if "\n" in self.old or "\r" in self.old:
            raise ValueError("an edit replaces text within one line")


# A rule's fix for one run: a finding -> (the edits that mend it, why); no edits and the
# reason when no edit is safe (checks/_fixes.py: what a rule declares).
Proposes = Callable[["Finding"], "tuple[tuple[Edit, ...], str]"]


@dataclass(frozen=True)
class Replacement:
    """An edit placed in the file's bytes, as reviewdog's Diagnostic Format places a suggestion:
    on `line` (as git numbers lines: a bare "\r" ends none), from byte column `start` to `end`
    (1-based, UTF-8 bytes counted from the line's first byte after any BOM, `end` exclusive),
    replaced by `text` (in the file's own line endings). Made by SourceFile.replacement only, so
    that it says exactly what `fix` writes."""

    line: int
    start: int
    end: int
    text: str


class Refused(Exception):
    """An edit that cannot be applied safely; the file is left as it is."""


@dataclass
class SourceFile:
    """A file's bytes with the table that maps document positions to byte offsets."""

    raw: bytes

    def __post_init__(self) -> None:
        self.bom = self.raw.startswith(_BOM)
        body = self.raw[len(_BOM):] if self.bom else self.raw
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("the file is not valid UTF-8") from None
        offset = len(_BOM) if self.bom else 0
        self.starts: list[int] = [offset]  # byte offset of each line's first byte
        self.ends: list[int] = []  # byte offset of each line's line ending (or of the end)
        for m in _LINE_END.finditer(self.raw, offset):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(self.raw))
        endings = [m.group() for m in _LINE_END.finditer(self.raw, offset)]
        # The ending the file uses most; a file of one line gets "\n".
        self.newline = max(set(endings), key=endings.count).decode() if endings else "\n"
        self.git_starts: list[int] | None = None  # where each line starts as git numbers them, once asked

    def text(self) -> str:
        """The text as the parser sees it: line ends normalised to "\\n", no BOM."""
        return "\n".join(self.line(i) for i in range(1, len(self.starts) + 1))

    def line(self, number: int) -> str:
        return self.raw[self.starts[number - 1]:self.ends[number - 1]].decode("utf-8")

    def offset(self, line: int, column: int) -> int:
        if not 1 <= line <= len(self.starts):
            raise Refused(f"line {line} is not in the file")
        text = self.line(line)
        if not 1 <= column <= len(text) + 1:
            raise Refused(f"column {column} is not on line {line}")
        return self.starts[line - 1] + len(text[: column - 1].encode("utf-8"))


    def git_line_start(self, line: int) -> int:
        """The byte offset of line `line` as git numbers lines (at "\n" only; after any BOM)."""
        starts = self._git_starts()
        if not 1 <= line <= len(starts):
            raise Refused(f"line {line} is not in the file")
        return starts[line - 1]

    def _git_starts(self) -> list[int]:
        if self.git_starts is None:
            self.git_starts = [self.starts[0], *(m.end() for m in re.finditer(b"\n", self.raw))]
        return self.git_starts

    def git_line(self, line: int) -> str:
        """Line `line` as git numbers lines, without its line end ("\n" or "\r\n"); a bare "\r"
        is text in it."""
        start = self.git_line_start(line)
        end = self.raw.find(b"\n", start)
        if end < 0:
            return self.raw[start:].decode("utf-8")
        return self.raw[start:end - 1 if self.raw[start:end].endswith(b"\r") else end].decode("utf-8")

    def git_lines(self) -> int:
        return len(self._git_starts())

    def byte_column(self, line: int, column: int) -> int:
        """The 1-based UTF-8 byte column of a 1-based character column on line `line`, both as
        git counts them (the place a finding is reported at)."""
        text = self.git_line(line)
        if not 1 <= column <= len(text) + 1:
            raise Refused(f"column {column} is not on line {line}")
        return len(text[: column - 1].encode("utf-8")) + 1

    def replacement(self, e: Edit) -> Replacement:
        """`e` (placed in the parsed document) in the file's bytes, at git's line (Refused if the
        file no longer reads `e.old` there)."""
        start = self.offset(e.line, e.column)
        old = e.old.encode("utf-8")
        if self.raw[start:start + len(old)] != old:
            raise Refused(f"line {e.line} no longer reads `{e.old}` at column {e.column}")
        starts = self._git_starts()
        line = bisect_right(starts, start)
        column = start - starts[line - 1] + 1
        return Replacement(line, column, column + len(old), e.new.replace("\n", self.newline))


def apply_edits(raw: bytes, edits: list[Edit]) -> bytes:
    """The file's bytes with every edit made; Refused if one does not match or two overlap.

    Insertions at one point are kept in the order given.
    """
    src = SourceFile(raw)
    spans = []
    for order, e in enumerate(edits):
        r = src.replacement(e)
        start = src.offset(e.line, e.column)
        spans.append((start, start + r.end - r.start, order, r.text.encode("utf-8")))
    spans.sort()
    for (a0, a1, _, _), (b0, b1, _, _) in zip(spans, spans[1:]):
        # Two pure insertions at one point are fine; anything else sharing bytes is not.
        if b0 < a1 or (b0 == a0 and (a1 > a0 or b1 > b0)):
            raise Refused("two fixes change the same text")
    out, at = [], 0
    for start, end, _, new in spans:
        out += [raw[at:start], new]
        at = end
    out.append(raw[at:])
    return b"".join(out)


def inside(root: Path, path: Path) -> bool:
    """Whether `path`, with every symbolic link resolved, is within `root`."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    root = root.resolve()
    return real == root or root in real.parents


def read_for_fix(root: Path, rel: str) -> bytes:
    path = root / rel
    if not inside(root, path):
        raise Refused(f"{rel} is outside the repository (a symbolic link?); not changed")
    real = path.resolve()
    if not stat.S_ISREG(real.stat().st_mode):
        raise Refused(f"{rel} is not a regular file; not changed")
    return real.read_bytes()


def write_fixed(root: Path, rel: str, before: bytes, after: bytes) -> None:
    """Write the fixed contents through the one checked write (drafterlint.safeio): inside `root`
    (the link's target if the file is a link within the repository), the mode kept, a read-only
    file left alone, a hard-linked file written in place.

    Refused if the file changed since it was read, or if it resolves outside `root`.
    """
    from drafterlint.safeio import Refused as SafeRefused
    from drafterlint.safeio import write_file

    path = root / rel
    if not inside(root, path):
        raise Refused(f"{rel} is outside the repository (a symbolic link?); not changed")
    real = path.resolve()
    if real.read_bytes() != before:
        raise Refused(f"{rel} changed while it was being fixed; not changed")
    try:
        write_file(real, after, within=root, what=rel)
    except SafeRefused as exc:
        raise Refused(str(exc).removeprefix(f"{real}: ")) from None
