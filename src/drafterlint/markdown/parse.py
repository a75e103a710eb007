"""Parse a GitHub-flavoured Markdown document into a `Document`, with exact source positions.

mistune 3 gives the structure but no positions.  We add them this way:

* Block level: a `BlockState` subclass records, on every block token, the state and the offset
  in that state's source (`cursor`) where the block starts.  Block quotes and list items are
  parsed by mistune from *child sources* that keep exactly one line per source line (prefixes
  such as ``> `` or the list indentation stripped), so each state knows the original line of its
  first line (`line_base`); an offset in a child state maps to an original line by counting
  lines, and to a column by aligning the child line with the original line (the child line is
  the original line minus a prefix).
* Inline level: each block's raw inline source is scanned (escapes, code spans, autolinks, raw
  HTML, brackets) into candidate events, which are then aligned, in document order, with
  mistune's link / image / inline-HTML tokens.  The token gives what the link *is* (text, kind,
  resolved reference); the event gives *where* it is and its destination as written.

Everything is linear in the size of the input: line/column come from line-start tables and
`bisect`.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from typing import Any

import mistune
from mistune import list_parser as _list_parser
from mistune.block_parser import BlockParser
from mistune.core import BlockState
from mistune.helpers import parse_link_href, parse_link_title, unescape_char
from mistune.util import unikey

from drafterlint.markdown.model import (
    Document,
    Heading,
    Link,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    Suppression,
    Table,
    TableCell,
)
from drafterlint.markdown.slug import Slugger

__all__ = ["parse_document", "TooComplex", "MAX_MARKUP"]

_ALERTS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
_ALERT_RE = re.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.I)
_ANCHOR_ATTR_RE = re.compile(r"""\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
_HREF_RE = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
_A_TAG_RE = re.compile(r"<a\b[^>]*>", re.I)
_SUPPRESS_RE = re.compile(
    r"<!--\s*drafterlint-(disable-next-line|disable|enable)\b(.*?)-->\Z", re.S | re.I
)
_CODE_RE = re.compile(r"\bDL\d{3}\b", re.I)
_NUMBER_RE = re.compile(r"^\s*((?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?)(?=\s|$)\s*(.*)$", re.S)
_AUTOLINK_RE = re.compile(
    r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
)
_TAG_RE = re.compile(
    r"</?[A-Za-z][A-Za-z0-9\-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:\-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|<\?.*?\?>|<![A-Za-z][^>]*>|<!\[CDATA\[.*?\]\]>",
    re.S,
)
_URL_RE = re.compile(r"(?:https?://|www\.)[^\s<]*[^\s<?!.,:*_~'\")\]]", re.I)
_SIMPLE_DEST_RE = re.compile(r"[^\s\\&()<>\"'`]+")
_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


# --------------------------------------------------------------------------------------------
# mistune with positions


class _PosState(BlockState):
    """A block state that remembers where each block token starts, in original lines."""

    line_base: int
    orig: list[str]

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.line_base = 1
        self.orig = parent.orig if parent is not None else []
        self._starts: list[int] | None = None
        self._pending_base: int | None = None

    # -- positions ------------------------------------------------------------------------

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            src = self.src
            starts = [0]
            find = src.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._starts = starts
        return self._starts

    def line_index(self, off: int) -> int:
        return bisect_right(self.starts, off) - 1

    def orig_line(self, off: int) -> int:
        return self.line_base + self.line_index(off)

    def position(self, off: int) -> tuple[int, int]:
        """(line, column) in the original file of offset `off` of this state's source."""
        off = max(0, min(off, len(self.src)))
        i = self.line_index(off)
        line = self.line_base + i
        col = off - self.starts[i]
        return line, col + 1 + self._col_offset(i, line)

    def _col_offset(self, i: int, line: int) -> int:
        if self.parent is None:
            return 0
        if not 1 <= line <= len(self.orig):
            return 0
        starts = self.starts
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(self.src)
        child = self.src[starts[i] : end]
        o = self.orig[line - 1]
        if o.endswith(child):
            return len(o) - len(child)
        cs = child.rstrip()
        os_ = o.rstrip()
        if cs and os_.endswith(cs):
            return len(os_) - len(cs)
        # tabs were expanded: align the first non-blank characters
        stripped = child.lstrip()
        if stripped:
            k = o.find(stripped[:8])
            if k >= 0:
                return max(0, k - (len(child) - len(stripped)))
        return max(0, len(o) - len(child))

    def line_text(self, off: int) -> tuple[int, str]:
        i = self.line_index(off)
        starts = self.starts
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(self.src)
        return starts[i], self.src[starts[i] : end]

    # -- hooks ----------------------------------------------------------------------------

    def child_state(self, src: str, lazy_line_starts: Any = None) -> "_PosState":
        child = super().child_state(src, lazy_line_starts)
        assert isinstance(child, _PosState)
        if self._pending_base is not None:
            child.line_base = self._pending_base
            self._pending_base = None
        else:
            child.line_base = self.orig_line(self.cursor)
        return child

    def append_token(self, token: dict[str, Any]) -> None:
        if "_p" not in token and token["type"] not in ("list", "block_quote"):
            token["_p"] = (self, self.cursor)
        self.tokens.append(token)

    def add_paragraph(self, text: str) -> None:
        last = self.last_token()
        if last and last["type"] == "paragraph":
            last["text"] += text
        else:
            self.tokens.append({"type": "paragraph", "text": text, "_p": (self, self.cursor)})


class _PosBlockParser(BlockParser):
    state_cls = _PosState

    def parse_method(self, m: Any, state: Any) -> Any:
        n = len(state.tokens)
        end = super().parse_method(m, state)
        if end and len(state.tokens) > n:
            tok = state.tokens[-1]
            if tok["type"] in ("block_code", "block_html") and "_end" not in tok:
                tok["_end"] = end
        return end

    def _parse_indent_code_fast(self, state: Any) -> Any:
        n = len(state.tokens)
        end = super()._parse_indent_code_fast(state)
        if end is not None and len(state.tokens) > n:
            state.tokens[-1].setdefault("_end", end)
        return end

    def parse_list(self, m: Any, state: Any) -> Any:
        start = state.cursor
        ids = {id(t) for t in state.tokens}
        end = super().parse_list(m, state)
        for tok in reversed(state.tokens):
            if tok["type"] == "list" and "_p" not in tok and id(tok) not in ids:
                tok["_p"] = (state, start)
                break
        return end

    def parse_block_quote(self, m: Any, state: Any) -> int:
        start = state.cursor
        base = state.orig_line(start)
        text, end_pos, lazy_line_starts = self.extract_block_quote(m, state)
        saved = state._pending_base  # a list item being collected may be waiting for its child
        state._pending_base = base
        child = state.child_state(text, lazy_line_starts=lazy_line_starts)
        state._pending_base = saved
        child.line_base = base
        if state.depth() >= self.max_nested_level - 1:
            rules = [r for r in self.block_quote_rules if r not in ("block_quote", "list")]
        else:
            rules = self.block_quote_rules
        self.parse(child, rules)
        nlines = len(text.rstrip("\n").split("\n")) if text.strip() else 1
        token = {
            "type": "block_quote",
            "children": child.tokens,
            "_p": (state, start),
            "_child": child,
            "_end_line": base + nlines - 1,
        }
        if end_pos:
            state.prepend_token(token)
            return end_pos
        state.tokens.append(token)
        return state.cursor

    def parse_ref_link(self, m: Any, state: Any) -> Any:
        refs = state.env["ref_links"]
        key = unikey(m.group("reflink_1") or "")
        had = key in refs
        end = super().parse_ref_link(m, state)
        if end and key and not had and key in refs:
            href, _ = parse_link_href(state.src, m.end(), block=True)
            if href is not None:
                refs[key]["raw_url"] = html.unescape(unescape_char(href))
            refs[key]["_line"] = state.orig_line(m.start())
        return end


_orig_parse_list_item = _list_parser._parse_list_item


def _parse_list_item_with_position(block, bullet, item, token, state, rules):  # type: ignore[no-untyped-def]
    if isinstance(state, _PosState):
        # The cursor is at the start of the line after the item's marker line.
        marker_off = state.starts[state.line_index(max(0, state.cursor - 1))]
        if state.cursor >= len(state.src) and not state.src.endswith("\n"):
            marker_off = state.starts[-1]
        marker_line = state.orig_line(marker_off)
        base = marker_line
        if not item.text.strip():
            base += 1  # "-\n  foo": the item's content starts on the next line
        state._pending_base = base
        items = token.setdefault("_items", [])
        items.append((state, marker_off))
    return _orig_parse_list_item(block, bullet, item, token, state, rules)


_list_parser._parse_list_item = _parse_list_item_with_position


def _install_fast_delimiter_scan() -> None:
    """mistune's emphasis pass finds the next `*`/`_` one character at a time in Python; a
    regular expression search gives the same index, in C (a third of the inline time here)."""
    try:
        from mistune._inline import emphasis as _emphasis
    except ImportError:  # another mistune layout: keep its own
        return
    original = getattr(_emphasis, "_next_delimiter_run", None)
    if original is None:
        return
    search = re.compile(r"[*_]").search

    def _next_delimiter_run(text: str, pos: int) -> int:
        m = search(text, pos)
        return m.start() if m is not None else max(pos, len(text))

    if original("a*", 0) == _next_delimiter_run("a*", 0) == 1:
        _emphasis._next_delimiter_run = _next_delimiter_run


_install_fast_delimiter_scan()


def _make_markdown() -> mistune.Markdown:
    md = mistune.Markdown(renderer=None, block=_PosBlockParser(), inline=mistune.InlineParser())
    for name in (
        "table",
        "strikethrough",
        "url",
        "mistune.plugins.table.table_in_quote",
        "mistune.plugins.table.table_in_list",
    ):
        md.use(mistune.plugins.import_plugin(name))
    md.inline = _FastInline(md.inline)  # type: ignore[assignment]
    return md


_PLAIN_RE = re.compile(r"[\\`*_<>\[\]!&~$^=:]|  \n|www\.", re.I)


class _FastInline:
    """mistune's inline parser, with a fast path for text that holds no inline markup at all."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __call__(self, s: str, env: Any) -> list[dict[str, Any]]:
        if _PLAIN_RE.search(s) is None and "\\" not in s:
            out: list[dict[str, Any]] = []
            for n, line in enumerate(s.split("\n")):
                if n:
                    out.append({"type": "softbreak"})
                line = line.strip(" \t")
                if line:
                    out.append({"type": "text", "raw": line})
            return out
        return self.inner(s, env)


_MD: mistune.Markdown | None = None


def _markdown() -> mistune.Markdown:
    global _MD
    if _MD is None:
        _MD = _make_markdown()
    return _MD


# --------------------------------------------------------------------------------------------
# rendered text


def _render(children: list[dict[str, Any]] | None, *, images: bool = True) -> str:
    out: list[str] = []
    _render_into(children or (), out, images)
    return "".join(out)


def _render_into(children: Any, out: list[str], images: bool) -> None:
    for tok in children:
        t = tok.get("type")
        if t == "text":
            out.append(html.unescape(tok.get("raw", "")))
        elif t == "codespan":
            out.append(tok.get("raw", ""))
        elif t in ("softbreak", "linebreak"):
            out.append(" ")
        elif t == "inline_html" or t == "block_html":
            continue
        elif t == "image":
            if images:
                _render_into(tok.get("children") or (), out, images)
        elif "children" in tok:
            _render_into(tok["children"], out, images)
        elif "raw" in tok:
            out.append(tok["raw"])


# --------------------------------------------------------------------------------------------
# inline events


_LINKISH = frozenset({"link", "image", "inline_html"})


def _has_linkish(children: Any) -> bool:
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
    __slots__ = ("pos", "kind", "close", "image", "text")

    def __init__(self, pos: int, kind: str, close: int = -1, image: bool = False, text: str = ""):
        self.pos = pos
        self.kind = kind  # "lb" | "auto" | "url" | "tag"
        self.close = close
        self.image = image
        self.text = text


_SPECIAL_RE = re.compile(r"[\\`<\[\]]|(?<![^\s*_~(])(?:https?://|www\.)", re.I)


def _scan_inline(s: str, a: int, b: int) -> list[_Ev]:
    """Candidate link starts in s[a:b], in order: brackets, autolinks, bare URLs, HTML tags."""
    events: list[_Ev] = []
    stack: list[_Ev] = []
    n = b
    search = _SPECIAL_RE.search
    i = a
    while i < n:
        m = search(s, i, n)
        if m is None:
            break
        i = m.start()
        c = s[i]
        if c == "\\":
            i += 2 if i + 1 < n and s[i + 1] in _ASCII_PUNCT else 1
            continue
        if c == "`":
            j = i
            while j < n and s[j] == "`":
                j += 1
            run = j - i
            k = j
            found = -1
            while True:
                k = s.find("`" * run, k, n)
                if k < 0:
                    break
                e = k + run
                if (e >= n or s[e] != "`") and s[k - 1] != "`":
                    found = e
                    break
                while k < n and s[k] == "`":
                    k += 1
            i = found if found >= 0 else j
            continue
        if c == "<":
            if s.startswith("<!--", i):
                e = s.find("-->", i + 4, n)
                if e >= 0:
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
            stack.append(ev)
            i += 1
            continue
        if c == "]":
            if stack:
                stack.pop().close = i
            i += 1
            continue
        m2 = _URL_RE.match(s, i, n)
        if m2:
            events.append(_Ev(i, "url", text=m2.group(0)))
            i = m2.end()
            continue
        i += 1
    return events


def _norm_label(s: str) -> str:
    return unikey(s)


class _Aligner:
    """Walks mistune's inline tokens of one block and pins each link to its source event."""

    def __init__(self, st: _PosState, a: int, b: int, parser: "_Builder"):
        self.st = st
        self.s = st.src
        self.a = a
        self.b = b
        self.events = _scan_inline(st.src, a, b)
        self.k = 0
        self.p = parser
        self.links: list[Link] = []
        self.anchors: list[tuple[str, int]] = []

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
            ref = tok["ref"]
            if nxt == "[":
                j = s.find("]", after + 1, self.b)
                if j >= 0:
                    lab = s[after + 1 : j]
                    if lab.strip():
                        return _norm_label(lab) == ref
            start = ev.pos + (2 if ev.image else 1)
            return _norm_label(s[start : ev.close]) == ref
        return nxt == "("

    def _link(self, tok: dict[str, Any], image: bool) -> None:
        url = (tok.get("attrs") or {}).get("url", "")
        text = _render(tok.get("children"), images=True)
        auto_ok = not image and "ref" not in tok

        def ok(ev: _Ev) -> bool:
            if ev.kind == "lb":
                return ev.image == image and self._bracket_ok(ev, tok)
            if auto_ok and ev.kind in ("auto", "url"):
                return ev.text == text or html.unescape(ev.text) == text
            return False

        j = self._find(ok)
        if j < 0:
            j = self._find(lambda ev: ev.kind == "lb" and ev.image == image)
        st, s = self.st, self.s
        if j < 0:
            line, col = st.position(self.a)
            kind = "image" if image else ("reference" if "ref" in tok else "inline")
            self._add(text, self._ref_target(tok, url), line, col, kind)
            self._walk(tok.get("children") or ())
            return
        ev = self.events[j]
        line, col = st.position(ev.pos)
        if ev.kind in ("auto", "url"):
            target = html.unescape(ev.text)
            if ev.kind == "url" and target.lower().startswith("www."):
                target = "http://" + target
            elif ev.kind == "auto" and ":" not in target and "@" in target:
                target = "mailto:" + target
            self._add(text, target, line, col, "autolink")
            self.k = j + 1
            return
        # a bracket: children first, then skip past the destination / label
        self.k = j + 1
        end = ev.close + 1 if ev.close >= 0 else ev.pos + 1
        kind = "image" if image else ("reference" if "ref" in tok else "inline")
        target = url
        if "ref" in tok:
            target = self._ref_target(tok, url)
            if ev.close >= 0 and end < self.b and s[end] == "[":
                k2 = s.find("]", end, self.b)
                if k2 >= 0:
                    end = k2 + 1
        elif ev.close >= 0 and end < self.b and s[end] == "(":
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
            elif p < self.b and s[p] != ")":
                href, hpos = parse_link_href(s, p)
            else:
                href, hpos = "", p
            if simple:
                pass
            elif href is not None and hpos is not None:
                target = html.unescape(unescape_char(href))
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
        link_index = len(self.links)
        self._add(text, target, line, col, kind)
        self._walk(tok.get("children") or ())
        del link_index
        while self.k < len(self.events) and self.events[self.k].pos < end:
            self.k += 1

    def _ref_target(self, tok: dict[str, Any], url: str) -> str:
        ref = tok.get("ref")
        if ref:
            data = self.p.refs.get(ref) or {}
            return data.get("raw_url", url)
        return url

    def _html(self, tok: dict[str, Any]) -> None:
        raw = tok.get("raw", "")
        head = raw.split("\n", 1)[0]
        j = self._find(lambda ev: ev.kind == "tag" and self.s.startswith(head, ev.pos))
        if j < 0:
            j = self._find(lambda ev: ev.kind == "tag")
        if j >= 0:
            pos = self.events[j].pos
            self.k = j + 1
        else:
            pos = self.a
        line, col = self.st.position(pos)
        for m in _ANCHOR_ATTR_RE.finditer(raw):
            name = html.unescape(m.group(1) or m.group(2) or m.group(3) or "")
            if name:
                self.anchors.append((name, line))
        if re.match(r"<a\b", raw, re.I):
            hm = _HREF_RE.search(raw)
            if hm:
                target = html.unescape(hm.group(1) or hm.group(2) or hm.group(3) or "")
                self._add("", target, line, col, "html")

    def _add(self, text: str, target: str, line: int, col: int, kind: str) -> None:
        self.links.append(Link(text=text, target=target, line=line, column=col, kind=kind))


# --------------------------------------------------------------------------------------------
# the document builder


def _unescaped_pipes(line: str) -> list[int]:
    out = []
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c == "|":
            out.append(i)
        i += 1
    return out


class _Builder:
    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path
        self.lines = text.split("\n")
        self.headings: list[tuple[int, int, dict[str, Any], _PosState, int, list[str]]] = []
        self.head_raw: list[tuple[int, int, int, str, list[str]]] = []
        self.links: list[Link] = []
        self.lists: list[ListBlock] = []
        self.tables: list[Table] = []
        self.quotes: list[Quote] = []
        self.paragraphs: list[Paragraph] = []
        self.html_anchors: dict[str, int] = {}
        self.code_lines: set[int] = set()
        self.block_code_lines: set[int] = set()
        self.refs: dict[str, Any] = {}

    # -- inline helpers -------------------------------------------------------------------

    def _inline(self, st: _PosState, a: int, b: int, children: Any, heading: bool = False) -> list[Link]:
        if not _has_linkish(children):
            self._last_anchors = []
            return []
        al = _Aligner(st, a, b, self)
        links = al.run(children or [], in_heading=heading)
        if not heading:
            for name, line in al.anchors:
                self.html_anchors.setdefault(name, line)
        self._last_anchors = al.anchors
        return links

    # -- blocks ---------------------------------------------------------------------------

    def walk(self, tokens: list[dict[str, Any]], depth: int = 0) -> None:
        for tok in tokens:
            try:
                self.block(tok, depth)
            except RecursionError:
                continue

    def block(self, tok: dict[str, Any], list_depth: int) -> None:
        t = tok["type"]
        pos = tok.get("_p")
        if t == "heading":
            self.heading(tok)
        elif t in ("paragraph", "block_text"):
            self.paragraph(tok)
        elif t == "list":
            self.list_block(tok, list_depth)
        elif t == "block_quote":
            self.quote(tok, list_depth)
        elif t == "table":
            self.table(tok)
        elif t in ("block_code", "block_html") and pos:
            st, off = pos
            end = tok.get("_end")
            l1 = st.orig_line(off)
            if end is not None and end > off:
                l2 = st.orig_line(max(off, end - 1))
            else:
                raw = tok.get("raw", "")
                l2 = l1 + raw.count("\n") + (2 if tok.get("style") == "fenced" else 0)
            rng = range(l1, l2 + 1)
            self.code_lines.update(rng)
            if t == "block_code":
                self.block_code_lines.update(rng)
            else:
                raw = tok.get("raw", "")
                for m in _ANCHOR_ATTR_RE.finditer(raw):
                    name = html.unescape(m.group(1) or m.group(2) or m.group(3) or "")
                    if name:
                        self.html_anchors.setdefault(name, st.orig_line(off + m.start()))
                for m in _A_TAG_RE.finditer(raw):
                    hm = _HREF_RE.search(m.group(0))
                    if hm:
                        line, col = st.position(off + m.start())
                        target = html.unescape(hm.group(1) or hm.group(2) or hm.group(3) or "")
                        self.links.append(Link("", target, line, col, "html"))

    def _span(self, tok: dict[str, Any]) -> tuple[_PosState, int, int]:
        st, off = tok["_p"]
        text = tok.get("_text")
        if text is None:
            end = st.src.find("\n", off)
            end = len(st.src) if end < 0 else end
        else:
            end = off + len(text)
        return st, off, end

    def _render_block(self, tok: dict[str, Any]) -> list[dict[str, Any]]:
        return tok.get("children") or []

    def paragraph(self, tok: dict[str, Any]) -> tuple[str, list[Link]]:
        if "_p" not in tok:
            text = _render(tok.get("children"))
            return text, []
        st, a, b = self._span(tok)
        links = self._inline(st, a, b, tok.get("children"))
        self.links.extend(links)
        text = _render(tok.get("children"))
        first = a
        while first < b and st.src[first] in " \t\n":
            first += 1
        line, col = st.position(first)
        raw = st.src[a:b].rstrip("\n")
        end_line = st.orig_line(a) + raw.count("\n")
        self.paragraphs.append(Paragraph(text=text, line=line, column=col, end_line=end_line))
        return text, links

    def heading(self, tok: dict[str, Any]) -> None:
        if "_p" not in tok:
            return
        st, a, b = self._span(tok)
        if tok.get("style") == "setext":
            text_raw = tok.get("_text", "")
            b = a + len(text_raw)
            # the underline was consumed separately; the text is the paragraph's lines
        first = a
        while first < b and st.src[first] in " \t":
            first += 1
        line, col = st.position(first)
        links = self._inline(st, a, b, tok.get("children"), heading=True)
        self.links.extend(links)
        anchors = [name for name, _ in self._last_anchors]
        text = _render(tok.get("children"), images=False)
        level = (tok.get("attrs") or {}).get("level", 1)
        self.head_raw.append((line, col, level, text, anchors))

    def list_block(self, tok: dict[str, Any], depth: int) -> None:
        if "_p" not in tok:
            self.walk(self._children_of_list(tok), depth + 1)
            return
        st, off = tok["_p"]
        positions = tok.get("_items") or []
        items: list[ListItem] = []
        nested: list[dict[str, Any]] = []
        index = len(self.lists)
        self.lists.append(None)  # type: ignore[arg-type]  # keep document order: parent first
        for n, item in enumerate(tok.get("children") or []):
            if n < len(positions):
                ist, ioff = positions[n]
                _, line_text = ist.line_text(ioff)
                k = len(line_text) - len(line_text.lstrip(" \t"))
                line, col = ist.position(ioff + k)
            else:
                line, col = st.position(off)
            texts: list[str] = []
            links: list[Link] = []
            for child in item.get("children") or []:
                ct = child["type"]
                if ct in ("paragraph", "block_text"):
                    txt, lk = self.paragraph(child)
                    texts.append(txt)
                    links.extend(lk)
                elif ct == "list":
                    self.list_block(child, depth + 1)
                else:
                    self.block(child, depth + 1)
            items.append(ListItem(" ".join(texts), line, col, depth, tuple(links)))
        if items:
            bline, bcol = items[0].line, items[0].column
        else:
            bline, bcol = st.position(off)
        ordered = bool((tok.get("attrs") or {}).get("ordered"))
        self.lists[index] = ListBlock(tuple(items), bline, bcol, ordered, depth)
        del nested

    def _children_of_list(self, tok: dict[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for item in tok.get("children") or []:
            out.extend(item.get("children") or [])
        return out

    def quote(self, tok: dict[str, Any], depth: int) -> None:
        st, off = tok["_p"]
        _, lt = st.line_text(off)
        k = len(lt) - len(lt.lstrip(" \t"))
        line, col = st.position(off + k)
        index = len(self.quotes)
        self.quotes.append(None)  # type: ignore[arg-type]
        children = tok.get("children") or []
        alert = None
        texts: list[str] = []
        for n, child in enumerate(children):
            if child["type"] in ("paragraph", "block_text"):
                ch = child.get("children") or []
                if n == 0 and ch and ch[0].get("type") == "text":
                    m = _ALERT_RE.match(ch[0].get("raw", ""))
                    if m and (len(ch) == 1 or ch[1].get("type") in ("softbreak", "linebreak")):
                        alert = m.group(1).upper()
                txt, _ = self.paragraph(child)
                texts.append(txt)
            else:
                self.block(child, depth)
        text = " ".join(texts)
        if alert:
            text = text.split(" ", 1)[1] if " " in text else ""
        self.quotes[index] = Quote(alert, text, line, col, tok.get("_end_line", line))

    def table(self, tok: dict[str, Any]) -> None:
        if "_p" not in tok:
            return
        st, off = tok["_p"]
        _, lt = st.line_text(off)
        k = len(lt) - len(lt.lstrip(" \t"))
        tline, tcol = st.position(off + k)
        head: tuple[TableCell, ...] = ()
        rows: list[tuple[TableCell, ...]] = []
        row_off = off
        for part in tok.get("children") or []:
            if part["type"] == "table_head":
                head = self._row(st, row_off, part.get("children") or [])
                # skip the header line and the delimiter line
                row_off = self._next_line(st, self._next_line(st, row_off))
            elif part["type"] == "table_body":
                for row in part.get("children") or []:
                    rows.append(self._row(st, row_off, row.get("children") or []))
                    row_off = self._next_line(st, row_off)
        self.tables.append(Table(head, tuple(rows), tline, tcol))

    @staticmethod
    def _next_line(st: _PosState, off: int) -> int:
        j = st.src.find("\n", off)
        return len(st.src) if j < 0 else j + 1

    def _row(self, st: _PosState, off: int, cells: list[dict[str, Any]]) -> tuple[TableCell, ...]:
        start, line = st.line_text(off)
        pipes = _unescaped_pipes(line)
        stripped = line.strip()
        bounds = [-1] + pipes + [len(line)]
        segs = [(bounds[i] + 1, bounds[i + 1]) for i in range(len(bounds) - 1)]
        if stripped.startswith("|") and segs:
            segs = segs[1:]
        if stripped.endswith("|") and not stripped.endswith("\\|") and segs and len(stripped) > 1:
            segs = segs[:-1]
        out: list[TableCell] = []
        for n, cell in enumerate(cells):
            if n < len(segs):
                a, b = segs[n]
                a0 = a
                while a < b and line[a] in " \t":
                    a += 1
                if a >= b:
                    a = a0
                ca, cb = start + a, start + b
            else:
                ca, cb = start, start + len(line)
            links = self._inline(st, ca, cb, cell.get("children"))
            self.links.extend(links)
            cline, ccol = st.position(ca)
            out.append(TableCell(_render(cell.get("children")), cline, ccol, tuple(links)))
        return tuple(out)

    # -- whole document -------------------------------------------------------------------

    def finish_headings(self) -> list[Heading]:
        slugger = Slugger()
        raw = sorted(self.head_raw, key=lambda h: (h[0], h[1]))
        out: list[Heading] = []
        for line, col, level, text, anchors in raw:
            m = _NUMBER_RE.match(text)
            if m:
                number = m.group(1).rstrip(".")
                title = m.group(2).strip()
            else:
                number, title = None, text.strip()
            out.append(
                Heading(level, text, number, title, slugger.slug(text), tuple(anchors), line, col)
            )
        last = len(self.lines)
        if last > 1 and self.text.endswith("\n"):
            last -= 1  # the empty string after the final newline is not a line
        # A section ends before the next heading of the same or a higher level: one pass with
        # a stack of open sections (linear, whatever the order of levels).
        ends = [last] * len(out)
        open_: list[int] = []
        for i, h in enumerate(out):
            while open_ and out[open_[-1]].level >= h.level:
                ends[open_.pop()] = h.line - 1
            open_.append(i)
        return [_replace_end(h, max(h.line, end)) for h, end in zip(out, ends)]

    def suppressions(self) -> list[Suppression]:
        out: list[Suppression] = []
        open_: list[tuple[frozenset[str], int]] = []
        text = self.text
        starts = self.line_starts
        for start, end in _comments(text):
            m = _SUPPRESS_RE.match(text, start, end)
            if m is None:
                continue
            line = bisect_right(starts, start)
            if line in self.block_code_lines:
                continue
            verb = m.group(1).lower()
            codes = frozenset(c.upper() for c in _CODE_RE.findall(m.group(2)))
            end_line = bisect_right(starts, end - 1)
            if verb == "disable-next-line":
                out.append(Suppression(codes, end_line + 1, end_line + 1))
            elif verb == "disable":
                open_.append((codes, line))
            else:
                keep = []
                for c, start in open_:
                    if not codes or not c or codes & c or c == codes:
                        if c and codes and not codes >= c:
                            # partly re-enabled: the rest stays disabled
                            out.append(Suppression(c & codes, start, line))
                            keep.append((c - codes, start))
                        else:
                            out.append(Suppression(c, start, line))
                    else:
                        keep.append((c, start))
                open_ = keep
        for c, start in open_:
            out.append(Suppression(c, start, None))
        out.sort(key=lambda s: (s.start_line, s.end_line or 0))
        return out

    def comment_lines(self) -> None:
        starts = self.line_starts
        for start, end in _comments(self.text):
            l1 = bisect_right(starts, start)
            if l1 in self.block_code_lines:
                continue
            l2 = bisect_right(starts, end - 1)
            self.code_lines.update(range(l1, l2 + 1))


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


def _replace_end(h: Heading, end: int) -> Heading:
    from dataclasses import replace

    return replace(h, end_line=end)


def _keep_text(tokens: list[dict[str, Any]]) -> None:
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        if "text" in tok:
            tok["_text"] = tok["text"]
        ch = tok.get("children")
        if ch:
            stack.extend(ch)


def _normalise(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


# Inline parsing costs time and memory per markup opener (`[`, `` ` ``, `*`, `_`, `<`): about
# 20 us and 1 KB each. The real rules document has under 4 000 of them, a document 16 times its
# size about 50 000. Beyond this many, a document is refused (DL702) instead of parsed, so a
# hostile file cannot make a check take minutes or gigabytes.
MAX_MARKUP = 100_000


class TooComplex(ValueError):
    """The document holds more markup than `parse_document` agrees to parse."""


def markup_count(text: str) -> int:
    return sum(text.count(c) for c in "[`*_<")


def parse_document(text: str, path: str, *, max_markup: int = MAX_MARKUP) -> Document:
    """Parse `text` (BOM already removed) of the document at repository-relative `path`.

    Raises TooComplex for a document with more than `max_markup` markup openers.
    """
    n = markup_count(text)
    if n > max_markup:
        raise TooComplex(
            f"document has {n} link, code and emphasis markers, over the limit of {max_markup}; "
            "refusing to parse it"
        )
    text = _normalise(text)
    b = _Builder(text, path)
    b.line_starts = _line_starts(text)  # type: ignore[attr-defined]
    md = _markdown()
    state = _PosState()
    state.orig = b.lines
    state.line_base = 1
    state.process(text if text.endswith("\n") else text + "\n")
    try:
        md.block.parse(state)
        _keep_text(state.tokens)
        md.render_state(state)
    except RecursionError:
        pass
    b.refs = state.env.get("ref_links", {})
    b.walk(state.tokens)
    b.comment_lines()
    b.links.sort(key=lambda l: (l.line, l.column))
    doc = Document(
        path=path,
        text=text,
        headings=b.finish_headings(),
        links=b.links,
        lists=sorted((x for x in b.lists if x is not None), key=lambda x: (x.line, x.column)),
        tables=b.tables,
        quotes=sorted((q for q in b.quotes if q is not None), key=lambda q: (q.line, q.column)),
        paragraphs=sorted(b.paragraphs, key=lambda p: (p.line, p.column)),
        html_anchors=b.html_anchors,
        suppressions=b.suppressions(),
        code_lines=frozenset(b.code_lines),
    )
    return doc
