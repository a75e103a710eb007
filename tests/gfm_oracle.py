"""What github.com makes of a Markdown document, from cmark-gfm (the parser GitHub runs), for the
differential test of drafterlint's parser.

cmarkgfm's own cffi module exposes only a render-to-HTML subset of the cmark API, and HTML loses
inline source positions.  Its shared library exports the whole C API, so this walks the syntax
tree through ctypes: every heading, link and raw HTML node with its source position.

What is taken from the tree, and how github.com then treats it:

* headings: level, first line, and the text GitHub slugs (the heading's text content: text and
  code literals, a soft or hard line break is a newline, inline HTML tags dropped, images left
  out); the anchor is that text slugged, ``-1``/``-2`` for repeats, in document order;
* explicit anchors: ``id``/``name`` attributes that GitHub's sanitizer keeps (on the elements it
  lets through), read with a real HTML tokenizer from the raw HTML of the document in order, so
  that nothing inside a comment counts;
* links: every link and image node with its destination (cmark decodes entities and escapes and
  resolves references), its kind read from the source at its position (``[``/``![`` then ``(``
  for inline, otherwise reference; ``<`` or a bare URL for an autolink), and the ``href`` of each
  ``<a>`` start tag in raw HTML (kind "html").  cmark-gfm misplaces extended autolinks (``www.``,
  bare URLs, e-mail addresses) by a few columns; their column is taken from where their text
  occurs in the source line.
"""

from __future__ import annotations

import ctypes
import html
import html.parser
from dataclasses import dataclass, field

import cmarkgfm._cmark as _cm

from drafterlint.markdown.htmlattrs import (
    SANITIZER_ELEMENTS,  # GitHub's list, not a parse
)
from drafterlint.markdown.slug import Slugger

_EXTENSIONS = (b"table", b"autolink", b"strikethrough", b"tasklist")
_OPTIONS = _cm.lib.CMARK_OPT_SOURCEPOS | _cm.lib.CMARK_OPT_UNSAFE | _cm.lib.CMARK_OPT_FOOTNOTES


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(_cm.__file__)
    vp, cp, ci = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    sigs = {
        "cmark_gfm_core_extensions_ensure_registered": (None, []),
        "cmark_parser_new": (vp, [ci]),
        "cmark_find_syntax_extension": (vp, [cp]),
        "cmark_parser_attach_syntax_extension": (ci, [vp, vp]),
        "cmark_parser_feed": (None, [vp, cp, ctypes.c_size_t]),
        "cmark_parser_finish": (vp, [vp]),
        "cmark_parser_free": (None, [vp]),
        "cmark_node_free": (None, [vp]),
        "cmark_node_first_child": (vp, [vp]),
        "cmark_node_next": (vp, [vp]),
        "cmark_node_get_type_string": (cp, [vp]),
        "cmark_node_get_literal": (cp, [vp]),
        "cmark_node_get_url": (cp, [vp]),
        "cmark_node_get_heading_level": (ci, [vp]),
        "cmark_node_get_start_line": (ci, [vp]),
        "cmark_node_get_start_column": (ci, [vp]),
        "cmark_node_get_end_line": (ci, [vp]),
        "cmark_node_get_end_column": (ci, [vp]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    lib.cmark_gfm_core_extensions_ensure_registered()
    return lib


_LIB = _load()


@dataclass
class GfmView:
    headings: list[tuple[int, int, str, str]] = field(default_factory=list)  # line, level, text, slug
    anchors: set[str] = field(default_factory=set)
    links: list[tuple[int, int, str, str]] = field(default_factory=list)  # line, column, target, kind


class _Node:
    """One cmark node, read eagerly (the tree is freed once walked)."""

    __slots__ = ("type", "literal", "url", "level", "line", "col", "end_line", "end_col", "children")

    def __init__(self, ptr: int):
        lib = _LIB
        self.type = lib.cmark_node_get_type_string(ptr).decode()
        lit = lib.cmark_node_get_literal(ptr)
        self.literal = lit.decode("utf-8", "replace") if lit is not None else ""
        url = lib.cmark_node_get_url(ptr) if self.type in ("link", "image") else None
        self.url = url.decode("utf-8", "replace") if url is not None else ""
        self.level = lib.cmark_node_get_heading_level(ptr) if self.type == "heading" else 0
        self.line = lib.cmark_node_get_start_line(ptr)
        self.col = lib.cmark_node_get_start_column(ptr)  # 1-based, in bytes
        self.end_line = lib.cmark_node_get_end_line(ptr)
        self.end_col = lib.cmark_node_get_end_column(ptr)
        self.children: list[_Node] = []
        child = lib.cmark_node_first_child(ptr)
        while child:
            self.children.append(_Node(child))
            child = lib.cmark_node_next(child)


def parse_tree(text: str) -> _Node:
    data = text.encode("utf-8", "surrogatepass")
    parser = _LIB.cmark_parser_new(_OPTIONS)
    try:
        for name in _EXTENSIONS:
            _LIB.cmark_parser_attach_syntax_extension(parser, _LIB.cmark_find_syntax_extension(name))
        _LIB.cmark_parser_feed(parser, data, len(data))
        root = _LIB.cmark_parser_finish(parser)
    finally:
        _LIB.cmark_parser_free(parser)
    try:
        return _Node(root)
    finally:
        _LIB.cmark_node_free(root)


def _text_content(node: _Node, out: list[str]) -> None:
    for ch in node.children:
        t = ch.type
        if t in ("text", "code"):
            out.append(ch.literal)
        elif t in ("softbreak", "linebreak"):
            out.append("\n")
        elif t in ("html_inline", "image"):
            continue
        else:
            _text_content(ch, out)


_BLOCKS = frozenset({"paragraph", "heading", "table_cell", "table_row", "table", "item", "block_quote"})


class _AnchorCollector(html.parser.HTMLParser):
    """Explicit anchors and `<a href>` targets in the raw HTML of a document, fed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: set[str] = set()
        self.hrefs: list[tuple[int, str, str]] = []  # line in the fed text, start tag, href

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in SANITIZER_ELEMENTS:
            return
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.anchors.add(value)
            elif name == "href" and tag == "a" and value is not None:
                self.hrefs.append((self.getpos()[0], self.get_starttag_text() or "", value))

    handle_startendtag = handle_starttag


def _last_inline_line(node: _Node) -> int:
    last = 0
    for ch in node.children:
        last = max(last, ch.end_line, _last_inline_line(ch))
    return last or node.end_line


class _Walker:
    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.view = GfmView()
        self.slugger = Slugger()
        self.html = _AnchorCollector()
        self.cursor = (0, 0)  # where the last link started
        self.shift = 0  # lines of reference definitions taken out of the current paragraph

    def col(self, line: int, byte_col: int) -> int:
        """A 1-based character column from cmark's 1-based byte column."""
        src = self.lines[line - 1].encode("utf-8", "surrogatepass") if 0 < line <= len(self.lines) else b""
        return len(src[: byte_col - 1].decode("utf-8", "replace")) + 1

    def walk(self, node: _Node, block: _Node | None = None) -> None:
        t = node.type
        if t == "heading":
            parts: list[str] = []
            _text_content(node, parts)
            text = "".join(parts)
            self.view.headings.append((node.line, node.level, text, self.slugger.slug(text)))
        elif t in ("link", "image"):
            self.link(node, block or node)
        elif t in ("html_inline", "html_block"):
            self.raw_html(node)
        if node.line > 0 and node.type in _BLOCKS:
            block = node
        if t == "paragraph":
            # cmark-gfm counts a paragraph's inline lines from its first line even when that
            # line was a reference definition it took out: put them back where they are
            self.shift = max(0, node.end_line - _last_inline_line(node))
        for ch in node.children:
            self.walk(ch, block)
        if t == "paragraph":
            self.shift = 0

    def link(self, node: _Node, block: _Node) -> None:
        line = node.line + self.shift if node.line > 0 else node.line
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        col = self.col(line, node.col) if line > 0 else 1
        shown = "".join(ch.literal for ch in node.children if ch.type == "text")
        if node.type == "image":
            kind, col = "image", self._opener(src, col, "![", near=True)
        elif (at := self._opener(src, col, "<")) and src.startswith("<" + shown, at - 1):
            kind, col = "autolink", at
        elif (at := self._opener(src, col, "[")) and src.startswith("[", at - 1):
            kind = "inline" if self._followed_by_paren(line, at) else "reference"
            col = at
        elif node.url in (shown, "http://" + shown, "mailto:" + shown):
            kind = "autolink"  # an extended autolink: cmark-gfm misplaces these
            line, col = self._autolink_position(node, block)
        else:
            col = self._opener(src, col, "[", near=True)
            kind = "inline" if self._followed_by_paren(line, col) else "reference"
        self.view.links.append((line, col, node.url, kind))
        self.cursor = (line, col)

    @staticmethod
    def _opener(src: str, col: int, opener: str, near: bool = False) -> int:
        """The column of the `opener` a node starts with.  cmark-gfm counts inline columns on a
        paragraph's continuation lines without their leading blanks, one too far on lazy lines
        inside a container, and off by the indentation inside a footnote definition (`near`);
        otherwise its column is right."""
        lead = len(src) - len(src.lstrip(" \t"))
        for c in (col, col + lead, col - 1):
            if c >= 1 and src.startswith(opener, c - 1):
                return c
        if near:
            found = [c for c in range(max(1, col - 8), col + 9) if src.startswith(opener, c - 1)]
            if found:
                return min(found, key=lambda c: abs(c - col))
        return col

    def _followed_by_paren(self, line: int, col: int) -> bool:
        """Whether the `[` at (line, col) closes with `](`: an inline link, not a reference."""
        depth = 0
        for n in range(line, min(line + 8, len(self.lines) + 1)):
            src = self.lines[n - 1]
            i = col - 1 if n == line else 0
            while i < len(src):
                c = src[i]
                if c == "\\":
                    i += 2
                    continue
                if c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                    if depth == 0:
                        return src[i + 1 : i + 2] == "("
                i += 1
        return False

    def _autolink_position(self, node: _Node, block: _Node) -> tuple[int, int]:
        """Where an autolink's text starts (its `<` when it has one).  cmark-gfm's own position
        for these is unreliable (off by some columns, or none inside table cells), so the text
        is searched for in the block's source, after the previous link."""
        shown = "".join(ch.literal for ch in node.children if ch.type == "text")
        line, start = block.line + self.shift, 0
        if self.cursor[0] >= line:
            line, start = self.cursor  # 1-based column of the last link: search after it
        last = max(block.end_line, line)
        while shown and 0 < line <= min(last, len(self.lines)):
            src = self.lines[line - 1]
            k = src.find(shown, start)
            if k >= 0:
                if k > 0 and src[k - 1] == "<":
                    k -= 1
                return line, k + 1
            line, start = line + 1, 0
        return node.line, self.col(node.line, node.col)

    def raw_html(self, node: _Node) -> None:
        n = len(self.html.hrefs)
        first = self.html.getpos()[0]
        self.html.feed(node.literal)
        for at, tag, href in self.html.hrefs[n:]:
            line = node.line + at - first
            src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            head = tag.split("\n", 1)[0]
            k = src.find(head, max(0, self.col(node.line, node.col) - 9) if at == first else 0)
            if k < 0:
                k = src.find(head)
            col = k + 1 if k >= 0 else self.col(node.line, node.col)
            self.view.links.append((line, col, href, "html"))

    def finish(self) -> GfmView:
        self.html.close()
        self.view.anchors = set(self.html.anchors)
        self.view.links.sort(key=lambda x: (x[0], x[1]))
        return self.view


def gfm_view(text: str) -> GfmView:
    """Headings, explicit anchors and links of `text` as github.com renders them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    w = _Walker(text)
    w.walk(parse_tree(text))
    return w.finish()


__all__ = ["GfmView", "gfm_view", "parse_tree"]
