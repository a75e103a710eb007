"""HTML attributes GitHub keeps: explicit anchors (`id`, `name`) and `<a href>` targets, and where
HTML comments are.

github.com sanitizes rendered HTML: only the elements below survive, and of their attributes
`id` and `name` (prefixed ``user-content-``, which GitHub's script resolves for ``#name``).  An
attribute on any other element (``<meta name=…>``), a look-alike (``data-id=``) or anything
inside a comment is no anchor.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

# html-pipeline's allowlist as github.com applies it, with the task-list checkbox and
# picture/source.
SANITIZER_ELEMENTS = frozenset(
    ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt", "div", "ins", "del", "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt", "dd", "kbd", "q", "samp", "var", "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary", "details", "caption", "figure", "figcaption", "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time", "wbr", "input", "picture", "source"]
)

_START_TAG_RE = re.compile(
    r"<([A-Za-z][A-Za-z0-9\-]*)((?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_ATTR_RE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def _start_tags(raw: str) -> Iterator[tuple[int, str, list[tuple[str, str]]]]:
    """(offset, element, [(attribute, decoded value)]) of each start tag outside comments."""
    pos = 0
    comments = list(_comments(raw))
    tail = raw.find("<!--", comments[-1][1] if comments else 0)
    end = len(raw) if tail < 0 else tail  # an unclosed comment hides everything after it
    for c_start, c_end in (*comments, (end, end)):
        for m in _START_TAG_RE.finditer(raw, pos, c_start):
            attrs = [
                (a.group(1).lower(), html.unescape(a.group(2) or a.group(3) or a.group(4) or ""))
                for a in _ATTR_RE.finditer(m.group(2))
            ]
            yield m.start(), m.group(1).lower(), attrs
        pos = c_end


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


def _comments(text: str):
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
