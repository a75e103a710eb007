"""Block positions: mistune's block parser, with every block token pinned to where it starts.

A `BlockState` subclass records, on every block token, the state and the offset in that state's
source (`cursor`) where the block starts.  Block quotes and list items are parsed by mistune from
*child sources* that keep exactly one line per source line (prefixes such as ``> `` or the list
indentation stripped), so each state knows the original line of its first line (`line_base`); an
offset in a child state maps to an original line by counting lines, and to a column by aligning
the child line with the original line (the child line is the original line minus a prefix).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

import mistune
from mistune.block_parser import (
    _BLOCK_QUOTE_LINE,
    BlockParser,
    _parse_html_to_newline,
)
from mistune.core import BlockState
from mistune.helpers import BLOCK_TAGS, PRE_TAGS, parse_link_href
from mistune.list_parser import LIST_PATTERN, _compile_continue_width, _has_continuation_indent
from mistune.util import unikey

from drafterlint.markdown.autolinks import URL_START, url_end
from drafterlint.markdown.text import decode

# --------------------------------------------------------------------------------------------
# mistune with positions


def line_starts(text: str) -> list[int]:
    """The offset at which each line of `text` begins (positions map back through these)."""
    starts = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


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
        # Offsets of the marker lines of the list being parsed in this state (see parse_list).
        self._item_marks: list[int] | None = None
        # The last code or HTML block appended, until the next block shows where it ended.
        self._open: dict[str, Any] | None = None
        # The child states of the items of the list being parsed in this state.
        self._item_states: list[_PosState] | None = None
        # Original line numbers of this container's lazy lines (see _first_stray_lazy_line).
        self.lazy_lines: list[int] = []

    # -- positions ------------------------------------------------------------------------

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self.src)
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
        marks = self._item_marks
        if self._pending_base is not None:  # a block quote's
            child.line_base = self._pending_base
            self._pending_base = None
        elif marks is not None:
            # A list item's: mistune has collected its lines, so the cursor is past the
            # marker line of the next item (if any); the last mark is this item's marker.
            marker_off = marks[-1]
            _, marker_text = self.line_text(marker_off)
            child.line_base = self.orig_line(marker_off)
            m = _LIST_MARKER_RE.match(marker_text)
            if m is not None and not marker_text[m.end() :].strip():
                child.line_base += 1  # "-\n  foo": the item's content starts on the next line
            marks.append(self.starts[self.line_index(max(0, self.cursor - 1))])
            self._mark_lazy_lines(child, marker_text)
            if self._item_states is not None:
                self._item_states.append(child)
        else:
            child.line_base = self.orig_line(self.cursor)
        return child

    def _mark_lazy_lines(self, child: "_PosState", marker_text: str) -> None:
        """Tell mistune which lines of a list item are lazy continuation lines (indented less
        than the item's content, as mistune collected them), as it does for block quotes: no
        setext underline there.  They are kept (`lazy_lines`) to check they continue a
        paragraph, the only thing a lazy line may do."""
        first = child.line_base - self.line_base
        m = _LIST_LINE_RE.match(marker_text)
        if m is None or not 0 <= first < len(self.starts) or not child.src.strip():
            return
        _, width = _compile_continue_width(m.group(3), len(m.group(1)) + len(m.group(2)))
        lazy = set(child.lazy_line_starts or ())
        lines: list[int] = []
        # after an empty marker line (`-`), the item's first line may be lazy as well
        skip = 1 if m.group(3).strip() else 0
        nlines = child.src.rstrip("\n").count("\n") + 1
        for i, start in enumerate(child.starts[skip:nlines], skip):
            k = first + i
            if k >= len(self.starts):
                break
            _, line = self.line_text(self.starts[k])
            if line.strip() and not _has_continuation_indent(line, width):
                lazy.add(start)
                lines.append(self.line_base + k)
        if lazy:
            child.lazy_line_starts = lazy
        child.lazy_lines = lines

    def close_open_block(self, end: int | None = None) -> None:
        """The open code/HTML block (if any) ended at `end`, by default the cursor.

        Called when a block rule returns its end, where the next block starts (a rule's
        method, a paragraph or a token added by a fast path of mistune's own loop) and at the
        end of each state's parse: so positions need no parser internals."""
        tok = self._open
        if tok is not None:
            self._open = None
            tok.setdefault("_end", self.cursor if end is None else end)

    def append_token(self, token: dict[str, Any]) -> None:
        self.close_open_block()
        if "_p" not in token and token["type"] not in ("list", "block_quote"):
            token["_p"] = (self, self.cursor)
        if token["type"] in ("block_code", "block_html"):
            self._open = token
        self.tokens.append(token)

    def add_paragraph(self, text: str) -> None:
        self.close_open_block()
        last = self.last_token()
        if last and last["type"] == "paragraph":
            last["text"] += text
        else:
            self.tokens.append({"type": "paragraph", "text": text, "_p": (self, self.cursor)})


# The lines that start an HTML block, as cmark-gfm decides (CommonMark's seven kinds).  mistune
# starts one at `<div` whatever follows, counts `<meta` among the block tags, knows no `/>` in
# a tag of type 7, and ends no list item or quote at a type 7 line.
# Types 1 to 6: `<pre`/`<script`/... and the block tag names, each ending the way cmark-gfm
# requires; comments, `<?`, declarations, CDATA.
_HTML_1_TO_6 = (
    r"(?i:<(?:" + "|".join(PRE_TAGS) + r")(?=[ \t\v\f>]|$))"
    r"|(?i:</?(?:" + "|".join(t for t in BLOCK_TAGS if t != "meta") + r")(?=[ \t\v\f]|/?>|$))"
    r"|<!--|<\?|<![A-Z]|<!\[CDATA\["
)
# Type 7: one complete open or closing tag, alone on its line.
_ATTRIBUTE = r"""[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t\n"'=<>`]+|'[^'\n]*'|"[^"\n]*"))?"""
_HTML_7 = (
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:" + _ATTRIBUTE + r")*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
_HTML_1_TO_6_RE = re.compile(r" {0,3}(?:" + _HTML_1_TO_6 + ")", re.M)
_HTML_7_RE = re.compile(r" {0,3}" + _HTML_7, re.M)
# mistune's rule for the HTML blocks that end a list item's or a quote's lazy lines
_BLOCK_HTML = r"^ {0,3}(?:" + _HTML_1_TO_6 + "|" + _HTML_7 + ")"

# --------------------------------------------------------------------------------------------
# lazy continuation lines

# mistune takes into a list item or a block quote every line that starts no block able to
# interrupt a paragraph; cmark-gfm (GitHub) takes such a lazy line only when it continues a
# paragraph: after an HTML block, a heading, code or an empty item, the line closes the
# container.  The container is parsed as mistune does, its lazy lines checked against its
# blocks, and if one continues no paragraph, parsed again up to that line (the rest is then
# read outside the container).  Parsing again is bounded by a budget per document (in
# characters, twice the document), so nested containers each cut cannot cost more than that.
_REPARSE_LEFT = "_drafterlint_reparse_left"


def _unmarked_quote_lines(state: _PosState, base: int, nlines: int) -> list[int]:
    """Original line numbers of the lines of a block quote without their `>` (lazy lines)."""
    out = []
    first = base - state.line_base
    for k in range(first + 1, min(first + nlines, len(state.starts))):
        _, line = state.line_text(state.starts[k])
        if not _BLOCK_QUOTE_LINE.match(line):
            out.append(state.line_base + k)
    return out


def _first_cut(children: list[_PosState]) -> int | None:
    """The first original line, among the lazy lines of these container contents (in order),
    that continues no paragraph begun on an earlier line."""
    for child in children:
        for line in child.lazy_lines:
            if not _continues_paragraph(child.tokens, line):
                return line
    return None


def _continues_paragraph(tokens: list[dict[str, Any]], line: int) -> bool:
    """Whether original line `line` is a continuation line of a paragraph among `tokens` (a
    container's blocks, searched down through the lists and quotes in it)."""
    last, at = None, 0
    for tok in tokens:
        p = tok.get("_p")
        if p is not None:
            where = p[0].orig_line(p[1])
            if where <= line:
                last, at = tok, where
    if last is None:
        return False
    t = last["type"]
    if t in ("paragraph", "block_text") or (t == "heading" and last.get("style") == "setext"):
        return at < line <= at + last["text"].rstrip("\n").count("\n")
    if t == "block_quote":
        return _continues_paragraph(last["children"], line)
    if t == "list":
        found = None
        for (st, off), item in zip(last.get("_items") or (), last["children"]):
            if st.orig_line(off) <= line:
                found = item
        return found is not None and _continues_paragraph(found["children"], line)
    return False


class _Undo:
    """What a container's parse changed in its state, to parse it again up to a line."""

    def __init__(self, state: _PosState):
        self.state = state
        self.cursor = state.cursor
        self.ntok = len(state.tokens)
        self.nrefs = len(state.env["ref_links"])
        self.cells = state.env.get(_CELLS_LEFT)
        self.saved_max: int | None = None

    def reparse(self, line: int) -> bool:
        """Undo the parse and bound the state's source before original line `line`, if the
        document's budget allows; False (nothing undone) if it does not."""
        st = self.state
        env = st.env
        left = env.get(_REPARSE_LEFT)
        if left is None:
            root = st
            while root.parent is not None:
                root = root.parent
            left = 2 * len(root.src)
        cut = st.starts[line - st.line_base]
        cost = cut - self.cursor
        if cost > left:
            env[_REPARSE_LEFT] = left
            return False
        env[_REPARSE_LEFT] = left - cost
        del st.tokens[self.ntok :]
        refs = env["ref_links"]
        for key in list(refs)[self.nrefs :]:
            del refs[key]
        if self.cells is None:
            env.pop(_CELLS_LEFT, None)
        else:
            env[_CELLS_LEFT] = self.cells
        st.cursor = self.cursor
        st._open = None
        self.saved_max = st.cursor_max
        st.cursor_max = cut
        return True

    def done(self) -> None:
        assert self.saved_max is not None
        self.state.cursor_max = self.saved_max


# A list item's marker at the start of its line, as mistune's list rule matches it.
_LIST_MARKER_RE = re.compile(r"[ \t]*(?:[*+-]|\d{1,9}[.)])")
# The whole marker line, in the groups of mistune's list rule (any indentation: a nested item).
_LIST_LINE_RE = re.compile(LIST_PATTERN.replace(" {0,3}", " *", 1).replace("^", "", 1))


class _PosBlockParser(BlockParser):
    """mistune's block parser, telling each token where it starts (through `_PosState`).

    Only public methods are extended, each calling mistune's own: no mistune function is
    replaced, so other users of mistune in the same process are unaffected.
    """

    state_cls = _PosState

    def parse(self, state: Any, rules: Any = None) -> None:
        super().parse(state, rules)
        state.close_open_block()  # the last block of this state ends where its source does

    def parse_method(self, m: Any, state: Any) -> Any:
        start = state.cursor
        state.close_open_block()  # a block starts here
        end = super().parse_method(m, state)
        tok = state._open
        if end and tok is not None:
            # mistune moves the cursor to the end marker of `<pre>`, `<!--` ... blocks before
            # adding them: the block starts where its rule matched
            tok["_p"] = (state, start)
            state.close_open_block(end)
        return end

    def parse_list(self, m: Any, state: Any) -> Any:
        start = state.cursor
        undo = _Undo(state)
        end, items = self._parse_list_once(m, state, start)
        cut = _first_cut(items)
        if cut is not None and undo.reparse(cut):
            # a lazy line that continues no paragraph is no part of the list: it closes it
            end, _ = self._parse_list_once(m, state, start)
            undo.done()
        return end

    def _parse_list_once(self, m: Any, state: Any, start: int) -> tuple[Any, list[_PosState]]:
        ntok = len(state.tokens)
        # mistune parses each item from a child state created right after the item's lines
        # were collected; `child_state` pins the item to its marker line from these offsets.
        saved = state._item_marks, state._item_states
        state._item_marks, state._item_states = [start], []
        try:
            end = super().parse_list(m, state)
            marks, items = state._item_marks, state._item_states
        finally:
            state._item_marks, state._item_states = saved
        for tok in reversed(state.tokens[ntok:]):
            if tok["type"] == "list" and "_p" not in tok:
                tok["_p"] = (state, start)
                tok["_items"] = [(state, off) for off in marks[: len(tok["children"])]]
                break
        return end, items

    def parse_block_quote(self, m: Any, state: Any) -> int:
        start = state.cursor
        undo = _Undo(state)
        end, child = self._parse_quote_once(m, state, start)
        cut = _first_cut([child])
        if cut is not None and undo.reparse(cut):
            end, _ = self._parse_quote_once(m, state, start)
            undo.done()
        return end

    def _parse_quote_once(self, m: Any, state: Any, start: int) -> tuple[int, _PosState]:
        base = state.orig_line(start)
        # mistune parses the blocks that end the quote's lazy lines before it adds the quote:
        # this stands for the quote meanwhile, so that `>>` then `-` (an empty item) does not
        # take the paragraph before the quote for its own
        hold = len(state.tokens)
        state.tokens.append({"type": "block_quote", "children": []})
        text, end_pos, lazy_line_starts = self.extract_block_quote(m, state)
        saved = state._pending_base  # a list item being collected may be waiting for its child
        state._pending_base = base
        child = state.child_state(text, lazy_line_starts=lazy_line_starts)
        state._pending_base = saved
        child.line_base = base
        nlines = len(text.rstrip("\n").split("\n")) if text.strip() else 1
        child.lazy_lines = _unmarked_quote_lines(state, base, nlines)
        if state.depth() >= self.max_nested_level - 1:
            rules = [r for r in self.block_quote_rules if r not in ("block_quote", "list")]
        else:
            rules = self.block_quote_rules
        self.parse(child, rules)
        state.tokens[hold] = {
            "type": "block_quote",
            "children": child.tokens,
            "_p": (state, start),
            "_child": child,
            "_end_line": base + nlines - 1,
        }
        return (end_pos or state.cursor), child

    def __init__(self) -> None:
        super().__init__()
        # the HTML blocks that interrupt a list item's or a quote's lazy lines end their tag
        # name the way cmark-gfm requires (mistune's pattern left out `>` and `/>`)
        self.specification["block_html"] = _BLOCK_HTML

    def parse_raw_html(self, m: Any, state: Any) -> Any:
        if _HTML_1_TO_6_RE.match(state.src, m.start()):
            return super().parse_raw_html(m, state)
        # type 7 (mistune's types 1 and 6 include `<div[`, `<details*`: no block starts there),
        # which may not interrupt a paragraph
        if not _HTML_7_RE.match(state.src, m.start()):
            return None
        end_pos = state.append_paragraph()
        if end_pos:
            return end_pos
        return _parse_html_to_newline(state, self.BLANK_LINE)

    def parse_block_html(self, m: Any, state: Any) -> Any:
        # only a line that ends a list item's or a quote's lazy lines comes here: of type 7,
        # it starts its block even after a paragraph (that paragraph is in the container)
        if _HTML_1_TO_6_RE.match(state.src, m.start()):
            return super().parse_raw_html(m, state)
        return _parse_html_to_newline(state, self.BLANK_LINE)

    def parse_ref_link(self, m: Any, state: Any) -> Any:
        label = m.group("reflink_1") or ""
        if label.startswith("^"):
            return None  # `[^1]: …` defines a footnote (GitHub renders it as text), no reference
        refs = state.env["ref_links"]
        key = unikey(label)
        had = key in refs
        end = super().parse_ref_link(m, state)
        if end and key and not had and key in refs:
            href, _ = parse_link_href(state.src, m.end(), block=True)
            if href is not None:
                refs[key]["raw_url"] = decode(href)
            refs[key]["_line"] = state.orig_line(m.start())
        return end


def _parse_bare_url(inline: Any, m: Any, state: Any) -> int:
    """mistune's inline rule for a GFM extended autolink, ended the way cmark-gfm ends it."""
    start = m.start()
    end = url_end(state.src, start)
    if end < 0:
        inline.process_text(m.group(0), state)
        return m.end()
    if state.brackets or state.in_link or state.depth >= inline.max_nested_level:
        # cmark-gfm links no bare URL while a `[` is open
        inline.process_text(m.group(0), state)
        return m.end()
    text = state.src[start:end]
    # cmark-gfm keeps a bare URL as written: `&amp;` in it is no entity
    url = "http://" + text if text.startswith("www") else text
    state.append_token(
        {"type": "link", "children": [{"type": "text", "raw": text, "_literal": True}], "attrs": {"url": url}, "_autolink": text}
    )
    return end


_PLAIN_RE = re.compile(r"[\\`*_<>\[\]!&~$^=:]|  \n|www\.", re.I)


class _FastInline(mistune.InlineParser):
    """mistune's inline parser, with a fast path for text that holds no inline markup at all."""

    def parse_inline_html(self, m: Any, state: Any) -> Any:
        # mistune reads the text after a raw `<a …>` as link text, where no link may start;
        # cmark-gfm (GitHub) parses links there as anywhere else
        in_link = state.in_link
        end = super().parse_inline_html(m, state)
        state.in_link = in_link
        return end

    def __call__(self, s: str, env: Any) -> list[dict[str, Any]]:
        if _PLAIN_RE.search(s) is None and "\\" not in s:
            if "\n" not in s:  # one line (a table cell, a short item): one text token
                s = s.strip(" \t")
                return [{"type": "text", "raw": s}] if s else []
            out: list[dict[str, Any]] = []
            for n, line in enumerate(s.split("\n")):
                if n:
                    out.append({"type": "softbreak"})
                line = line.strip(" \t")
                if line:
                    out.append({"type": "text", "raw": line})
            return out
        return super().__call__(s, env)


_FOOTNOTE_DEF = r" {0,3}\[\^[^\]\s]+\]:[^\n]*(?:\n|$)"
# a line that ends a footnote definition's paragraph (a blank line or a block that interrupts one)
_FOOTNOTE_END_RE = re.compile(
    r"[ \t]{0,3}(?:$|#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|```|~~~|"
    r"(?:[-*_][ \t]*){3,}$|<|\[\^[^\]\s]+\]:)"
)


def _parse_footnote_def(block: Any, m: Any, state: Any) -> int:
    """`[^1]: …` and its continuation lines: a footnote definition, which GitHub renders at the
    end of the document.  Its text is a paragraph of its own (links in it are links), never a
    reference definition, and a `---`/`===` under it underlines nothing."""
    src = state.src
    end = m.end()
    while end < len(src):
        nl = src.find("\n", end)
        line_end = len(src) if nl < 0 else nl
        line = src[end:line_end]
        if not line.startswith("    ") and _FOOTNOTE_END_RE.match(line):
            break
        end = line_end + 1 if nl >= 0 else line_end
    if _footnote_label(m.group(0)) in _referenced_footnotes(state):
        state.append_token({"type": "footnote", "text": src[m.start() : end]})  # no paragraph: nothing underlines it
    else:  # a definition nothing refers to is not rendered: what it holds is not on the page
        state.append_token({"type": "unrendered_footnote", "text": src[m.start() : end]})
    return end


_FOOTNOTE_REF_RE = re.compile(r"\[\^([^\]\s]+)\](?!:)")


def _footnote_label(line: str) -> str:
    return unikey(line[line.index("[^") + 2 : line.index("]:")])


def _referenced_footnotes(state: Any) -> set[str]:
    """Labels of the footnotes the document refers to (`[^label]` not followed by `:`)."""
    root = state
    while root.parent is not None:
        root = root.parent
    refs = root.env.get("_footnote_refs")
    if refs is None:
        refs = {unikey(label) for label in _FOOTNOTE_REF_RE.findall(root.src)}
        root.env["_footnote_refs"] = refs
    return refs


def _make_markdown() -> mistune.Markdown:
    md = mistune.Markdown(renderer=None, block=_PosBlockParser(), inline=_FastInline())
    _bounded_tables(md)
    for name in (
        "strikethrough",
        "mistune.plugins.table.table_in_quote",
        "mistune.plugins.table.table_in_list",
    ):
        md.use(mistune.plugins.import_plugin(name))
    md.block.register("footnote_def", _FOOTNOTE_DEF, _parse_footnote_def, before="setex_heading")
    try:  # mistune 3.4 skips plain text up to a rule's first characters
        md.inline.register("url_link", URL_START, _parse_bare_url, start_chars=("h", "H", "w"))
    except TypeError:
        md.inline.register("url_link", URL_START, _parse_bare_url)
    return md


# --------------------------------------------------------------------------------------------
# a bound on table cells

# Each table cell costs mistune and the document builder about 10 us and 1 KB (split, inline
# parse, position, rendered text). The real rules document has about 1 400 cells in 60 tables
# (at most 50 rows). Beyond this many cells in one document, a table is skipped (its rows are
# neither parsed nor checked) and reported as DL702 at its line: a hostile table costs a scan
# of its text, and the rest of the document is checked as usual.
MAX_TABLE_CELLS = 30_000
_CELLS_LEFT = "_drafterlint_table_cells_left"  # in the parse's env, shared by child states

# The delimiter row (`|---|:-:|`), as a cheap first test (mistune checks it properly): one
# character class, no nesting, so linear on any line.
_DELIMITER_ROW_RE = re.compile(r"[ \t|:-]*\n?")
# The rows that follow, as mistune's pipe-table and no-leading-pipe table rules take them.
_PIPE_ROWS_RE = re.compile(r"(?:[ \t]*\|[^\n]*\|[ \t]*(?:\n|\Z))*")
_NP_ROWS_RE = re.compile(r"(?:[^\n]*\|[^\n]*(?:\n|\Z))*")


def _bounded_tables(md: mistune.Markdown) -> None:
    """mistune's table plugin, its two rules behind the document's cell budget."""
    from mistune.plugins import table as _table

    md.use(_table.table)
    for name, pattern, parse, rows in (
        ("table", _table.TABLE_PATTERN, _table.parse_table, _PIPE_ROWS_RE),
        ("nptable", _table.NP_TABLE_PATTERN, _table.parse_nptable, _NP_ROWS_RE),
    ):
        md.block.register(name, pattern, _bounded(parse, rows), before="paragraph")


def _line_end(src: str, pos: int) -> int:
    j = src.find("\n", pos)
    return len(src) if j < 0 else j + 1


def _bounded(parse: Any, rows_re: "re.Pattern[str]") -> Any:
    """The table rule `parse` of mistune, unless the table would take the document over its
    cell budget: then one `table_skipped` token stands for the whole table."""

    def rule(block: Any, m: Any, state: Any) -> Any:
        src = state.src
        delimiter = m.end()  # mistune's match is the header line
        body = _line_end(src, delimiter)
        if _DELIMITER_ROW_RE.fullmatch(src, delimiter, body) is None or src.find("-", delimiter, body) < 0:
            return parse(block, m, state)  # not a table: mistune's rule says so quickly
        rows_m = rows_re.match(src, body)  # always matches (possibly no row)
        end = rows_m.end() if rows_m is not None else body
        rows = 1 + src.count("\n", body, end) + (end > body and src[end - 1] != "\n")
        header = m.group(0).strip()
        columns = header.count("|") + 1 - header.startswith("|") - header.endswith("|")
        cells = max(1, columns) * rows
        left = state.env.get(_CELLS_LEFT, MAX_TABLE_CELLS)
        if cells <= left:
            state.env[_CELLS_LEFT] = left - cells
            return parse(block, m, state)
        state.append_token({"type": "table_skipped", "_cells": cells, "_limit": MAX_TABLE_CELLS, "_stop": end})
        return end

    return rule


_MD: mistune.Markdown | None = None


def _markdown() -> mistune.Markdown:
    global _MD
    if _MD is None:
        _MD = _make_markdown()
    return _MD

