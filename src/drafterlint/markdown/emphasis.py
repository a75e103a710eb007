"""Strikethrough and emphasis, as cmark-gfm resolves them.

A run of one or two `~` opens a strikethrough where it is left-flanking and closes one where it
is right-flanking (CommonMark's rules, no `_` exception); a longer run is text.  An opener is
closed by the first closing run after it that no opener in between takes, and only by a run
of its own length: a closer of the other length ends both as text (`~a~~`).  mistune's own rule
pairs any `~~` with the next `~~`, inside a longer run too (`~~s~~~~s~~` is one strikethrough
for GitHub, holding `s~~~~s`), and knows no single `~`.

cmark-gfm's strikethrough extension makes `~` a character that `*` and `_` runs look through
when they decide whether they open or close: the character before a run is the first one before
it that is not a `~`, the one after it the first after it that is not a `~` (a newline, as at
the text's ends, when only `~` are left).  So `_u_~~s~~` is no emphasis (the `_` after `u` is
followed by `s`: intraword) and `a*~b*` is (`*` before `b` opens).  mistune sees the `~` (or a
strikethrough token's placeholder) as punctuation.

Whether a `*` or `_` run opens or closes is cmark-gfm's judgement (`_opens_closes`), not
mistune's: punctuation is ASCII's and Unicode's P classes, so a symbol such as `€` or `°` is like
a letter (`## Price €_net_` keeps its underscores, `#price-_net_`).

`finalize` is mistune's own finalization of a text's emphasis (its delimiter runs, then its
matching) with the flanking judged on a source where each strikethrough token is `~~`, its
content, `~~`; mistune's placeholder for any other token and an escaped `~` are punctuation
(as the `[`, `` ` ``, `<` or `\\` they start with are for cmark-gfm).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from mistune._inline import emphasis as _em

STRIKE_START = r"~+"
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


_OBJECT = "\ufffc"  # mistune's stand-in for a token that is not text: punctuation


def _punct(c: str) -> bool:
    """cmark-gfm's cmark_utf8proc_is_punctuation: ASCII's punctuation and Unicode's P classes,
    not its symbols (`€`, `°`, `©` are like letters: `€_net_` is no emphasis).  mistune's
    placeholder stands for a token whose first or last character is punctuation for cmark-gfm
    (the `[`, `)`, `` ` ``, `<` or `>` a link, code span or tag starts or ends with)."""
    if c.isascii():
        return c in _ASCII_PUNCT
    return c == _OBJECT or unicodedata.category(c).startswith("P")


def _space(c: str) -> bool:
    """cmark-gfm's cmark_utf8proc_is_space: the ASCII blanks and Unicode's Zs (not `\\v` or
    the information separators Python counts as space)."""
    if c.isascii():
        return c in " \t\n\f\r"
    return unicodedata.category(c) == "Zs"


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """Whether a delimiter run between `before` and `after` is left-flanking, right-flanking
    (cmark-gfm's scan_delims)."""
    sb, sa = _space(before), _space(after)
    pb, pa = _punct(before), _punct(after)
    return not sa and (not pa or sb or pb), not sb and (not pb or sa or pa)


def _flanks(src: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether the run src[start:end] is left-flanking, right-flanking (the characters right
    next to it, a newline at the text's ends)."""
    before = src[start - 1] if start > 0 else "\n"
    after = src[end] if end < len(src) else "\n"
    return _flanking(before, after)


def _opens_closes(before: str, after: str, marker: str) -> tuple[bool, bool]:
    """Whether a `*` or `_` run between `before` and `after` can open, close emphasis
    (cmark-gfm's scan_delims; mistune counts every character that is no letter or digit as
    punctuation, and judges `_` by letters and digits alone)."""
    left, right = _flanking(before, after)
    if marker == "_":
        return left and (not right or _punct(before)), right and (not left or _punct(after))
    return left, right


def _strike_closer(src: str, pos: int, size: int, opener_closes: bool) -> int | None:
    """Where the run that closes an opener of `size` `~` ending at `pos` starts, if any."""
    depth = 0
    n = len(src)
    i = pos
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            k = i
            while k < n and src[k] == "`":
                k += 1
            ticks = src[i:k]
            j = src.find(ticks, k)
            while j >= 0 and (src.startswith("`", j + len(ticks)) or src[j - 1] == "`"):
                j = src.find(ticks, j + 1)
            i = j + len(ticks) if j >= 0 else k  # a code span holds no delimiter
            continue
        if c != "~":
            i += 1
            continue
        k = i
        while k < n and src[k] == "~":
            k += 1
        if k - i <= 2:
            left, right = _flanks(src, i, k)
            if right and depth:
                depth -= 1
            elif right and k - i == size:
                return i
            elif right and not (left or opener_closes):
                return None  # a closer of the other length: both are text
            elif left:
                depth += 1
        i = k
    return None


def parse_strikethrough(inline: Any, m: Any, state: Any) -> int:
    """The `~` run at `m`: a strikethrough to its closer, or text."""
    src = state.src
    start, end = m.start(), m.end()
    size = end - start
    left, right = _flanks(src, start, end)
    close = None
    if size <= 2 and left and state.depth < inline.max_nested_level:
        close = _strike_closer(src, end, size, right)
    if close is None:
        inline.process_text(src[start:end], state)
        return end
    child = state.copy()
    child.src = src[end:close]
    state.append_token({"type": "strikethrough", "children": inline.render(child)})
    return close + size

def _source(tok: dict[str, Any]) -> str:
    t = tok["type"]
    if t == "text":
        # an escape's text (`\~` is `~`) is no `~` for cmark-gfm, which sees the `\`
        return tok["raw"] if tok.get("_emphasis", True) else tok["raw"].replace("~", _OBJECT)
    if t in ("softbreak", "linebreak"):
        return "\n"
    if t == "strikethrough":
        return "~~" + "".join(_source(ch) for ch in tok.get("children") or ()) + "~~"
    return _OBJECT


def _neighbours(source: str, start: int, size: int) -> tuple[str, str]:
    """The characters cmark-gfm judges the run at source[start:start + size] by: the first
    before it and the first after it that are not `~`, a newline at the text's ends."""
    i = start - 1
    while i > 0 and source[i] == "~":
        i -= 1
    before = "\n" if i < 0 or source[i] == "~" else source[i]
    j = start + size
    while j < len(source) and source[j] == "~":
        j += 1
    after = source[j] if j < len(source) else "\n"
    return before, after


def _split(tok: dict[str, Any], source: str, at: int, parts: list[dict[str, Any]],
           delimiters: list[Any]) -> None:
    """mistune's _split_text_token, flanking judged as cmark-gfm judges it."""
    text = tok["raw"]
    pos = 0
    while pos < len(text):
        if text[pos] not in "*_":
            end = _em._next_delimiter_run(text, pos)
            parts.append({"type": "text", "raw": text[pos:end]})
            pos = end
            continue
        marker = text[pos]
        end = pos
        while end < len(text) and text[end] == marker:
            end += 1
        size = end - pos
        before, after = _neighbours(source, at + pos, size)
        can_open, can_close = _opens_closes(before, after, marker)
        index = len(parts)
        parts.append({"type": "text", "raw": text[pos:end]})
        if can_open or can_close:
            delimiters.append(_em._Delimiter(index, marker, size, can_open, can_close, size, len(delimiters)))
        pos = end


def finalize(tokens: list[dict[str, Any]], enabled: bool, max_depth: int) -> list[dict[str, Any]]:
    """mistune's finalize_emphasis_tokens, with cmark-gfm's flanking (and its look through `~`)."""
    if len(tokens) > 1:
        tokens = _em._coalesce_emphasis_text(tokens)
    if not enabled or not _em._contains_emphasis_marker(tokens):
        return [_em._clean_emphasis_token(tok) for tok in tokens]
    pieces = [_source(tok) for tok in tokens]
    source = "".join(pieces)
    parts: list[dict[str, Any]] = []
    delimiters: list[Any] = []
    at = 0
    for tok, piece in zip(tokens, pieces):
        if tok["type"] == "text" and tok.get("_emphasis", True):
            _split(tok, source, at, parts, delimiters)
        else:
            parts.append(_em._clean_emphasis_token(tok))
        at += len(piece)
    if not _em._process_dense_emphasis(parts, delimiters):
        _em._process_emphasis_delimiters(parts, delimiters, max_depth)
    return _em._merge_text_tokens(parts)
