"""GFM extended autolinks (bare ``http://``, ``https://``, ``ftp://`` and ``www.`` URLs) exactly where
cmark-gfm's autolink extension finds them and ends them.

A bare URL starts at ``http(s)://`` or ``ftp://`` (cmark-gfm's three schemes) not preceded by a letter, or at ``www.`` preceded by nothing,
an ASCII blank (not a no-break space) or one of ``*_~(``; its domain is letters, digits, ``-``, ``_`` and dots (no ``_`` in
its last two labels; ``www.`` needs a label after it; any ASCII punctuation ends it, ``<`` included).  It runs to the next ASCII blank or ``<``,
then loses, repeatedly, a trailing ``?!.,:*_~'"``, an entity-like ``&name;``, a lone ``;``, or a
``)`` that has no ``(`` to match.  Everything else is kept, brackets and backticks included:
``https://x.org/a.json[name]`` ends after the ``]``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from drafterlint import lazyre
from drafterlint.markdown._mistune import NO_EMPHASIS

# Where a bare URL may start (used by mistune's inline rule and by the position scanner).
URL_START = r"(?<![A-Za-z])(?i:https?://|ftp://)|(?<![^ \t\n\v\f\r*_~(])www\."
# The characters a bare URL may start with (mistune skips plain text up to a rule's first ones).
URL_FIRST = ("h", "H", "f", "F", "w")
_START_RE = lazyre.compile(URL_START)
_TRAILING = frozenset("?!.,:*_~'\"")
# what a bare URL runs to: cmark-gfm's ASCII blanks (a no-break space is part of the URL) or `<`
_URL_ENDS = frozenset(" \t\n\v\f\r<")


_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _is_hostchar(c: str) -> bool:
    """cmark-gfm's is_valid_hostchar: not a space and not punctuation, where punctuation is all
    of ASCII's (`<`, `>`, `=`, `|` … too, which Unicode calls symbols) and Unicode's P classes."""
    if c.isascii():
        return not (c.isspace() or c in _ASCII_PUNCT)
    return not (c.isspace() or unicodedata.category(c).startswith("P"))


def _domain_end(s: str, i: int, n: int, need_dot: bool) -> int:
    """cmark-gfm's check_domain over s[i:n]: the end of the domain, or -1.  Like cmark-gfm it
    looks from the domain's second character to the one before the text's last."""
    dots = under_last = under_prev = 0
    k = i + 1
    while k < n - 1:
        c = s[k]
        if c == "\\" and k < n - 2:
            k += 1
            c = s[k]
        if c == "_":
            under_last += 1
        elif c == ".":
            under_prev, under_last = under_last, 0
            dots += 1
        elif c != "-" and not _is_hostchar(c):
            break
        k += 1
    if (under_prev or under_last) and dots <= 10:
        return -1
    if need_dot and not dots:
        return -1
    return k


def url_end(s: str, start: int, n: int | None = None) -> int:
    """End (exclusive) of the bare URL that starts at s[start], or -1 when none starts there."""
    n = len(s) if n is None else n
    m = _START_RE.match(s, start, n)
    if m is None:
        return -1
    www = s.startswith("www.", start)
    if not www and not (m.end() < n and _is_hostchar(s[m.end()])):
        return -1
    d = _domain_end(s, start if www else m.end(), n, need_dot=www)
    if d < 0:
        return -1
    end = d
    while end < n and s[end] not in _URL_ENDS:
        end += 1
    end = _trim(s, start, end)
    return end if end > start else -1


def split_underscores_before(tokens: list[dict[str, Any]]) -> None:
    """Before a bare URL is added to mistune's inline `tokens`: a `_` run right before it and
    after a letter or digit (`_u_http://e`) is intraword for cmark-gfm, which sees the URL's
    first letter after it, so it neither opens nor closes emphasis; mistune sees a placeholder
    there and would close `_u_`.  The run becomes text that takes no part in emphasis."""
    last = tokens[-1] if tokens else None
    if last is None or last.get("type") != "text" or not last.get("raw", "").endswith("_"):
        return
    raw = last["raw"]
    k = len(raw.rstrip("_"))
    before = raw[k - 1] if k else _last_char(tokens[-2]) if len(tokens) > 1 else ""
    if before.isalnum():
        # (mistune makes a text token of each delimiter run: the run is often all of `last`)
        tokens[-1:] = [{**last, "raw": raw[:k]}] if k else []
        tokens.append({"type": "text", "raw": raw[k:], NO_EMPHASIS: False})


def _last_char(tok: dict[str, Any]) -> str:
    raw = tok.get("raw", "") if tok.get("type") == "text" else ""
    return raw[-1:]


def _trim(s: str, start: int, end: int) -> int:
    while end > start:
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
