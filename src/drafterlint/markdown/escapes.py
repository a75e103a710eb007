"""The stretches of inline source that hold no markup: backslash escapes and code spans.

Every scanner of raw inline source (link positions, strikethrough closers, a table row's
pipes) steps over them the same way, so they agree on what is literal: a `\\` before ASCII
punctuation escapes that one character (before anything else it is a plain `\\`); a run of
backticks opens a code span that the next run of exactly its length closes, and is plain text
when none does.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint import lazyre

ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_PIPE_OR_ESCAPE_RE = lazyre.compile(r"\\[!-/:-@\[-`{-~]|\|")


def code_span_end(src: str, i: int, n: int) -> int:
    """Past the code span whose backtick run starts at src[i], or past that run when no run of
    its length closes it before `n`."""
    k = i
    while k < n and src[k] == "`":
        k += 1
    ticks = src[i:k]
    j = src.find(ticks, k, n)
    while j >= 0:
        end = j + len(ticks)
        if (end >= n or src[end] != "`") and src[j - 1] != "`":
            return end
        while j < n and src[j] == "`":  # a longer run closes nothing: look past it
            j += 1
        j = src.find(ticks, j, n)
    return k


def skip_literal(src: str, i: int, n: int) -> int:
    """Past the backslash escape or code span that starts at src[i], or `i` when none does."""
    c = src[i]
    if c == "\\":
        return i + 2 if i + 1 < n and src[i + 1] in ASCII_PUNCT else i
    if c == "`":
        return code_span_end(src, i, n)
    return i


def unescaped(src: str, i: int, n: int) -> Iterator[tuple[int, str]]:
    """Each character of src[i:n] outside backslash escapes and code spans, with its offset."""
    while i < n:
        j = skip_literal(src, i, n)
        if j != i:
            i = j
            continue
        yield i, src[i]
        i += 1


def unescaped_pipes(row: str) -> list[int]:
    """The offsets of the `|` in a table row that no backslash escapes: each splits the row,
    inside a code span too (GitHub splits the row before it reads the cells' inline text)."""
    return [m.start() for m in _PIPE_OR_ESCAPE_RE.finditer(row) if m.group() == "|"]
