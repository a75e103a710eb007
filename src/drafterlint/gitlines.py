"""Lines as git numbers them: the one numbering of every position drafterlint reports.

git ends a line at "\\n" only, and so do GitHub's diff and blob views and the lines the Actions
annotations and a review's comments are placed at. The readers drafterlint parses with end lines
at more: the Markdown parser at a bare "\\r" too (as CommonMark does), PyYAML also at \\x85,
U+2028 and U+2029. Past such a character each reader's line is one more than git's, and its
column counts from the break git does not see. `Renumber` takes a reader's (line, column) of one
file to git's; the engine applies it to every finding of a Markdown document as the run ends
(engine.git_numbered), the YAML loader to every position it keeps.
"""

from __future__ import annotations

import re

from drafterlint import lazyre

# A line end of the Markdown parser git does not see: a "\r" not before "\n".
MARKDOWN_ONLY = lazyre.compile("\r(?!\n)")
# PyYAML's line ends git does not see.
YAML_ONLY = lazyre.compile("\r(?!\n)|[\x85\u2028\u2029]")


def markdown_renumbered(data: bytes) -> bool:
    """Whether a Markdown file's bytes hold a line end git does not count (cheap when not: one
    search for "\\r")."""
    return b"\r" in data and data.count(b"\r") != data.count(b"\r\n")


class Renumber:
    """A reader's (line, column) of one file, both 1-based, columns in characters, as git's.

    Made from the text as the reader read it (decoded, BOM removed) and the line ends the reader
    counts that git does not (`extra`)."""

    __slots__ = ("_git_line", "_shift")

    def __init__(self, text: str, extra: lazyre.Lazy[str]) -> None:
        self._git_line: list[int] = []  # per reader line (0-based): git's line
        self._shift: list[int] = []  # per reader line: the characters of git's line before it
        git_line, git_start = 1, 0
        reader_start = 0
        # "\r\r\n" is two line ends for both readers, one for git: a CRLF is taken whole first.
        ends = re.compile("\r?\n|" + extra.pattern)
        for m in ends.finditer(text):
            self._git_line.append(git_line)
            self._shift.append(reader_start - git_start)
            reader_start = m.end()
            if m.group().endswith("\n"):
                git_line, git_start = git_line + 1, reader_start
        self._git_line.append(git_line)
        self._shift.append(reader_start - git_start)

    def place(self, line: int, column: int) -> tuple[int, int]:
        """git's (line, column) of the reader's; a line past the text's end keeps its distance
        from the last."""
        last = len(self._git_line)
        if line > last:
            return self._git_line[-1] + line - last, column
        if line < 1:
            return line, column
        return self._git_line[line - 1], column + self._shift[line - 1]
