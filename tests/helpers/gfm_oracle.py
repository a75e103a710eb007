"""What github.com makes of a Markdown document, from cmark-gfm (the parser GitHub runs), for the
differential test of drafterlint's parser.

cmarkgfm's own cffi module exposes only a render-to-HTML subset of the cmark API, and HTML loses
inline source positions.  Its shared library exports the whole C API, so this walks the syntax
tree through ctypes: every heading, link and raw HTML node with its source position.

What is taken from the tree, and how github.com then treats it:

* headings: level, first line, and the text GitHub slugs (the heading's text content: text and
  code literals, a footnote reference's number, a soft or hard line break is a newline, inline
  HTML tags dropped, images left out); the anchor is that text slugged, ``-1``/``-2`` for repeats, in document order;
* explicit anchors: ``id``/``name`` attributes that GitHub's sanitizer keeps (on the elements it
  lets through), read with an HTML5 tokenizer (html5lib) from the raw HTML of the document in
  order, so that nothing inside a comment counts;
* links: every link and image node with its destination (cmark decodes entities and escapes and
  resolves references), its kind read from the source (``[``/``![`` then ``(`` for inline,
  otherwise reference; ``<`` or a bare URL for an autolink), and the ``href`` of each ``<a>``
  start tag in raw HTML (kind "html").

cmark-gfm's inline source positions are loose, and the oracle corrects only these, each
checked against the source text: on a paragraph's continuation lines columns count from the
paragraph's first column (a lazy line's are too far, an indented line's too near); an
autolink ``<…>`` node is placed at the text before it (its text node is placed right);
extended autolinks (``www.``, bare URLs, e-mail addresses) have no position or a wrong one,
so they are found by their text after the previous link.  A link whose text looks like a URL
is a bracket link only where a ``[`` holding that text is; where several ``[`` are candidates,
the one holding the link's text wins.  A paragraph that starts with reference definitions
counts its inline lines from the first definition.
"""

from __future__ import annotations

import bisect
import ctypes
import html
import re
from dataclasses import dataclass, field

import cmarkgfm._cmark as _cm
from html5lib._tokenizer import HTMLTokenizer
from html5lib.constants import tokenTypes

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
        "cmark_node_get_type": (ci, [vp]),
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


# cmark-gfm's CMARK_NODE_FOOTNOTE_REFERENCE and CMARK_NODE_FOOTNOTE_DEFINITION
_FOOTNOTE_TYPES = {0xC00B: "footnote_reference", 0x800B: "footnote_definition"}


class _Node:
    """One cmark node, read eagerly (the tree is freed once walked)."""

    __slots__ = ("type", "literal", "url", "level", "line", "col", "end_line", "end_col", "children")

    def __init__(self, ptr: int):
        lib = _LIB
        self.type = lib.cmark_node_get_type_string(ptr).decode()
        if self.type == "<unknown>":  # the footnote nodes have no name in cmark-gfm's API
            self.type = _FOOTNOTE_TYPES.get(lib.cmark_node_get_type(ptr), self.type)
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
        if t in ("text", "code", "footnote_reference"):
            # a footnote reference renders as its number (`<sup><a …>1</a></sup>`), which is
            # text of the heading for GitHub's anchor (html-pipeline's TOC filter: node.text)
            out.append(ch.literal)
        elif t in ("softbreak", "linebreak"):
            out.append("\n")
        elif t in ("html_inline", "image"):
            continue
        else:
            _text_content(ch, out)


_PARSE_ERROR = tokenTypes["ParseError"]
_START_TAGS = (tokenTypes["StartTag"], tokenTypes["EmptyTag"])
_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

_BLOCKS = frozenset({"paragraph", "heading", "table_cell", "table_row", "table", "item", "block_quote"})


class _HtmlCollector:
    """Explicit anchors and `<a href>` targets in the raw HTML of a document.

    GitHub's sanitizer reads the rendered page with an HTML5 parser, so the raw HTML nodes are
    read, in document order and as one text, by html5lib's tokenizer (the WHATWG rules for
    comments such as `<!-->`, bogus comments such as `<!x …>`, unquoted attribute values such
    as `2"`, tag names such as `r<div`): the same answer on every Python version, unlike
    html.parser's."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.nodes: list[tuple[int, int, list[int], _Node]] = []  # offset, line, columns it may start at, node

    def add(self, node: _Node, line: int, cols: list[int]) -> None:
        self.nodes.append((self.size, line, cols, node))
        self.parts.append(node.literal)
        self.size += len(node.literal)

    def read(self) -> tuple[set[str], list[tuple[int, str, str]]]:
        """The anchors, and (offset in the joined text, tag text, href) of each `<a href>`."""
        text = "".join(self.parts)
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        tok = HTMLTokenizer(text)
        anchors: set[str] = set()
        hrefs: list[tuple[int, str, str]] = []
        self.headings: list[tuple[int, int, str]] = []  # offset, level, text
        heading: list[str] | None = None
        start = 0  # a token starts where the one before it (parse errors aside) ended
        for token in tok:
            kind = token["type"]
            if kind == _PARSE_ERROR:
                continue
            line, col0 = tok.stream.position()
            end = starts[line - 1] + col0 if line - 1 < len(starts) else len(text)
            # an h1–h6 element of an HTML block: github.com's anchor filter gives it an anchor
            # from its text (the characters up to its end tag, in the same block)
            if heading is not None and (
                kind == tokenTypes["EndTag"] and token["name"] == f"h{self.headings[-1][1]}"
                or self._node_at(start) is not self._node_at(self.headings[-1][0])
            ):
                self.headings[-1] = (*self.headings[-1][:2], "".join(heading).strip())
                heading = None
            if heading is not None and kind in (tokenTypes["Characters"], tokenTypes["SpaceCharacters"]):
                heading.append(token["data"])
            if kind in _START_TAGS and token["name"] in _HEADING_TAGS and self._node_at(start).type == "html_block":
                if heading is not None:
                    self.headings[-1] = (*self.headings[-1][:2], "".join(heading).strip())
                self.headings.append((start, int(token["name"][1]), ""))
                heading = []
            if kind in _START_TAGS and token["name"] in SANITIZER_ELEMENTS:
                attrs = token["data"]
                for name in ("id", "name"):
                    if attrs.get(name):
                        anchors.add(attrs[name])
                if token["name"] == "a" and "href" in attrs:
                    hrefs.append((start, text[start:end], attrs["href"]))
            start = end
        if heading is not None:
            self.headings[-1] = (*self.headings[-1][:2], "".join(heading).strip())
        return anchors, hrefs

    def _node_at(self, offset: int) -> _Node:
        k = bisect.bisect_right([off for off, _, _, _ in self.nodes], offset) - 1
        return self.nodes[max(0, k)][3]

    def heading_lines(self) -> list[tuple[int, int, str]]:
        """(line, level, text) of each raw HTML heading found by `read`."""
        out = []
        for at, level, text in self.headings:
            k = bisect.bisect_right([off for off, _, _, _ in self.nodes], at) - 1
            off, line, _, node = self.nodes[k]
            out.append((line + node.literal[: at - off].count("\n"), level, text))
        return out


def _line_breaks(node: _Node) -> int:
    """The line breaks in a link's or image's text (raw HTML in it may hold some too)."""
    count = 0
    stack = list(node.children)
    while stack:
        ch = stack.pop()
        if ch.type in ("softbreak", "linebreak"):
            count += 1
        elif ch.type == "html_inline":
            count += ch.literal.count("\n")
        stack.extend(ch.children)
    return count


def _last_inline_line(node: _Node) -> int:
    """The line, as cmark-gfm counts a paragraph's inline lines, of its last inline content:
    the last node with a position, one more for each line break after it (the nodes after a
    break, text among them, often have none)."""
    last = breaks = 0
    stack = list(reversed(node.children))
    while stack:
        ch = stack.pop()
        if ch.type in ("softbreak", "linebreak"):
            breaks += 1
        elif ch.line > 0 and ch.end_line >= last:
            last, breaks = ch.end_line, 0
        stack.extend(reversed(ch.children))
    return last + breaks if last else node.end_line


def _may_start_autolink(before: str, shown: str) -> bool:
    """Whether an extended autolink showing `shown` may start after the character `before`
    (cmark-gfm's autolink extension: `www.` after a blank or one of `*_~(`, a URL's scheme after
    no ASCII letter, an address after no character an address may hold)."""
    if shown.startswith("www."):
        return before in " \t\n\v\f\r*_~("
    if "://" in shown:
        return not (before.isascii() and before.isalpha())
    return not ((before.isascii() and before.isalnum()) or before in ".+-_")


def _destination(rest: str) -> str:
    """The destination an inline link's `(` is followed by, as cmark-gfm scans it: `<…>`, or
    up to a blank or a `)` outside parentheses (an open `(` may stay open: `[r](a(b "t")`)."""
    if rest.startswith("<"):
        e = rest.find(">")
        return rest[1:e] if e > 0 else ""
    depth = i = 0
    while i < len(rest) and not rest[i].isspace():
        c = rest[i]
        if c == "\\":
            i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return rest[:i]


def _autolike(shown: str) -> tuple[str, ...]:
    """The destinations of an autolink that shows `shown`."""
    return (shown, "http://" + shown, "mailto:" + shown)


def _first_literal(node: _Node) -> _Node | None:
    """The first text or code span under `node` that has a position (not an autolink's text,
    which cmark-gfm places loosely)."""
    for ch in node.children:
        if ch.type in ("text", "code") and ch.line > 0 and ch.literal:
            return ch
        if ch.type == "link" and len(ch.children) == 1 and ch.url in _autolike(ch.children[0].literal):
            continue
        found = _first_literal(ch)
        if found is not None:
            return found
    return None


# CommonMark's autolink `<scheme:…>` / `<address@domain>`
_CORE_AUTOLINK_RE = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
)
# the start of a reference definition, after the line's container prefix
_DEFINITION_RE = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?\[(?:[^\]\\\n]|\\.)*\]:")
# a setext heading's underline, after the line's container prefix
_UNDERLINE_RE = re.compile(r"[ \t>]*(?:=+|-+)[ \t]*$")
# what differs between a link's rendered text and its source text: markers, escapes, tags, images
_LOOSE_RE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<[^>\n]*>|[\s\\*_~`]")


def _plain(text: str) -> str:
    """Text without what a text node's literal loses of the source: blanks, escapes, markers."""
    return re.sub(r"[\s\\*_~`]", "", html.unescape(text))


def _loose(text: str) -> str:
    return _LOOSE_RE.sub("", html.unescape(text))


class _Walker:
    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.view = GfmView()
        self.slugger = Slugger()
        self.html = _HtmlCollector()
        self.cursor = (0, 0)  # line and 0-based index where the source after the last link starts
        self.shift = 0  # lines of reference definitions taken out of the current paragraph
        self.para = (0, 1)  # first line (as cmark-gfm counts) and first column of the current paragraph
        self.containers: list[_Node] = []  # the quotes and items around the node walked
        self.para_containers: list[_Node] = []  # ... around the current paragraph

    def src(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def guesses(self, line: int, col: int) -> list[int]:
        """Where an inline node that cmark-gfm puts at `col` of `line` may start.  On a
        paragraph's continuation line cmark-gfm counts columns from the paragraph's first
        column, as if the line had the first line's prefix: without its own container prefix
        and leading blanks (too far on a lazy line, too near on an indented one).  On a lazy
        line the blanks after the prefix of the containers it still matches are counted (its
        text is taken from the end of that prefix, `> a⏎  <x>` puts the `<` at column 5, not 3),
        so each shorter part of the line's `>`-and-blank prefix is a guess too (last: each is
        checked against the source by the caller)."""
        src = self.src(line)
        lead = len(src) - len(src.lstrip(" \t"))
        out = [col, col + lead, col - 1]
        first, start = self.para
        if line > first:
            prefix = len(src) - len(src.lstrip(" \t>"))
            base = col - start + 1
            out = [base + prefix, *out, *(base + k for k in range(prefix - 1, -1, -1))]
            lazy = self._lazy_prefix(src)
            if lazy is not None:
                out.insert(0, base + lazy)
        return out

    def _lazy_prefix(self, src: str) -> int | None:
        """How much of `src` the containers of the current paragraph match, if not all of
        them (a lazy line: cmark-gfm counts its columns from there, its blanks included), else
        None.  A quote takes up to three blanks, `>` and one blank; an item the blanks up to its
        content's column."""
        p = 0
        for box in self.para_containers:
            if box.type == "block_quote":
                k = p + len(src[p : p + 3]) - len(src[p : p + 3].lstrip(" "))
                if not src.startswith(">", k):
                    return p
                p = k + 1 + src.startswith(" ", k + 1)
            elif box.children:
                want = box.children[0].col - 1
                if want <= p or src[p:want].strip(" ") or len(src) < want:
                    return p
                p = want
        return None

    def col(self, line: int, byte_col: int) -> int:
        """A 1-based character column from cmark's 1-based byte column."""
        src = self.src(line).encode("utf-8", "surrogatepass")
        return len(src[: byte_col - 1].decode("utf-8", "replace")) + 1

    def walk(self, node: _Node, block: _Node | None = None) -> None:
        t = node.type
        if t == "paragraph":
            # cmark-gfm counts a paragraph's inline lines from its first line even when that
            # line was a reference definition it took out: put them back where they are
            self.shift = 0
            if _DEFINITION_RE.match(self.src(node.line)):
                # (else no definition is there: a link's end, `[a](⏎b)`, is placed loosely; a
                # link's loose end may also make too many lines look taken out: cmark-gfm says
                # which of the first lines are definitions and nothing else)
                most = max(0, node.end_line - _last_inline_line(node))
                self.shift = next(n for n in range(most, -1, -1) if self._only_definitions(node.line, n))
        elif t == "heading" and node.end_line > node.line:
            self.shift = self._setext_shift(node) if _DEFINITION_RE.match(self.src(node.line)) else 0
        if t == "heading":
            parts: list[str] = []
            _text_content(node, parts)
            text = "".join(parts)
            self.view.headings.append((node.line + self.shift, node.level, text, self.slugger.slug(text)))
        elif t in ("link", "image"):
            self.link(node, block or node)
        elif t in ("html_inline", "html_block"):
            self.raw_html(node)
        if node.line > 0 and node.type in _BLOCKS:
            block = node
        if t in ("paragraph", "heading"):
            self.para_containers = list(self.containers)
            # (the line after definitions cmark-gfm took out is a continuation line for it: its
            # columns count from the paragraph's first column, its own leading blanks left out)
            self.para = (node.line, self.col(node.line, node.col))
        if t == "image":
            return  # its children are its alt text, plain text on the page: no link or tag
        if t in ("block_quote", "item"):
            self.containers.append(node)
        for ch in node.children:
            self.walk(ch, block)
        if t in ("block_quote", "item"):
            self.containers.pop()
        if t in ("paragraph", "heading"):
            self.shift = 0

    def _only_definitions(self, line: int, count: int) -> bool:
        """Whether the `count` lines from `line` hold reference definitions and nothing else,
        as cmark-gfm reads them alone (no text, code or HTML on the page)."""
        if count <= 0:
            return True
        tree = parse_tree("\n".join(self.lines[line - 1 : line - 1 + count]))
        stack = [tree]
        while stack:
            n = stack.pop()
            if n.type in ("text", "code", "html_inline", "html_block", "code_block"):
                return False
            stack.extend(n.children)
        return True

    def _starts_near(self, node: _Node, line: int, block: _Node) -> bool:
        """Whether `line` has `node`'s text where cmark-gfm's column puts it (give or take the
        line's container prefix and blanks, which it does not count on a continuation line,
        counting from the block's first column instead)."""
        src = self.src(line)
        want = _plain(node.literal)[:12]
        col = node.col  # (in bytes, as cmark-gfm counts: the line may be shorter than that)
        lead = len(src) - len(src.lstrip(" \t>"))
        cols = (col, col + lead, col - block.col + 1 + lead)
        return any(c >= 1 and _plain(src[c - 1 :]).startswith(want) for c in cols)

    def _setext_shift(self, node: _Node) -> int:
        """The lines of reference definitions at the start of a setext heading, which cmark-gfm
        counts as the heading's: its text ends on the line above its underline.  cmark-gfm ends
        a setext heading on the line that closed it, the one after the underline, or on the
        underline itself at the end of the document; of the two, the underline is the one
        that looks like one and puts the heading's first text where the source has it."""
        last = _last_inline_line(node)
        first = _first_literal(node)
        unders = [n for n in (node.end_line - 1, node.end_line) if n > node.line and _UNDERLINE_RE.match(self.src(n))]
        for under in unders:
            shift = max(0, under - 1 - last)
            # (the literal has no escapes, entities or markers: compared without them)
            near = first is None or self._starts_near(first, first.line + shift, node)
            if near and self._only_definitions(node.line, shift):
                return shift
        return max(0, (unders[0] if unders else node.end_line) - 1 - last)

    def link(self, node: _Node, block: _Node) -> None:
        # cmark-gfm gives a link the line of its `]` (and the column of its `[`): its opener is
        # as many lines up as its text has line breaks
        line = node.line + self.shift - _line_breaks(node) if node.line > 0 else node.line
        col = self.col(line, node.col) if line > 0 else 1
        parts: list[str] = []
        _text_content(node, parts)
        text = "".join(parts)
        shown = node.children[0].literal if len(node.children) == 1 and node.children[0].type == "text" else ""
        autolike = node.type == "link" and shown and node.url in (shown, "http://" + shown, "mailto:" + shown)
        end: tuple[int, int] | None = None
        if node.type == "image":
            kind, col = "image", self._opener(line, col, "![", text, near=True)
        elif autolike and (at := self._core_autolink(node.children[0], shown)):
            kind, (line, col) = "autolink", at
            end = (line, col + len(shown) + 1)
        elif autolike and not self._opener(line, col, "[", text, near=True, strict=True):
            # an extended autolink (www., a bare URL or e-mail address): cmark-gfm misplaces
            # these, and the text is `[`-free of any bracket of its own
            kind = "autolink"
            line, col = self._autolink_position(node, block, shown)
            end = (line, col - 1 + len(shown))
        else:
            col = self._opener(line, col, "[", text, near=True)
            kind = "inline" if self._followed_by_paren(line, col, node.url) else "reference"
        self.view.links.append((line, col, node.url, kind))
        self.cursor = end or self._link_end(line, col + (node.type == "image"))

    def _core_autolink(self, text: _Node, shown: str) -> tuple[int, int] | None:
        """Where a CommonMark autolink `<…>` showing `shown` starts: its text node (unlike the
        link node) is placed right, one column after the `<`."""
        if text.line <= 0:
            return None
        line = text.line + self.shift
        src = self.src(line)
        for c in self.guesses(line, self.col(line, text.col) - 1):
            m = _CORE_AUTOLINK_RE.match(src, c - 1) if c >= 1 else None
            if m and html.unescape(m.group(0)[1:-1]) == shown:
                return line, c
        # none where cmark-gfm's column points (a lazy line after a definition in a list item:
        # the paragraph is counted from the definition's line): the one autolink on the line
        # that shows this text, if only one does and no link is placed there yet (an extended
        # autolink of the same text comes here too)
        found = [m.start() + 1 for m in _CORE_AUTOLINK_RE.finditer(src) if html.unescape(m.group(0)[1:-1]) == shown]
        taken = {(x[0], x[1]) for x in self.view.links}
        alone = src.count(shown) == 1  # else the text may be an extended autolink's
        return (line, found[0]) if len(found) == 1 and alone and (line, found[0]) not in taken else None

    def _opener(self, line: int, col: int, opener: str, text: str, *, near: bool = False,
                strict: bool = False) -> int:
        """The column of the `opener` a link or image starts with, 0 if none.  cmark-gfm
        counts inline columns on a paragraph's continuation lines without their leading blanks,
        one too far on lazy lines inside a container, and off by the indentation inside a
        footnote definition (`near`); otherwise its column is right.  Of the candidates, the
        one whose bracketed text is the link's text wins; `strict` accepts no other."""
        src = self.src(line)
        found = [c for c in self.guesses(line, col) if c >= 1 and src.startswith(opener, c - 1)]
        around = sorted(range(max(1, col - 8), col + 9), key=lambda c: abs(c - col)) if near else []
        around = [c for c in around if c not in found and src.startswith(opener, c - 1)]
        want = _loose(text)
        for c in found + around:
            b = self._bracket(line, c + len(opener) - 2)
            if b is not None and _loose(b[0]) == want:
                return c
        if strict:
            return 0
        return (found + around + [col])[0]

    def _bracket(self, line: int, i: int) -> tuple[str, int, int] | None:
        """(text, line, index after the `]`) of the bracket that opens at index `i` of `line`."""
        depth, out = 0, []
        for n in range(line, min(line + 8, len(self.lines) + 1)):
            src = self.lines[n - 1]
            k = i if n == line else 0
            while k < len(src):
                c = src[k]
                if c == "\\":
                    out.append(src[k : k + 2])
                    k += 2
                    continue
                if c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                    if depth == 0:
                        return "".join(out)[1:], n, k + 1
                out.append(c)
                k += 1
            out.append("\n")
        return None

    def _followed_by_paren(self, line: int, col: int, url: str) -> bool:
        """Whether the `[` at (line, col) closes with `](…)` that gives the link its `url`: an
        inline link, not a reference (`[r](` with no `)` to close it is the reference `[r]` and
        a `(`; so is `[r]( #⏎x)`, whose `x` is no title)."""
        b = self._bracket(line, col - 1)
        if b is None or self.src(b[1])[b[2] : b[2] + 1] != "(":
            return False
        text = "\n".join([self.src(b[1])[b[2] + 1 :], *self.lines[b[1] : b[1] + 8]])
        text = text.split("\n\n", 1)[0]  # a blank line ends the paragraph
        rest = text.lstrip()
        dest = _destination(rest)
        if re.sub(r"\\(.)", r"\1", html.unescape(dest)) != url:
            return False
        after = rest[len(dest) + (2 if rest.startswith("<") else 0) :]
        return re.match(r"""\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))?\s*\)""", after) is not None

    def _link_end(self, line: int, col: int) -> tuple[int, int]:
        """Where the source after the bracket link at (line, col) starts: past its `]`, and past
        its `(destination)` too (bare URLs are searched for after it)."""
        b = self._bracket(line, col - 1)
        if b is None:
            return line, col
        _, n, k = b
        src = self.src(n)
        if src[k : k + 1] == "(":
            depth = 0
            while k < len(src):
                if src[k] == "\\":
                    k += 1
                elif src[k] == "(":
                    depth += 1
                elif src[k] == ")":
                    depth -= 1
                    if depth == 0:
                        return n, k + 1
                k += 1
        return n, k

    def _autolink_position(self, node: _Node, block: _Node, shown: str) -> tuple[int, int]:
        """Where an extended autolink's text starts.  cmark-gfm's own position for these is
        unreliable (off by some columns, or none inside table cells), so the text is searched
        for in the block's source, after the previous link.  A `<` before it is no part of it
        (`<http://a` links `http://a`)."""
        line, start = block.line + self.shift, 0
        last = max(block.end_line, line)
        if line <= self.cursor[0] <= last:  # (a footnote's block comes last, after later links)
            line, start = self.cursor
        cell = block.type.startswith("table")
        while 0 < line <= min(last, len(self.lines)):
            src = self.lines[line - 1]
            k = src.find(shown, start)
            # a table cell's text starts after its `|`: nothing is before it
            while k > 0 and not (_may_start_autolink(src[k - 1], shown) or (cell and src[k - 1] == "|")):
                k = src.find(shown, k + 1)
            if k >= 0:
                return line, k + 1
            line, start = line + 1, 0
        return node.line, self.col(node.line, node.col)

    def raw_html(self, node: _Node) -> None:
        line = node.line + (self.shift if node.type == "html_inline" else 0)
        col = self.col(line, node.col)
        self.html.add(node, line, self.guesses(line, col) if node.type == "html_inline" else [col])
        end_line = line + node.literal.count("\n")
        if node.type == "html_inline" and line > 0 and end_line <= len(self.lines):
            # a bare URL after it is searched for after it: the same text inside it (a comment)
            # is no link
            first, _, rest = node.literal.partition("\n")
            start = self.cursor[1] if self.cursor[0] == line else 0
            k = self.lines[line - 1].find(first, start)
            last = rest.rpartition("\n")[2]
            k2 = k if not rest else self.lines[end_line - 1].find(last)
            if k >= 0 and k2 >= 0 and (line, k) >= self.cursor:
                self.cursor = (end_line, k2 + len(last if rest else first))

    def _html_links(self, hrefs: list[tuple[int, str, str]]) -> None:
        offsets = [off for off, _, _, _ in self.html.nodes]
        for at, tag, href in hrefs:
            off, line, cols, node = self.html.nodes[bisect.bisect_right(offsets, at) - 1]
            col = cols[0]
            before = node.literal[: at - off]
            line += before.count("\n")
            src = self.src(line)
            head = tag.split("\n", 1)[0]
            if "\n" in before:
                p = len(before) - before.rindex("\n") - 1
                lead = len(src) - len(src.lstrip(" \t>"))
                # a block's later lines lose their container prefix in its literal
                guesses = [p + lead, p, 0]
            else:
                p = col - 1 + len(before)
                guesses = [c - 1 + len(before) for c in cols]
            k = next((g for g in guesses if g >= 0 and src.startswith(head, g)), -1)
            if k < 0:
                k = src.find(head, max(0, p - 9))
            if k < 0:
                k = src.find(head)
            self.view.links.append((line, k + 1 if k >= 0 else col, href, "html"))

    def finish(self) -> GfmView:
        anchors, hrefs = self.html.read()
        raw = self.html.heading_lines()
        if raw:
            # raw HTML headings take their anchors in document order with the Markdown ones
            merged = sorted(
                [(line, level, text) for line, level, text, _ in self.view.headings] + raw,
                key=lambda h: h[0],
            )
            slugger = Slugger()
            self.view.headings = [(line, level, text, slugger.slug(text)) for line, level, text in merged]
        self.view.anchors = anchors
        self._html_links(hrefs)
        self.view.links.sort(key=lambda x: (x[0], x[1]))
        return self.view


def _shift(node: _Node, lines: int, cols: int) -> None:
    for ch in node.children:
        if ch.type not in ("softbreak", "linebreak"):
            ch.line, ch.end_line = ch.line + lines, ch.end_line + lines
            ch.col, ch.end_col = ch.col + cols, ch.end_col + cols
        _shift(ch, lines, cols)


def _place(node: _Node, line: int, cols: int) -> None:
    for ch in node.children:
        ch.line = ch.end_line = line
        ch.col, ch.end_col = ch.col - cols, ch.end_col - cols
        _place(ch, line, cols)


def _fix_split_tables(node: _Node, lines: list[str]) -> None:
    """A table whose header row ends a paragraph: cmark-gfm makes a new paragraph of the lines
    before it without a position (its inline nodes count lines from 0 and columns from 0), and
    places the header row on the paragraph's first line, its columns counted through the
    paragraph's lines.  Both are put back on their lines: the header row is the line above the
    delimiter row (above the first body row, or the table's last line), the paragraph the lines
    from the table's first line to the header; the header's columns are matched on its first
    cell, which starts after the line's container prefix and its leading `|`."""
    kids = node.children
    for i, ch in enumerate(kids):
        if ch.type == "paragraph" and ch.line == 0 and i + 1 < len(kids) and kids[i + 1].type == "table":
            table = kids[i + 1]
            rows = table.children
            if not rows or not rows[0].children:
                continue
            delimiter = rows[1].line - 1 if len(rows) > 1 else table.end_line
            header = delimiter - 1
            _shift(ch, table.line, table.col)
            ch.line, ch.end_line, ch.col = table.line, header - 1, table.col
            src = lines[header - 1] if 0 < header <= len(lines) else ""
            p = len(src) - len(src.lstrip(" \t>"))
            p += src[p : p + 1] == "|"
            first = len(src[:p].encode("utf-8", "surrogatepass")) + 1
            row = rows[0]
            delta = row.children[0].col - first
            row.line = row.end_line = header
            _place(row, header, delta)
        _fix_split_tables(ch, lines)


def gfm_view(text: str) -> GfmView:
    """Headings, explicit anchors and links of `text` as github.com renders them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    w = _Walker(text)
    tree = parse_tree(text)
    _fix_split_tables(tree, w.lines)
    w.walk(tree)
    return w.finish()


@dataclass
class GfmBlocks:
    """Where cmark-gfm's containers start (line, column in characters): the block structure that
    decides where a link lives. Each list with its items, each table (its header row), each
    block quote with its last line."""

    lists: list[tuple[int, int, tuple[tuple[int, int], ...]]] = field(default_factory=list)
    tables: list[tuple[int, int]] = field(default_factory=list)
    quotes: list[tuple[int, int, int]] = field(default_factory=list)


def gfm_blocks(text: str) -> GfmBlocks:
    """The lists, tables and block quotes of `text`, placed by cmark-gfm's source positions
    (exact for blocks, unlike its inline ones; columns turned from bytes into characters)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    tree = parse_tree(text)
    _fix_split_tables(tree, lines)
    out = GfmBlocks()

    def column(line: int, col: int) -> int:
        src = lines[line - 1].encode("utf-8", "surrogatepass") if 0 < line <= len(lines) else b""
        return len(src[: col - 1].decode("utf-8", "surrogatepass")) + 1

    stack = [tree]
    while stack:
        node = stack.pop()
        if node.type == "list":
            items = tuple((i.line, column(i.line, i.col)) for i in node.children)
            out.lists.append((node.line, column(node.line, node.col), items))
        elif node.type == "table" and node.children:
            header = node.children[0].line
            if header == node.line:
                out.tables.append((header, column(header, node.col)))
            else:  # a header row that ended a paragraph: the table has the paragraph's column
                src = lines[header - 1] if 0 < header <= len(lines) else ""
                out.tables.append((header, len(src) - len(src.lstrip(" \t>")) + 1))
        elif node.type == "block_quote":
            out.quotes.append((node.line, column(node.line, node.col), node.end_line))
        stack.extend(reversed(node.children))
    for part in (out.lists, out.tables, out.quotes):
        part.sort()
    return out


__all__ = ["GfmBlocks", "GfmView", "gfm_blocks", "gfm_view", "parse_tree"]
