"""GFM extended autolinks (bare ``http://``, ``https://`` and ``www.`` URLs) exactly where
cmark-gfm's autolink extension finds them and ends them.

A bare URL starts at ``http(s)://`` not preceded by a letter, or at ``www.`` preceded by nothing,
whitespace or one of ``*_~(``; its domain is letters, digits, ``-``, ``_`` and dots (no ``_`` in
its last two labels; ``www.`` needs a label after it).  It runs to the next whitespace or ``<``,
then loses, repeatedly, a trailing ``?!.,:*_~'"``, an entity-like ``&name;``, a lone ``;``, or a
``)`` that has no ``(`` to match.  Everything else is kept, brackets and backticks included:
``https://x.org/a.json[name]`` ends after the ``]``.
"""

from __future__ import annotations

import re

# Where a bare URL may start (used by mistune's inline rule and by the position scanner).
URL_START = r"(?<![A-Za-z])(?i:https?://)|(?<![^\s*_~(])www\."
_START_RE = re.compile(URL_START)
_TRAILING = frozenset("?!.,:*_~'\"")


def _domain_end(s: str, i: int, n: int, need_dot: bool) -> int:
    """End of a valid domain starting at s[i], or -1."""
    start = i
    dots = under_last = under_prev = 0
    while i < n:
        c = s[i]
        if c == "_":
            under_last += 1
        elif c == ".":
            under_prev, under_last = under_last, 0
            dots += 1
        elif not (c.isalnum() or c == "-"):
            break
        i += 1
    if i == start or under_prev or under_last or (need_dot and not dots):
        return -1
    return i


def url_end(s: str, start: int, n: int | None = None) -> int:
    """End (exclusive) of the bare URL that starts at s[start], or -1 when none starts there."""
    n = len(s) if n is None else n
    m = _START_RE.match(s, start, n)
    if m is None:
        return -1
    www = s.startswith("www.", start)
    d = _domain_end(s, start if www else m.end(), n, need_dot=www)
    if d < 0 or (www and d <= start + 4):
        return -1
    end = d
    while end < n and not s[end].isspace() and s[end] != "<":
        end += 1
    return _trim(s, start, end, m.end())


def _trim(s: str, start: int, end: int, floor: int) -> int:
    while end > floor:
        c = s[end - 1]
        if c in _TRAILING:
            end -= 1
        elif c == ";":
            k = end - 2
            while k > start and s[k].isascii() and s[k].isalpha():
                k -= 1
            end = k if k < end - 2 and s[k] == "&" else end - 1
        elif c == ")":
            part = s[start:end]
            if part.count(")") <= part.count("("):
                break
            end -= 1
        else:
            break
    return end
