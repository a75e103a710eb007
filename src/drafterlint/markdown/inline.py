"""Inline positions: where each link, image and inline HTML tag of a block starts.

Each block's raw inline source is scanned (escapes, code spans, autolinks, raw HTML, brackets)
into candidate events, which are then aligned, in document order, with mistune's link / image /
inline-HTML tokens.  The token gives what the link *is* (text, kind, resolved reference); the
event gives *where* it is and its destination as written.
"""

from __future__ import annotations

import re
from typing import Any

from mistune.helpers import parse_link, parse_link_href, parse_link_title
from mistune.util import unikey

from drafterlint import lazyre
from drafterlint.markdown._mistune import src_of
from drafterlint.markdown.autolinks import URL_START, url_end
from drafterlint.markdown.escapes import skip_literal
from drafterlint.markdown.fastinline import FOOTNOTE_LABEL
from drafterlint.markdown.footnotes import FOOTNOTE_REF_RE
from drafterlint.markdown.htmlattrs import RawHtml, anchors_in, hrefs_in
from drafterlint.markdown.model import Link, Span, new_link, new_span
from drafterlint.markdown.positions import PosState
from drafterlint.markdown.text import decode, decode_entities

_AUTOLINK_RE = lazyre.compile(
    r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
)
_TAG_RE = lazyre.compile(
    r"</?[A-Za-z][A-Za-z0-9\-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:\-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    # a declaration is `<!` + capitals + a space for cmark-gfm and mistune: `<!g<a …>` is text + a tag
    r"|<\?.*?\?>|<![A-Z]+[ \t\n\r\f][^>]*>|<!\[CDATA\[.*?\]\]>",
    re.S,
)
_SIMPLE_DEST_RE = lazyre.compile(r"[^\s\\&()<>\"'`]+")

# --------------------------------------------------------------------------------------------
# rendered text


def render(
    children: list[dict[str, Any]] | None, *, images: bool = True, breaks: str = " ",
    footnotes: dict[str, int] | None = None,
) -> str:
    """Rendered text; `breaks` is what a line break becomes (a heading's text keeps GitHub's
    newline, which its anchor drops: `a⏎*` is `#a`, not `#a-`); a reference to one of the
    `footnotes` is its number (see footnote_numbers)."""
    out: list[str] = []
    _render_into(children or (), out, images, breaks, footnotes)
    return "".join(out)


def _render_into(
    children: Any, out: list[str], images: bool, breaks: str = " ", footnotes: dict[str, int] | None = None
) -> None:
    for tok in children:
        t = tok.get("type")
        if t == "text":
            raw = tok.get("raw", "")
            if footnotes and "[^" in raw:
                raw = number_footnotes(raw, footnotes)
            out.append(raw if "_literal" in tok else decode_entities(raw))
        elif t == "codespan":
            out.append(tok.get("raw", ""))
        elif t == FOOTNOTE_LABEL:
            raw = tok.get("raw", "")
            out.append(number_footnotes(raw, footnotes) if footnotes else raw)
        elif t in ("softbreak", "linebreak"):
            out.append(breaks)
        elif t == "inline_html" or t == "block_html":
            continue
        elif t == "image":
            if images:
                _render_into(tok.get("children") or (), out, images, breaks, footnotes)
        elif "children" in tok:
            _render_into(tok["children"], out, images, breaks, footnotes)
        elif "raw" in tok:
            out.append(tok["raw"])


def footnote_numbers(text: str, defined: set[str]) -> dict[str, int]:
    """The number GitHub shows for each footnote of `text` that has a definition: 1, 2, … in the
    order of their first references."""
    numbers: dict[str, int] = {}
    for m in FOOTNOTE_REF_RE.finditer(text):
        if m.group(1) is None:
            continue  # a backtick run (the pattern's other half)
        key = unikey(m.group(1))
        if key in defined and key not in numbers:
            numbers[key] = len(numbers) + 1
    return numbers


def number_footnotes(text: str, numbers: dict[str, int]) -> str:
    """Rendered text with each footnote reference as its number (`<sup>1</sup>` on the page,
    so `## Scope[^a]` is `#scope1`)."""
    if "[^" not in text:
        return text

    def number(m: re.Match[str]) -> str:
        n = numbers.get(unikey(m.group(1))) if m.group(1) is not None else None
        return m.group(0) if n is None else str(n)

    return FOOTNOTE_REF_RE.sub(number, text)


# --------------------------------------------------------------------------------------------
# inline events


_LINKISH = frozenset({"link", "image", "inline_html"})


def has_linkish(children: Any) -> bool:
    stack = list(children or ())
    while stack:
        tok = stack.pop()
        if tok.get("type") in _LINKISH:
            return True
        ch = tok.get("children")
        if ch:
            stack.extend(ch)
    return False


class _Ev:
    __slots__ = ("pos", "kind", "close", "is_image", "text", "can_link", "dest_end")

    def __init__(self, pos: int, kind: str, close: int = -1, image: bool = False, text: str = ""):
        self.pos = pos
        self.kind = kind  # "lb" | "auto" | "url" | "tag"
        self.close = close
        self.is_image = image
        self.text = text
        self.can_link = True  # a `[` before a link is no link (links do not nest)
        self.dest_end = -1  # an inline link's or image's end, past its `(destination)`


# (every match starts with one of the lookahead's characters, a bare URL with h, f or w in any
# case: the lookahead lets the regex engine pass over the others fast, which URL_START's
# lookbehinds alone do not; a third of the scan's time)
SPECIAL_RE = lazyre.compile(r"(?=[\\`<\[\]hHfFw])(?:[\\`<\[\]]|" + URL_START + ")")


def _scan_inline(s: str, a: int, b: int) -> list[_Ev]:
    """Candidate link starts in s[a:b], in order: brackets, autolinks, bare URLs, HTML tags."""
    events: list[_Ev] = []
    stack: list[_Ev] = []
    n = b
    # cmark-gfm judges a bare URL's domain against the end of the block's inline text, which has
    # lost its final line end and spaces: a bound past them ends `www.e.org_` differently
    url_n = b
    while url_n > a and s[url_n - 1] in " \t\r\n":
        url_n -= 1
    search = SPECIAL_RE.search
    i = a
    if 0 < a < url_n and s[a : a + 4].lower() in ("www.", "http", "ftp:"):
        # a block's text starts here, whatever is before it (a table cell's `|`): a bare URL may
        # start at its first character
        e = url_end(s[a:url_n], 0)
        if e > 0:
            events.append(_Ev(a, "url", text=s[a : a + e]))
            i = a + e
    while i < n:
        m = search(s, i, n)
        if m is None:
            break
        i = m.start()
        c = s[i]
        if c == "\\" or c == "`":
            i = max(skip_literal(s, i, n), i + 1)
            continue
        if c == "<":
            if s.startswith("<!--", i):
                # `<!-->` and `<!--->` are whole comments (CommonMark 0.31, cmark-gfm): searching
                # for `-->` from after `<!--` would swallow what follows them
                short = next((len(t) for t in ("<!-->", "<!--->") if s.startswith(t, i)), 0)
                e = i + short - 3 if short else s.find("-->", i + 4, n)
                if e >= 0 and e + 3 <= n:
                    i = e + 3
                    continue
            m2 = _AUTOLINK_RE.match(s, i, n)
            if m2:
                events.append(_Ev(i, "auto", text=m2.group(1)))
                i = m2.end()
                continue
            m2 = _TAG_RE.match(s, i, n)
            if m2:
                events.append(_Ev(i, "tag", text=m2.group(0)))
                i = m2.end()
                continue
            i += 1
            continue
        if c == "[":
            img = i > a and s[i - 1] == "!" and (i - 2 < a or s[i - 2] != "\\")
            ev = _Ev(i - 1 if img else i, "lb", image=img)
            events.append(ev)
            if not img:
                # cmark-gfm's one flag for all link openers: a `[` makes those before it usable
                # again after a link inside them (`[[a](#l)[x]~](#t)` links `#t`)
                for op in stack:
                    op.can_link = True
            stack.append(ev)
            i += 1
            continue
        if c == "]":
            if stack:
                op = stack.pop()
                op.close = i
                if s.startswith("(", i + 1) and (op.can_link or op.is_image):
                    # an inline link or image: its destination holds no event (`[](http://x)[]()`)
                    end = _destination_end(s, i + 2)
                    if end is not None and end <= n:
                        op.dest_end = end
                        if not op.is_image:
                            for ev in stack:
                                ev.can_link = ev.is_image
                        i = end
                        continue
            i += 1
            continue
        # cmark-gfm links no bare URL while a `[` is open (`[http://e[]()` links only `[]()`)
        e = url_end(s, i, url_n) if i < url_n and not stack else -1
        if e > 0:
            events.append(_Ev(i, "url", text=s[i:e]))
            i = e
            continue
        i += 1
    return events


def _destination_end(s: str, p: int) -> int | None:
    """End of the `destination "title")` that starts at s[p], None if none closes there."""
    k = s.find(")", p)
    if k > p and _SIMPLE_DEST_RE.fullmatch(s, p, k):
        return k + 1  # the common `(#frag)`, `(file.md#frag)`
    return parse_link(s, p)[1]


def _norm_label(s: str) -> str:
    return unikey(s)


def source_span(st: PosState, a: int, b: int) -> Span | None:
    """Where src_of(st)[a:b] is written in the document, or None where the document's lines do not
    read so there (a position the containers' prefixes make uncertain): a span is exact or
    absent.  Its inner lines, if any, are not compared (a container's prefix is on them)."""
    (line, col), (end_line, end_col) = st.position(a), st.position(b)
    orig, piece = st.orig, src_of(st)[a:b]
    if not (1 <= line <= end_line <= len(orig)):
        return None
    first, _, rest = piece.partition("\n")
    if line == end_line:
        ok = not rest and orig[line - 1][col - 1 : end_col - 1] == piece
    else:
        last = rest.rpartition("\n")[2]
        ok = bool(rest) and orig[line - 1][col - 1 :] == first and orig[end_line - 1][: end_col - 1].endswith(last)
    return new_span(line, col, end_line, end_col) if ok else None


def destination_span(st: PosState, href: str, end: int) -> Span | None:
    """Where the destination `href` that mistune's parse_link_href read up to src_of(st)[end] is
    written: the text inside its `<…>` if it has them."""
    src, n = src_of(st), len(href)
    if src[end - 1 : end] == ">" and src[end - 2 - n : end - 1 - n] == "<" and src[end - 1 - n : end - 1] == href:
        return source_span(st, end - 1 - n, end - 1)
    if n and src[end - n : end] == href:
        return source_span(st, end - n, end)
    return None


class Aligner:
    """Walks mistune's inline tokens of one block and pins each link to its source event."""

    def __init__(self, st: PosState, a: int, b: int, parser: Any, raw_html: RawHtml):
        self.st = st
        self.s = src_of(st)
        self.a = a
        self.b = b
        self.events = _scan_inline(src_of(st), a, b)
        self.k = 0
        self.p = parser
        self.links: list[Link] = []
        self.anchors: list[tuple[str, int]] = []
        self.raw_html = raw_html  # the page's raw HTML before this block, as one text

    def run(self, children: list[dict[str, Any]], *, in_heading: bool = False) -> list[Link]:
        self.in_heading = in_heading
        try:
            self._walk(children)
        except RecursionError:
            pass
        return self.links

    def _find(self, pred: Any) -> int:
        evs = self.events
        for j in range(self.k, len(evs)):
            if pred(evs[j]):
                return j
        return -1

    def _walk(self, children: Any) -> None:
        for tok in children:
            t = tok.get("type")
            if t == "link" or t == "image":
                self._link(tok, t == "image")
            elif t == "inline_html":
                self._html(tok)
            elif "children" in tok:
                self._walk(tok["children"])

    def _bracket_ok(self, ev: _Ev, tok: dict[str, Any]) -> bool:
        if ev.close < 0:
            return False
        s = self.s
        after = ev.close + 1
        nxt = s[after] if after < self.b else ""
        if "ref" in tok:
            ref: str = tok["ref"]
            if nxt == "[":
                j = s.find("]", after + 1, self.b)
                if j >= 0:
                    lab = s[after + 1 : j]
                    # (a `[` in it makes it no label: `[r][![i](i.png)](#l)` is the shortcut `[r]`)
                    if lab.strip() and "[" not in lab.replace("\\[", ""):
                        return _norm_label(lab) == ref
            start = ev.pos + (2 if ev.is_image else 1)
            return _norm_label(s[start : ev.close]) == ref
        # `(` is not enough: `[[]()](` and `[]([]()` have no destination that closes
        # `(` is not enough: `[[]()](`, `[]([]()` and `[[]()]()` have no link at the first `[`
        return ev.dest_end >= 0

    def _link(self, tok: dict[str, Any], image: bool) -> None:
        url = (tok.get("attrs") or {}).get("url", "")
        text = render(tok.get("children"), images=True)
        auto_ok = not image and "ref" not in tok

        def ok(ev: _Ev) -> bool:
            if ev.kind == "lb":
                return ev.is_image == image and self._bracket_ok(ev, tok)
            if auto_ok and ev.kind in ("auto", "url"):
                return ev.text == text or decode_entities(ev.text) == text
            return False

        j = self._find(ok)
        if j >= 0 and not image:
            j = self._innermost(j, ok) if "ref" in tok else self._inline_bracket(j, ok, url)
        st, s = self.st, self.s
        if j < 0:
            # no place in the source makes this link (the scanner and mistune disagree): it is
            # at its block's start, with no span, and takes no place another link may be at
            line, col = st.position(self.a)
            kind = "image" if image else ("reference" if "ref" in tok else "inline")
            self._add(text, self._ref_target(tok, url)[0], line, col, kind)
            self._walk_text_of(tok, image)
            return
        ev = self.events[j]
        line, col = st.position(ev.pos)
        if ev.kind in ("auto", "url"):
            target = ev.text if ev.kind == "url" else decode_entities(ev.text)
            if ev.kind == "url" and target.startswith("www"):
                target = "http://" + target
            elif ev.kind == "auto" and ":" not in target and "@" in target:
                target = "mailto:" + target
            self._add(text, target, line, col, "autolink")
            self.k = j + 1
            return
        # a bracket (closed: `ok` takes no other): children first, then skip past the
        # destination / label
        self.k = j + 1
        end = ev.close + 1
        kind = "image" if image else ("reference" if "ref" in tok else "inline")
        target = url
        dest: Span | None = None
        if "ref" in tok:
            target, dest = self._ref_target(tok, url)
            if end < self.b and s[end] == "[":
                k2 = s.find("]", end, self.b)
                if k2 >= 0 and "[" not in s[end + 1 : k2].replace("\\[", ""):
                    end = k2 + 1
        elif end < self.b and s[end] == "(":
            p = end + 1
            while p < self.b and s[p] in " \t\n":
                p += 1
            href, hpos = (None, None)
            k2 = s.find(")", p, self.b)
            simple = k2 > p and _SIMPLE_DEST_RE.fullmatch(s, p, k2) is not None
            if simple:
                # the common `(#frag)` / `(file.md#frag)`: no escapes, entities, spaces or title
                target = s[p:k2]
                end = k2 + 1
                dest = source_span(st, p, k2)
            elif p < self.b and s[p] != ")":
                href, hpos = parse_link_href(s, p)
            else:
                href, hpos = "", p
                dest = source_span(st, p, p) if p < self.b else None
            if simple:
                pass
            elif href is not None and hpos is not None:
                target = decode(href)
                if href:
                    dest = destination_span(st, href, hpos)
                q = hpos
                title, tpos = parse_link_title(s, q, self.b)
                if tpos:
                    q = tpos
                while q < self.b and s[q] in " \t\n":
                    q += 1
                end = q + 1 if q < self.b and s[q] == ")" else q
            else:
                k2 = s.find(")", end, self.b)
                end = k2 + 1 if k2 >= 0 else end
        text_span = source_span(st, ev.pos + (2 if image else 1), ev.close)
        self._add(text, target, line, col, kind, text_span, dest)
        self._walk_text_of(tok, image)
        while self.k < len(self.events) and self.events[self.k].pos < end:
            self.k += 1

    def _innermost(self, j: int, ok: Any) -> int:
        """Of the brackets that could make this link, the innermost: links do not nest, so a
        bracket holding another that makes the same link is none (`[a [b][r]][r]` links `[b][r]`,
        then the shortcut `[r]`).  The scanner knows this of inline links already; a reference
        link's label is known only here."""
        evs = self.events
        ev = evs[j]
        for k in range(j + 1, len(evs)):
            inner = evs[k]
            if inner.pos >= ev.close:
                break
            if inner.kind == "lb" and not inner.is_image and ok(inner):
                return self._innermost(k, ok)
        return j

    def _inline_bracket(self, j: int, ok: Any, url: str) -> int:
        """Of the brackets that could make this inline link, the one whose destination is the
        link's: a `[` after a link inside an outer bracket makes that bracket usable again
        (`[[a](#l)[x]~](#t)` links `#t` around `#l`), unless a reference link the scanner does
        not know follows (`[[a](#l)[x][r]](#t)`: `#l` is the inner one)."""
        evs = self.events
        close = evs[j].close
        k = j + 1
        while k < len(evs) and evs[k].pos < close and (evs[k].kind != "lb" or evs[k].is_image):
            k += 1
        if k == len(evs) or evs[k].pos >= close:
            return j  # (the common case: no link's bracket inside this one, whatever its destination)
        if self._destination(evs[j]) == url:
            return j
        for k in range(j + 1, len(evs)):
            inner = evs[k]
            if inner.pos >= evs[j].close:
                break
            if inner.kind == "lb" and not inner.is_image and ok(inner) and self._destination(inner) == url:
                return k
        return self._innermost(j, ok)

    def _destination(self, ev: _Ev) -> str | None:
        """The destination of the inline link whose text the bracket `ev` opens, as mistune
        gives it."""
        attrs = parse_link(self.s, ev.close + 2)[0] if ev.close >= 0 else None
        return None if attrs is None else attrs.get("url")

    def _walk_text_of(self, tok: dict[str, Any], image: bool) -> None:
        """The links and tags in a link's text; an image's text is its alt attribute, plain
        text on the page (cmark-gfm renders `![see [§2](#nope)](f.png)` as `alt="see §2"`, a
        tag in it escaped): no link, anchor or `href` there.  Its events are skipped with the
        image's (everything before its end)."""
        if not image:
            self._walk(tok.get("children") or ())

    def _ref_target(self, tok: dict[str, Any], url: str) -> tuple[str, Span | None]:
        """A reference link's destination, and where its definition writes it."""
        ref = tok.get("ref")
        if ref:
            data = self.p.refs.get(ref) or {}
            if "raw_url" in data:
                return data["raw_url"], data.get("_dest")
        return url, None

    def _html(self, tok: dict[str, Any]) -> None:
        raw = tok.get("raw", "")
        pos = self.a
        # a comment, declaration or closing tag holds no anchor or link, and the scanner made no
        # event for it: looking for one would consume the next tag's and skip what lies between
        if not raw.startswith(("<!--", "<?", "<!", "</")):
            head = raw.split("\n", 1)[0]
            j = self._find(lambda ev: ev.kind == "tag" and self.s.startswith(head, ev.pos))
            if j < 0:
                j = self._find(lambda ev: ev.kind == "tag")
            if j >= 0:
                pos = self.events[j].pos
                self.k = j + 1
        elif not (self.raw_html.carry or self.raw_html.comment_open):
            return
        here = self.st.position(pos)
        # inside a comment or tag the raw HTML before left open (the page's raw HTML is one
        # text), up to where it closes, nothing counts
        text, place = self.raw_html.feed(raw, lambda at: here, whole=True)
        for name, at in anchors_in(text):
            self.anchors.append((name, place(at)[0]))
        for target, at in hrefs_in(text):
            self._add("", target, *place(at), "html")

    def _add(self, text: str, target: str, line: int, col: int, kind: str,
             text_span: Span | None = None, dest_span: Span | None = None) -> None:
        self.links.append(new_link(text, target, line, col, kind, text_span, dest_span))

