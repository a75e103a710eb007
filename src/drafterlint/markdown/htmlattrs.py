"""HTML attributes GitHub keeps: explicit anchors (`id`, `name`) and `<a href>` targets, and where
HTML comments are."""

from __future__ import annotations

import re

_ANCHOR_ATTR_RE = re.compile(r"""\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
_HREF_RE = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
_A_TAG_RE = re.compile(r"<a\b[^>]*>", re.I)


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

