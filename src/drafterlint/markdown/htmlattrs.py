"""HTML attributes GitHub keeps: explicit anchors (`id`, `name`) and `<a href>` targets, and where
HTML comments are.

github.com sanitizes rendered HTML: only the elements below survive, and of their attributes
`id` and `name` (prefixed ``user-content-``, which GitHub's script resolves for ``#name``).  An
attribute on any other element (``<meta name=…>``), a look-alike (``data-id=``) or anything
inside a comment is no anchor.  Raw HTML is read with HTML5's rules, as GitHub's sanitizer
reads it (see `_start_tags`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

from drafterlint import lazyre

# html-pipeline's allowlist as github.com applies it, with the task-list checkbox and
# picture/source.
SANITIZER_ELEMENTS = frozenset(
    ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt", "div", "ins", "del", "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt", "dd", "kbd", "q", "samp", "var", "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary", "details", "caption", "figure", "figcaption", "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time", "wbr", "input", "picture", "source"]
)

# HTML5's tokenizer, as far as start tags and what hides them go: a tag name runs to a space,
# `/` or `>` (`<r<div id=x>` is the element `r<div`); an attribute name to a space, `/`, `>` or
# `=`; an unquoted value to a space or `>` (`id=2"` is `2"`, `id=<` is `<`).
_SPACE = "\t\n\f\r "
_TAG_NAME_RE = lazyre.compile(r"[^\t\n\f\r />]*")
_ATTR_NAME_RE = lazyre.compile(r".[^\t\n\f\r />=]*", re.S)
_UNQUOTED_RE = lazyre.compile(r"[^\t\n\f\r >]*")
_SPACES_RE = lazyre.compile(r"[\t\n\f\r ]*")


def _start_tags(raw: str) -> Iterator[tuple[int, str, list[tuple[str, str]]]]:
    """(offset, element, [(attribute, decoded value)]) of each start tag, read the way an HTML5
    parser (GitHub's sanitizer) reads `raw`: nothing in a comment (`<!-->` is a whole one, an
    unclosed one runs to the end), in a bogus comment (`<!x …>`, `<?…>`, `</1…>`) or in a tag
    the text ends inside counts."""
    for off, name, attrs in _scan(raw):
        if name and name != "<":
            yield off, name, attrs


class RawHtml:
    """The raw HTML of a page read as one text, piece by piece in document order, as GitHub's
    sanitizer reads it: a comment a piece leaves open hides the raw HTML after it up to a `-->`,
    and a tag a piece ends inside goes on in the next piece (`<span title='a⏎⏎<a id=x>` is one
    `span` tag, no anchor), whether that piece is an HTML block or inline HTML."""

    __slots__ = ("comment_open", "carry", "started")

    def __init__(self) -> None:
        self.comment_open = False
        self.carry = ""  # the text of the tag the last piece ended inside
        self.started: tuple[int, int] = (0, 0)  # where that tag starts (line, column)

    def feed(self, raw: str, at: Callable[[int], tuple[int, int]], *, whole: bool = False) -> tuple[str, Callable[[int], tuple[int, int]]]:
        """The text to read for the next piece `raw` (what goes on from before it, then `raw`;
        "" when it is all inside a comment), and where each of its offsets is written, given
        where each offset of `raw` is (`at`).  `whole`: `raw` is one complete CommonMark tag,
        comment or declaration (inline HTML), which HTML5 reads as complete too, so it leaves
        nothing open when nothing was open before it."""
        if whole and not self.carry and not self.comment_open:
            return raw, at
        if self.comment_open:
            close = comment_close(raw)
            if close < 0:
                return "", at
            self.comment_open = False
            raw = " " * close + raw[close:]
        carry, started = self.carry, self.started
        text = carry + raw

        def place(k: int) -> tuple[int, int]:
            return started if k < len(carry) else at(k - len(carry))

        found = list(_scan(text))
        last = found[-1] if found else (0, "-", [])
        self.carry, self.started = (text[last[0] :], place(last[0])) if last[1] == "<" else ("", (0, 0))
        self.comment_open = last[1] == ""
        return text, place


def comment_close(raw: str) -> int:
    """Where, in `raw`, a comment open before it ends (past its `-->` or `--!>`), -1 if not."""
    ends = [k + len(t) for t in ("-->", "--!>") if (k := raw.find(t)) >= 0]
    return min(ends) if ends else -1


def _scan(raw: str) -> Iterator[tuple[int, str, list[tuple[str, str]]]]:
    """_start_tags' tags, and (offset, "", []) last when `raw` ends inside a comment, or
    (offset, "<", []) when it ends inside a tag."""
    n = len(raw)
    i = raw.find("<")
    while 0 <= i < n - 1:
        c = raw[i + 1]
        if c.isascii() and c.isalpha():
            tag = _read_tag(raw, i + 1)
            if tag is None:
                yield i, "<", []  # the text ends inside the tag: no tag
                return
            name, attrs, end = tag
            yield i, name, attrs
        elif c == "/" and i + 2 < n and raw[i + 2].isascii() and raw[i + 2].isalpha():
            tag = _read_tag(raw, i + 2)  # an end tag: its attributes are read and dropped
            if tag is None:
                yield i, "<", []
                return
            end = tag[2]
        elif c == "/" and raw.startswith(">", i + 2):
            end = i + 3
        elif raw.startswith("<!--", i):
            end = _comment_end(raw, i)
            if end < 0:
                yield i, "", []
                return
        elif c in "!?/":
            k = raw.find(">", i + 2)  # a bogus comment (a doctype reads the same for this)
            end = n if k < 0 else k + 1
        else:
            end = i + 1
        i = raw.find("<", end)


def _run(rx: lazyre.Lazy[str], raw: str, j: int) -> int:
    """End of the run of `rx` (which matches the empty string too) at raw[j]."""
    m = rx.match(raw, j)
    return m.end() if m else j


def _read_tag(raw: str, j: int) -> tuple[str, list[tuple[str, str]], int] | None:
    """The tag whose name starts at raw[j]: (name, attributes, end), None if the text ends in it."""
    n = len(raw)
    k = _run(_TAG_NAME_RE, raw, j)
    name = raw[j:k].lower()
    j = k
    attrs: list[tuple[str, str]] = []
    seen: set[str] = set()
    while True:
        j = _run(_SPACES_RE, raw, j)
        if j >= n:
            return None
        if raw[j] == ">":
            return name, attrs, j + 1
        if raw[j] == "/":
            j += 1
            continue
        k = _run(_ATTR_NAME_RE, raw, j)
        attr = raw[j:k].lower()
        j = _run(_SPACES_RE, raw, k)
        value = ""
        if j < n and raw[j] == "=":
            j = _run(_SPACES_RE, raw, j + 1)
            if j >= n:
                return None
            q = raw[j]
            if q in "\"'":
                k = raw.find(q, j + 1)
                if k < 0:
                    return None
                value, j = raw[j + 1 : k], k + 1
            elif q != ">":
                k = _run(_UNQUOTED_RE, raw, j)
                value, j = raw[j:k], k
        if attr not in seen:  # the first of repeated attributes wins
            seen.add(attr)
            attrs.append((attr, html.unescape(value) if "&" in value else value))


def _comment_end(raw: str, i: int) -> int:
    """End of the HTML5 comment that starts at raw[i] (`<!--`): `<!-->` and `<!--->` are whole
    comments, otherwise it ends at `-->` or `--!>`; -1 when the text ends first."""
    j = i + 4
    if raw.startswith(">", j):
        return j + 1
    if raw.startswith("->", j):
        return j + 2
    ends = [k + len(t) for t in ("-->", "--!>") if (k := raw.find(t, j)) >= 0]
    return min(ends) if ends else -1


def anchors_in(raw: str) -> Iterator[tuple[str, int]]:
    """(name, offset) of each `id`/`name` GitHub keeps in a piece of raw HTML."""
    for off, tag, attrs in _start_tags(raw):
        if tag in SANITIZER_ELEMENTS:
            for name, value in attrs:
                if value and name in ("id", "name"):
                    yield value, off


def hrefs_in(raw: str) -> Iterator[tuple[str, int]]:
    """(target, offset of the `<a`) of each `<a href>` in a piece of raw HTML."""
    for off, tag, attrs in _start_tags(raw):
        if tag == "a":
            for name, value in attrs:
                if name == "href":
                    yield value, off
                    break


def comment_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each complete HTML comment `<!-- ... -->`, in order; linear time.

    A regular expression with a lazy `.*?` would rescan to the end of the text for every
    unterminated `<!--`, which is quadratic on hostile input.
    """
    find = text.find
    i = find("<!--")
    while i >= 0:
        e = find("-->", i + 4)
        if e < 0:
            return  # no comment closes after here, so none starts after here either
        yield i, e + 3
        i = find("<!--", e + 3)


_HEADING_NAMES = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ANY_TAG_RE = lazyre.compile(r"<[^>]*>")


def _visible(raw: str) -> str:
    """`raw` with each HTML comment blanked (an unclosed one to the end), offsets kept."""
    if "<!--" not in raw:
        return raw
    out = list(raw)
    end = 0
    for start, end in comment_spans(raw):
        out[start:end] = " " * (end - start)
    k = raw.find("<!--", end)
    if k >= 0:
        out[k:] = " " * (len(raw) - k)
    return "".join(out)


def headings_in(raw: str) -> Iterator[tuple[int, str, int]]:
    """(level, text, offset) of each `<h1>`…`<h6>` element in a piece of raw HTML: github.com
    gives it an anchor from its text as it does a Markdown heading (its anchor filter runs over
    every h1–h6 of the sanitized page), numbered with them.  The text is the element's, tags
    dropped and entities decoded; an element left open runs to the end of `raw`."""
    text = _visible(raw)
    lower = text.lower()
    after = 0  # the end of the last heading element: a tag inside it starts none
    for off, name, _ in _start_tags(text):  # read as HTML5 reads them: none inside a quoted value
        if off < after or name not in _HEADING_NAMES:
            continue
        tag = _read_tag(text, off + 1)
        if tag is None:
            return
        gt = tag[2] - 1
        level = int(name[1])
        close = lower.find(f"</h{level}", gt + 1)
        inner = text[gt + 1 : close if close >= 0 else len(text)]
        inner = _ANY_TAG_RE.sub("", inner)
        inner = html.unescape(inner) if "&" in inner else inner
        yield level, inner.strip(), off
        if close < 0:
            return
        after = close + 4
