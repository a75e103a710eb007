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

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from mistune import InlineState
from mistune.helpers import parse_link
from mistune.util import unikey

from drafterlint import lazyre
from drafterlint.markdown import _mistune
from drafterlint.markdown._mistune import (
    AUTOLINK,
    NO_EMPHASIS,
    Opener,
    add_token,
    deactivate_link_openers,
    drop_opener,
    in_link,
    inline_child,
    inline_depth,
    innermost_opener,
    open_brackets,
    opener_text_start,
    opener_text_starts,
    opener_usable,
    ref_links,
    src_of,
)
from drafterlint.markdown.autolinks import URL_FIRST, url_end
from drafterlint.markdown.escapes import ASCII_PUNCT, skip_literal, unescaped

STRIKE_START = r"~+"


class StrikeState(InlineState):
    """mistune's inline state, with what cmark-gfm's brackets say of bare URLs across a
    strikethrough, whose text mistune parses apart: whether a `[` is open around that text
    (`no_bare_urls`), and where the text of each `[` a strikethrough before left open starts
    (`strike_brackets`, in this state's source: a `]` after the run closes the innermost `[`,
    one of these or one of the state's own opened later)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.no_bare_urls = False
        self.strike_brackets: list[int] = []


_OBJECT = "\ufffc"  # mistune's stand-in for a token that is not text: punctuation


def _punct(c: str) -> bool:
    """cmark-gfm's cmark_utf8proc_is_punctuation: ASCII's punctuation and Unicode's P classes,
    not its symbols (`€`, `°`, `©` are like letters: `€_net_` is no emphasis).  mistune's
    placeholder stands for a token whose first or last character is punctuation for cmark-gfm
    (the `[`, `)`, `` ` ``, `<` or `>` a link, code span or tag starts or ends with)."""
    if c.isascii():
        return c in ASCII_PUNCT
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


def _strike_closer(
    src: str, pos: int, size: int, opener_closes: bool, urls: bool, link_end: Callable[[int], int]
) -> int | None:
    """Where the run that closes an opener of `size` `~` ending at `pos` starts, if any.  With
    `urls`, a bare URL is text the closer cannot be in (cmark-gfm's autolink takes
    `www.e.com~and` whole, `~` included).  Nor is a `~` in a link's text (`link_end`: past the
    link that a `[` starts, or -1) a closer: cmark-gfm resolves it inside the link
    (`~[~](#x)` is a link)."""
    depth = 0
    n = len(src)
    i = pos
    while i < n:
        j = skip_literal(src, i, n)
        if j != i:
            i = j
            continue
        c = src[i]
        if c == "[":
            e = link_end(i)
            if e > 0:
                i = e
                continue
        if urls and c in URL_FIRST:
            e = url_end(src, i)
            if e > 0:
                i = e
                continue
        if c != "~":
            i += 1
            continue
        k = i
        while k < n and src[k] == "~":
            k += 1
        if k - i <= 2:
            left, right = _flanks(src, i, k)
            if left and right and k - i != size:
                # a run of the other length that may open and close is passed over both ways
                # (the rule of three: 1 + 2 is 3): `~*~~__b~` is one strikethrough
                i = k
                continue
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


def parse_strikethrough(inline: Any, m: re.Match[str], state: Any) -> int:
    """The `~` run at `m`: a strikethrough to its closer, or text.

    cmark-gfm pairs `~` runs with the emphasis delimiters, after the brackets of their
    paragraph are resolved; mistune parses the strikethrough's text apart, with no outer bracket
    open.  So, as cmark-gfm reads it: a `]` in that text closes the `[` open before the run (a
    link there makes the run text: the link's text holds it; otherwise that `[` is spent, and the
    `]` is text), and a link in it leaves no `[` before the run to make a link of
    (`[~~[a](#x)~~](#y)` is one link)."""
    src = src_of(state)
    start, end = m.start(), m.end()
    size = end - start
    left, right = _flanks(src, start, end)
    close = None
    if size <= 2 and left and inline_depth(state) < inline.max_nested_level:
        urls = not (open_brackets(state) or in_link(state) or no_bare_urls(state))
        close = _strike_closer(src, end, size, right, urls, lambda i: _link_end(state, i))
    if close is not None and (open_brackets(state) or state.strike_brackets) and _closes_outer_link(state, end, close):
        close = None
    if close is None:
        inline.process_text(src[start:end], state)
        return end
    child = inline_child(state, src[end:close])
    # a `[` open outside the strikethrough still keeps bare URLs in it unlinked
    child.no_bare_urls = bool(open_brackets(state)) or no_bare_urls(state)
    children = inline.render(child)
    if _holds_link(children):
        deactivate_link_openers(state)
    # a `[` the strikethrough's text leaves open stays open after it for cmark-gfm (its brackets
    # are the paragraph's): no bare URL is linked until a `]` closes it (`~[x~ www.e.org`)
    state.strike_brackets += [end + start for start in opener_text_starts(child)]
    add_token(state, {"type": "strikethrough", "children": children})
    return close + size


def no_bare_urls(state: StrikeState) -> bool:
    """Whether a `[` is open around the text of `state` (a strikethrough's, parsed apart), or
    one a strikethrough before it left open: cmark-gfm links no bare URL while one is."""
    return state.no_bare_urls or bool(state.strike_brackets)


def close_strike_bracket(state: StrikeState) -> bool:
    """Whether the next `]` closes a `[` a strikethrough left open: the innermost `[` open is
    one (no link: `_strike_closer` found none that `[` makes, so it is spent, and the `]` is
    text; `[~[~]]()` links the outer brackets)."""
    pending = state.strike_brackets
    if not pending or (open_brackets(state) and opener_text_start(innermost_opener(state)) > pending[-1]):
        return False
    pending.pop()
    return True


def _outer_closers(src: str, a: int, b: int) -> list[int]:
    """The `]` in src[a:b] that close no `[` opened there (escapes and code spans skipped)."""
    out: list[int] = []
    depth = 0
    for i, c in unescaped(src, a, b):
        if c == "[":
            depth += 1
        elif c == "]":
            if depth:
                depth -= 1
            else:
                out.append(i)
    return out


def _closes_outer_link(state: StrikeState, a: int, b: int) -> bool:
    """Whether a `]` in src_of(state)[a:b] makes a link of a `[` open before it (then the `~` run
    is text in that link's text); the `[` each other such `]` closes without a link is spent."""
    for q in _outer_closers(src_of(state), a, b):
        if close_strike_bracket(state):
            continue  # it closes a `[` a strikethrough before left open (no link: spent)
        if not open_brackets(state):
            break
        opener = innermost_opener(state)
        if opener_usable(state, opener) and link_at(state, opener, q):
            return True
        drop_opener(state)
    return False


def link_at(state: InlineState, opener: Opener, q: int) -> bool:
    """Whether the `]` at src_of(state)[q] ends a link or image opened by `opener`: an inline
    destination that closes, or a reference that resolves."""
    src = src_of(state)
    if src.startswith("(", q + 1) and parse_link(src, q + 2)[1] is not None:
        return True
    return _mistune.parse_reference(state, opener, q, q + 1) is not None


# How far a link's text is looked for past the `[` that opens it, while a `~` looks for its
# closer: bounds the scan on hostile input (a link's text longer than this: its `~` is read as
# if no link held it).
_LINK_TEXT_SCAN = 10_000


def _link_end(state: InlineState, i: int) -> int:
    """Past the link or image whose text the `[` at src_of(state)[i] opens (its `]` found by
    counting brackets; then a destination that closes, or a reference that resolves), or -1.
    A link inside a link's text leaves the outer `[` no link (an image's may hold one)."""
    src = src_of(state)
    n = min(len(src), i + _LINK_TEXT_SCAN)
    opened: list[int] = []
    image = i > 0 and src[i - 1] == "!"
    usable = True  # cmark-gfm's one flag: a link clears it, a later `[` sets it again
    for k, c in unescaped(src, i, n):
        if c == "[":
            opened.append(k)
            if k == 0 or src[k - 1] != "!":
                usable = True
        elif c == "]":
            j = opened.pop()
            if not opened:
                return _link_after(state, i, k) if usable or image else -1
            inner_link = j == 0 or src[j - 1] != "!"
            if inner_link and _link_after(state, j, k) > 0:
                usable = False
    return -1


def _link_after(state: InlineState, i: int, k: int) -> int:
    """Past the link whose text runs from the `[` at src_of(state)[i] to the `]` at k, or -1."""
    src = src_of(state)
    if src.startswith("(", k + 1):
        end = parse_link(src, k + 2)[1]
        if end is not None:
            return end
    refs = ref_links(state)
    if src.startswith("[", k + 1):
        label_end = src.find("]", k + 2)
        label = src[k + 2 : label_end] if label_end > 0 else ""
        if label.strip():
            return label_end + 1 if unikey(label) in refs else -1
    return k + 1 if unikey(src[i + 1 : k]) in refs else -1


def _holds_link(tokens: list[dict[str, Any]]) -> bool:
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        if tok.get("type") == "link":
            return True
        stack.extend(tok.get("children") or ())
    return False


# Characters on which mistune's flanking and cmark-gfm's part: controls (mistune's
# punctuation or blanks, cmark-gfm's letters), `~` (see above) and anything not ASCII.
_NOT_ALIKE_RE = lazyre.compile(r"[^\t\n\f\r\x20-\x7d]")


def mistune_reads_alike(tokens: list[dict[str, Any]]) -> bool:
    """Whether mistune's own emphasis finalization reads `tokens` as cmark-gfm does: printable
    ASCII text without `~`, where its punctuation (neither a letter, a digit nor a blank) is
    ASCII's and its rule for `_` is CommonMark's."""
    for tok in tokens:
        t = tok["type"]
        if t == "strikethrough" or (t == "text" and _NOT_ALIKE_RE.search(tok["raw"])):
            return False
    return True


def _source(tok: dict[str, Any]) -> str:
    t = tok["type"]
    if t == "text":
        # an escape's text (`\~` is `~`) is no `~` for cmark-gfm, which sees the `\`
        raw: str = tok["raw"]
        return raw if tok.get(NO_EMPHASIS, True) else raw.replace("~", _OBJECT)
    if t in ("softbreak", "linebreak"):
        return "\n"
    if t == "strikethrough":
        return "~~" + "".join(_source(ch) for ch in tok.get("children") or ()) + "~~"
    if t == "link" and AUTOLINK in tok:
        # an autolink as written: cmark-gfm judges a run by the characters there (`_a_~https://x`
        # is no emphasis: the `_` looks through `~` to the `h`), a bare URL's made later
        return str(tok[AUTOLINK])
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


_RUN_START_RE = lazyre.compile(r"[*_~]")


def _split(tok: dict[str, Any], source: str, at: int, parts: list[dict[str, Any]],
           delimiters: list[Any]) -> None:
    """mistune's _split_text_token, flanking judged as cmark-gfm judges it; a run of one or two
    `~` left as text (no strikethrough closed it) is a delimiter too, as it is for cmark-gfm."""
    text = tok["raw"]
    pos = 0
    while pos < len(text):
        if text[pos] not in "*_~":
            m = _RUN_START_RE.search(text, pos)
            end = m.start() if m else len(text)
            parts.append({"type": "text", "raw": text[pos:end]})
            pos = end
            continue
        marker = text[pos]
        end = pos
        while end < len(text) and text[end] == marker:
            end += 1
        size = end - pos
        if marker == "~":
            can_open, can_close = _flanks(source, at + pos, at + end) if size <= 2 else (False, False)
        else:
            before, after = _neighbours(source, at + pos, size)
            can_open, can_close = _opens_closes(before, after, marker)
        index = len(parts)
        parts.append({"type": "text", "raw": text[pos:end]})
        if can_open or can_close:
            delimiters.append(_mistune.new_delimiter(index, marker, size, can_open, can_close, len(delimiters)))
        pos = end


def finalize(tokens: list[dict[str, Any]], enabled: bool, max_depth: int) -> list[dict[str, Any]]:
    """mistune's finalize_emphasis_tokens, with cmark-gfm's flanking (and its look through `~`)."""
    if len(tokens) > 1:
        tokens = _mistune.coalesce_emphasis_text(tokens)
    if not enabled or not _mistune.contains_emphasis_marker(tokens):
        return [_mistune.clean_emphasis_token(tok) for tok in tokens]
    pieces = [_source(tok) for tok in tokens]
    source = "".join(pieces)
    parts: list[dict[str, Any]] = []
    delimiters: list[Any] = []
    at = 0
    for tok, piece in zip(tokens, pieces):
        if tok["type"] == "text" and tok.get(NO_EMPHASIS, True):
            _split(tok, source, at, parts, delimiters)
        else:
            parts.append(_mistune.clean_emphasis_token(tok))
        at += len(piece)
    if not _mistune.process_dense_emphasis(parts, delimiters):
        _mistune.process_delimiters(parts, delimiters, max_depth)
    return _mistune.merge_text_tokens(parts)
