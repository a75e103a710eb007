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
from mistune.core import BlockState
from mistune.helpers import BLOCK_TAGS, PRE_TAGS, parse_link_href
from mistune.list_parser import LIST_PATTERN
from mistune.util import unikey

from drafterlint.markdown import emphasis, tables
from drafterlint.markdown._mistune import (
    BLOCK_QUOTE_LINE,
    HookedBlockParser,
    compile_continue_width,
    has_continuation_indent,
    parse_html_to_newline,
    strip_continuation_indent,
)
from drafterlint.markdown.autolinks import URL_FIRST, URL_START, split_underscores_before, url_end
from drafterlint.markdown.text import decode

# --------------------------------------------------------------------------------------------
# mistune with positions


# The blanks, `>` and list markers a line's containers start with (and the blanks after them).
_CONTAINER_PREFIX_RE = re.compile(r"(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*", re.M)


def expand_container_tabs(text: str) -> tuple[str, dict[int, str]]:
    """`text` with each tab among the blanks and markers that start a line (its containers'
    prefix) replaced by the spaces to the next multiple of four columns, and the lines changed
    (by number).  CommonMark reads a tab there as those spaces; mistune expands only a tab
    right after `>` or a marker, as if it stood at the line's first columns (`>   ⇥# h` is
    code for GitHub, a heading for mistune).  A tab after the prefix stays."""
    if "\t" not in text:
        return text, {}
    lines = text.split("\n")
    changed = {}
    for n, line in enumerate(lines):
        if "\t" not in line:
            continue
        end = _CONTAINER_PREFIX_RE.match(line).end()  # type: ignore[union-attr]
        if "\t" in line[:end]:
            lines[n] = changed[n + 1] = line[:end].expandtabs(4) + line[end:]
    return "\n".join(lines), changed


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
        # Original line numbers of this container's lazy lines (see _first_cut).
        self.lazy_lines: list[int] = []
        # How many of `lazy_lines` are known to continue a paragraph (see _judge_lazy_lines).
        self._lazy_next = 0
        # Lists and quotes being collected in this state: their tokens are not there yet.
        self._busy = 0
        # Whether a reference definition left an open paragraph token (see parse_ref_link).
        self._defs = False
        # Where the last paragraph scanned for a table header ends, and whether one ends it.
        self._table_scan = (-1, False)
        # The header line of the last table that failed to start (a delimiter row of another
        # width): its paragraph starts no table after it.
        self._table_visited = -1
        # A task item's: its first line is paragraph text, whatever it starts with (see _task).
        self._task_text = False
        # The document's lines whose container tabs became spaces, as parsed (by line number;
        # see expand_container_tabs): positions are aligned with them, then shifted back.
        self.expanded: dict[int, str] = parent.expanded if parent is not None else {}

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
        return line, max(1, col + 1 + self._col_offset(i, line))

    def _col_offset(self, i: int, line: int) -> int:
        expanded = self.expanded.get(line) if self.expanded else None
        if expanded is None:
            if self.parent is None or not 1 <= line <= len(self.orig):
                return 0
            return self._aligned(i, self.orig[line - 1])
        # the line as parsed had spaces for its container tabs: align with it, then shift back
        return self._aligned(i, expanded) + len(self.orig[line - 1]) - len(expanded)

    def _aligned(self, i: int, o: str) -> int:
        """The column offset of line `i` of this state's source within `o`, the document's line."""
        starts = self.starts
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(self.src)
        child = self.src[starts[i] : end]
        if o.endswith(child):
            return len(o) - len(child)
        cs = child.rstrip()
        os_ = o.rstrip()
        if cs and os_.endswith(cs):
            return len(os_) - len(cs)
        # leading tabs were expanded: align the first non-blank characters (the offset is
        # negative where a tab became several spaces, `-⇥[x]`'s child line `  [x]`)
        stripped = child.lstrip()
        if stripped:
            k = len(o) - len(stripped) if o.endswith(stripped) else o.find(stripped[:8])
            if k >= 0:
                return k - (len(child) - len(stripped))
        return max(0, len(o) - len(child))

    def line_text(self, off: int) -> tuple[int, str]:
        i = self.line_index(off)
        starts = self.starts
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(self.src)
        return starts[i], self.src[starts[i] : end]

    # -- hooks ----------------------------------------------------------------------------

    def child_state(self, src: str, lazy_line_starts: Any = None) -> "_PosState":
        task_text = False
        if self._pending_base is None and self._item_marks is not None and not lazy_line_starts:
            src, task_text = self._task(src)
        child = super().child_state(src, lazy_line_starts)
        assert isinstance(child, _PosState)
        child._task_text = task_text
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

    def _task(self, src: str) -> tuple[str, bool]:
        """A list item's source without its task-list checkbox, and whether the rest of that
        line is paragraph text.  GitHub takes `[ ]`, `[x]` or `[X]` after the item's marker for
        a checkbox only where the marker is the first thing on the line (not after `> ` or
        another marker: cmark-gfm matches the whole line), and the rest of the line is then
        paragraph text, never a block start (`- [x] # a` is no heading); like any paragraph
        it may start with reference definitions."""
        marker_off = self._item_marks[-1] if self._item_marks else 0
        line = self.orig_line(marker_off)
        if not 1 <= line <= len(self.orig) or not _TASK_LINE_RE.match(self.orig[line - 1]):
            return src, False
        nl = src.find("\n")
        first = src if nl < 0 else src[:nl]
        m = _TASK_BOX_RE.match(first)
        if m is None:
            return src, False
        rest = first[m.end() :]
        return rest + src[len(first) :], bool(rest) and (not rest.startswith("[") or rest.startswith("[^"))

    def _mark_lazy_lines(self, child: "_PosState", marker_text: str) -> None:
        """Tell mistune which lines of a list item are lazy continuation lines (indented less
        than the item's content, as mistune collected them), as it does for block quotes: no
        setext underline there.  They are kept (`lazy_lines`) to check they continue a
        paragraph, the only thing a lazy line may do."""
        first = child.line_base - self.line_base
        m = _LIST_LINE_RE.match(marker_text)
        if m is None or not 0 <= first < len(self.starts) or not child.src.strip():
            return
        _, width = compile_continue_width(m.group(3), len(m.group(1)) + len(m.group(2)))
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
            if line.strip() and not has_continuation_indent(line, width):
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
        if not BLOCK_QUOTE_LINE.match(line):
            out.append(state.line_base + k)
    return out


def _first_cut(children: list[_PosState]) -> int | None:
    """The first original line, among the lazy lines of these container contents (in order),
    that continues no paragraph begun on an earlier line."""
    for child in children:
        for line in child.lazy_lines[child._lazy_next :]:
            if not _continues_paragraph(child.tokens, line):
                return line
    return None


# Blanks put before a quote's indented lazy line: more than every container inside the quote
# can take away, so that each reads it as indented (see _deep_lazy_lines).
_LAZY_PAD = " " * 64


def _deep_lazy_lines(text: str, lazy: set[int]) -> tuple[str, set[int]]:
    """A quote's text with each lazy line indented by four columns or more padded further.
    cmark-gfm judges a lazy line against the document, where so indented a line starts no block
    that may interrupt a paragraph: it continues the quote's innermost paragraph.  The
    containers inside the quote (an item) would take it for an indented line of their own and
    read a block there (`> - a<!--⏎    <!-- x -->`: an HTML block).  Padded, it is indented code
    for each of them, which interrupts no paragraph either (a paragraph's text drops the blanks;
    a line that continues none is cut by the lazy lines' judge)."""
    out: list[str] = []
    moved: set[int] = set()
    pos = new = 0  # where each line starts in `text`, and in the result
    for line in text.splitlines(keepends=True):
        size = len(line)
        if pos in lazy:
            moved.add(new)
            if line.strip() and size - len(line.lstrip(" ")) >= 4:
                line = _LAZY_PAD + line
        out.append(line)
        pos += size
        new += len(line)
    return "".join(out), moved


def _definitions_only_end(items: list[_PosState]) -> int | None:
    """The first original line where a list item holding only reference definitions so far
    ends: cmark-gfm takes them out of the item when a blank line closes their paragraph, and
    an item with no block left ends at the next blank line (`- [r]: /x⏎⏎⏎    # T` is code
    after the list).  mistune keeps collecting the item's lines."""
    for child in items:
        lines = child.src.split("\n")
        if not lines or not lines[0].strip():
            continue  # an item that starts empty: mistune ends it at its blank line itself
        starts = sorted(
            t["_p"][0].orig_line(t["_p"][1]) if "_p" in t else -1
            for t in child.tokens
            if t["type"] != "blank_line"
        )
        first_block = starts[0] if starts else None
        last_text = max(i for i, x in enumerate(lines) if x.strip())
        for i in range(1, last_text):
            line = child.line_base + i
            if first_block is not None and (first_block < 0 or first_block <= line):
                break
            if not lines[i].strip() and not lines[i - 1].strip():
                return line
    return None


class _Cut(Exception):
    """A container's lazy line that continues no paragraph, found while its content is parsed:
    the container stops there (so a long list is not parsed to its end to be cut at its first
    item), and is parsed again up to that line."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def _judge_lazy_lines(state: _PosState, done: bool = False) -> None:
    """Raise _Cut for the first lazy line of `state` (a container's content) that its parse
    has passed (all, once `done`) and that continues no paragraph, while the document's
    budget lasts."""
    lines = state.lazy_lines
    i = state._lazy_next
    if i >= len(lines) or state.env.get(_REPARSE_LEFT, 1) <= 0:
        return
    here = lines[-1] + 1 if done else state.orig_line(state.cursor)
    while i < len(lines) and lines[i] < here:
        if not _continues_paragraph(state.tokens, lines[i]):
            raise _Cut(lines[i])
        i += 1
    state._lazy_next = i


def _continues_paragraph(tokens: list[dict[str, Any]], line: int) -> bool:
    """Whether original line `line` is a continuation line of a paragraph among `tokens` (a
    container's blocks, searched down through the lists and quotes in it)."""
    last, at = None, 0
    for tok in reversed(tokens):  # the line is mostly in the last block
        p = tok.get("_p")
        if p is not None:
            where = p[0].orig_line(p[1])
            # (a paragraph left open by definitions began with the first of them)
            if tok.get("_def_line", where) <= line:
                last, at = tok, where
                break
    if last is None:
        return False
    t = last["type"]
    if t in ("paragraph", "block_text") or (t == "heading" and last.get("style") == "setext"):
        # a paragraph after reference definitions began with them
        return last.get("_def_line", at) < line <= at + last["text"].rstrip("\n").count("\n")
    if t in ("block_quote", "footnote"):
        # (a footnote definition holds blocks: `- [^1]: note⏎lazy` continues its paragraph)
        return _continues_paragraph(last["children"], line)
    if t == "list":
        found = None
        for (st, off), item in zip(last.get("_items") or (), last["children"]):
            if st.orig_line(off) <= line:
                found = item
        return found is not None and _continues_paragraph(found["children"], line)
    return False


def _spend(state: _PosState, cost: int, force: bool = False) -> bool:
    """Take `cost` characters from the document's budget for parsing again, if it has them (or
    if `force`: a parse stopped by _Cut must be done again)."""
    env = state.env
    left = env.get(_REPARSE_LEFT)
    if left is None:
        root = state
        while root.parent is not None:
            root = root.parent
        left = 2 * len(root.src)
    if cost > left and not force:
        env[_REPARSE_LEFT] = left
        return False
    env[_REPARSE_LEFT] = left - cost
    return True


class _Undo:
    """What a container's parse changed in its state, to parse it again up to a line."""

    def __init__(self, state: _PosState):
        self.state = state
        self.cursor = state.cursor
        self.ntok = len(state.tokens)
        self.nrefs = len(state.env["ref_links"])
        self.cells = state.env.get(_CELLS_LEFT)
        self.saved_max: int | None = None

    def reparse(self, line: int, force: bool = False) -> bool:
        """Undo the parse and bound the state's source before original line `line`, if the
        document's budget allows (or `force`); False (nothing undone) if it does not.  Both
        parses are charged: the first read up to the state's cursor (a quote's lines are all
        collected before they are parsed), the second reads up to the line."""
        st = self.state
        env = st.env
        cut = st.starts[line - st.line_base]
        if not _spend(st, max(st.cursor, cut) + cut - 2 * self.cursor, force):
            return False
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


# An ATX heading's closing sequence (cmark-gfm): `#`s after a space or tab, or alone.
_ATX_CLOSING_RE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
# A footnote's label (cmark-gfm): `^` then no blank and no `]`.
_FOOTNOTE_LABEL_RE = re.compile(r"\^[^\]\s]+")
# A setext underline, as mistune's rule matches it.
_SETEXT_LINE_RE = re.compile(r" {0,3}(?:=+|-+)[ \t]*(?:\n|$)")

# A list item's marker at the start of its line, as mistune's list rule matches it.
_LIST_MARKER_RE = re.compile(r"[ \t]*(?:[*+-]|\d{1,9}[.)])")
# cmark-gfm's task-list line (its scanner reads the whole line: the item's marker comes first),
# and the checkbox at the start of the item's content with the blanks after it
_TASK_LINE_RE = re.compile(r"[ \t\v\f]*(?:[-+*]|[0-9]+[^\n])[ \t\v\f]+\[[ xX]\][ \t\v\f]")
_TASK_BOX_RE = re.compile(r"[ \t]*\[[ xX]\][ \t]+")
# The whole marker line, in the groups of mistune's list rule (any indentation: a nested item).
_LIST_LINE_RE = re.compile(LIST_PATTERN.replace(" {0,3}", " *", 1).replace("^", "", 1))


class _PosBlockParser(HookedBlockParser):
    """mistune's block parser, telling each token where it starts (through `_PosState`).

    Public methods are extended (and mistune's fast path for indented lines), each calling
    mistune's own: no mistune function is replaced, so other users of mistune in the same
    process are unaffected.
    """

    state_cls = _PosState

    def parse(self, state: Any, rules: Any = None) -> None:
        if state._task_text and state.cursor == 0:
            end = state.find_line_end()
            state.add_paragraph(state.get_text(end))
            state.cursor = end
        super().parse(state, rules)
        state.close_open_block()  # the last block of this state ends where its source does
        if state.lazy_lines:
            _judge_lazy_lines(state, done=True)
        if state._defs:  # the paragraphs left open by definitions that nothing continued
            state.tokens[:] = [t for t in state.tokens if not (t.get("_after_def") and not t["text"])]
        if state.parent is None and state.env.get(_FOOTNOTES):
            _drop_unreferenced_footnotes(state.tokens)

    def indent_code_fast(self, state: Any) -> Any:
        # mistune's fast path for indented lines takes a line of four blanks after a paragraph
        # for its text; it is a blank line, which ends the paragraph (`a⏎    ⏎=` is no heading)
        line = state.get_text(state.find_line_end())
        if not line.strip():
            return None
        return super().indent_code_fast(state)

    def parse_method(self, m: Any, state: Any) -> Any:
        start = state.cursor
        state.close_open_block()  # a block starts here
        if m.lastgroup == "indent_code" and not state.get_text(state.find_line_end()).strip():
            # four blanks and nothing else: a blank line, no paragraph text (mistune's rule
            # appends it to the paragraph before it)
            end = state.find_line_end()
            state.append_token({"type": "blank_line"})
            return end
        end = super().parse_method(m, state)
        if not end and m.lastgroup not in ("table", "nptable") and state.cursor == start:
            # a rule that matched and found nothing (`[]:||`, `=`, `<a|b`) leaves its line to
            # mistune's paragraph, which would skip the table it may head
            t = _NP_TABLE_RE.match(state.src, start)
            if t is not None:
                end = _table_rule(self, t, state)
        tok = state._open
        if end and tok is not None:
            # mistune moves the cursor to the end marker of `<pre>`, `<!--` ... blocks before
            # adding them: the block starts where its rule matched
            tok["_p"] = (state, start)
            state.close_open_block(end)
        if state.lazy_lines and not state._busy:
            _judge_lazy_lines(state)
        return end

    def parse_list(self, m: Any, state: Any) -> Any:
        start = state.cursor
        undo = _Undo(state)
        try:
            end, items = self._parse_list_once(m, state, start)
            cuts = [c for c in (_first_cut(items), _definitions_only_end(items)) if c is not None]
            cut, stopped = min(cuts, default=None), False
        except _Cut as exc:
            cut, stopped = exc.line, True
        if cut is not None and undo.reparse(cut, force=stopped):
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
        state._busy += 1
        try:
            end = super().parse_list(m, state)
            marks, items = state._item_marks, state._item_states
        finally:
            state._item_marks, state._item_states = saved
            state._busy -= 1
        for tok in reversed(state.tokens[ntok:]):
            if tok["type"] == "list" and "_p" not in tok:
                tok["_p"] = (state, start)
                tok["_items"] = [(state, off) for off in marks[: len(tok["children"])]]
                break
        return end, items

    def parse_block_quote(self, m: Any, state: Any) -> int:
        start = state.cursor
        undo = _Undo(state)
        try:
            end, child = self._parse_quote_once(m, state, start)
            cut, stopped = _first_cut([child]), False
        except _Cut as exc:
            cut, stopped = exc.line, True
        if cut is not None and undo.reparse(cut, force=stopped):
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
        state._busy += 1
        try:
            text, end_pos, lazy_line_starts = self.extract_block_quote(m, state)
        finally:
            state._busy -= 1
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

    def extract_block_quote(self, m: Any, state: Any) -> Any:
        text, end_pos, lazy = super().extract_block_quote(m, state)
        if end_pos is None and self.compile_sc(["blank_line", "indent_code", "fenced_code"]).match(text):
            # a quote whose first line is blank, code or a fence: mistune takes no lazy line
            # after it at all; cmark-gfm takes one that continues the paragraph of a later line
            # (`>⏎>d⏎[r]:r` is one paragraph), which the lazy lines' judge then checks
            lazy = set(lazy or ())
            while state.cursor < state.cursor_max:
                line = state.get_line(state.cursor)
                if not line.strip() or BLOCK_QUOTE_LINE.match(line) or _INTERRUPT_RE.match(line):
                    break
                lazy.add(len(text))
                text += line
                state.cursor += len(line)
        if lazy:
            text, lazy = _deep_lazy_lines(text, lazy)
        return text, end_pos, lazy

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
        return parse_html_to_newline(state, self.BLANK_LINE)

    def parse_block_html(self, m: Any, state: Any) -> Any:
        # only a line that ends a list item's or a quote's lazy lines comes here: of type 7,
        # it starts its block even after a paragraph (that paragraph is in the container)
        if _HTML_1_TO_6_RE.match(state.src, m.start()):
            return super().parse_raw_html(m, state)
        return parse_html_to_newline(state, self.BLANK_LINE)

    def parse_ref_link(self, m: Any, state: Any) -> Any:
        label = m.group("reflink_1") or ""
        if _FOOTNOTE_LABEL_RE.fullmatch(label):
            return None  # `[^1]: …` defines a footnote, no reference (`[^]:` does define one)
        src = state.src
        if _table_ends_paragraph(state, m.start()):
            return None  # cmark-gfm keeps a paragraph's definitions as text when a table ends it
        line_end = state.find_line_end_at(m.end())
        if not src[m.end() : line_end].strip() and _SETEXT_LINE_RE.match(src, line_end):
            # `[r]:` then `-`: the underline takes the line before the destination could
            return None
        last = state.last_token()
        rest = last if last is not None and last.get("_after_def") else None
        if rest is not None and not rest["text"]:
            state.tokens.pop()  # a definition after a definition
        elif last is not None and last["type"] == "paragraph":
            return super().parse_ref_link(m, state)  # paragraph text
        refs = state.env["ref_links"]
        key = unikey(label)
        had = key in refs
        end = super().parse_ref_link(m, state)
        if not end:
            if rest is not None:
                state.tokens.append(rest)
            return end
        if key and not had and key in refs:
            href, _ = parse_link_href(src, m.end(), block=True)
            if href is not None:
                refs[key]["raw_url"] = decode(href)
            refs[key]["_line"] = state.orig_line(m.start())
        # cmark-gfm takes definitions out of the paragraph they begin, which stays open: what
        # follows continues it (an indented line, a tag, `2.`), an underline included
        first = rest["_def_line"] if rest is not None else state.orig_line(m.start())
        state.tokens.append({"type": "paragraph", "text": "", "_p": (state, end), "_after_def": True, "_def_line": first})
        state._defs = True
        return end

    def parse_atx_heading(self, m: Any, state: Any) -> Any:
        end = super().parse_atx_heading(m, state)
        # cmark-gfm trims only ASCII blanks and a closing `#` run after a space or tab; mistune's
        # `\s` takes a no-break space too (`# \u00a0 #` keeps it)
        text = m.group("atx_2").strip(" \t")
        state.last_token()["text"] = _ATX_CLOSING_RE.sub("", text).rstrip(" \t") if text else text
        return end

    def parse_setex_heading(self, m: Any, state: Any) -> Any:
        if not _SETEXT_LINE_RE.match(m.group(0)):
            return None  # `=-`: mistune's rule takes a mixed line for an underline, GitHub does not
        last = state.last_token()
        if last is not None and last.get("_after_def") and not last["text"]:
            return state.append_paragraph()  # `[r]: /u` then `===`: nothing to underline
        return super().parse_setex_heading(m, state)


def _parse_bare_url(inline: Any, m: Any, state: Any) -> int:
    """mistune's inline rule for a GFM extended autolink, ended the way cmark-gfm ends it."""
    start = m.start()
    end = url_end(state.src, start)
    if end < 0:
        inline.process_text(m.group(0), state)
        return m.end()
    if state.brackets or state.in_link or emphasis.no_bare_urls(state) or state.depth >= inline.max_nested_level:
        # cmark-gfm links no bare URL while a `[` is open
        inline.process_text(m.group(0), state)
        return m.end()
    text = state.src[start:end]
    # cmark-gfm keeps a bare URL as written: `&amp;` in it is no entity
    url = "http://" + text if text.startswith("www") else text
    split_underscores_before(state.tokens)
    state.append_token(
        {"type": "link", "children": [{"type": "text", "raw": text, "_literal": True}], "attrs": {"url": url}, "_autolink": text}
    )
    return end


_CLOSERS_RE = re.compile(r"\]+")
# a `[^label]` that is text as written (no entity decoded); its own token type, as mistune
# merges text tokens and their flags away
FOOTNOTE_LABEL = "footnote_label"


def _footnote_label_closes(state: Any, q: int) -> bool:
    """Whether the `]` at state.src[q] ends a `[^label]` (the `[` open before it active, its
    text `^` and more) that makes no link or image."""
    opener = state.brackets[-1]
    if not opener.active or (state.in_link and not opener.image):
        return False
    if q - opener.start < 2 or state.src[opener.start] != "^":
        return False
    return not emphasis.link_at(state, opener, q)


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

    def parse_link_close(self, m: Any, state: Any) -> Any:
        q = m.start()
        if not state.brackets or not _footnote_label_closes(state, q):
            return super().parse_link_close(m, state)
        # `[^…]` that makes no link is a footnote reference for cmark-gfm, and one to a label
        # nothing defines is its source as text: no tag, autolink, emphasis or entity in it
        # (`[^<span id="s1">]` is no anchor)
        opener = state.brackets.pop()
        if not opener.image:
            state.last_link = opener.previous_link
        at = opener.token_index
        raw = state.tokens[at]["raw"] + state.src[opener.start : q + 1]
        del state.tokens[at:]
        state.append_token({"type": FOOTNOTE_LABEL, "raw": raw})
        rest = _CLOSERS_RE.match(state.src, q + 1, m.end())
        return super().parse_link_close(rest, state) if rest else q + 1

    def finalize_tokens(self, tokens: list[dict[str, Any]], depth: int) -> list[dict[str, Any]]:
        if emphasis.mistune_reads_alike(tokens):
            return super().finalize_tokens(tokens, depth)  # the common case, and faster
        remaining = self.max_nested_level - depth
        return emphasis.finalize(tokens, "emphasis" in self.rules and remaining > 0, remaining)

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


_FOOTNOTE_DEF = r"^ {0,3}\[\^[^\]\s]+\]:[^\n]*(?:\n|$)"
# a line, not indented, that ends a footnote definition: any block start but a setext underline
# and indented code (cmark-gfm starts even an empty item, `2.` or a tag of type 7 on a line the
# definition does not hold; HTML blocks are tested apart)
_FOOTNOTE_END_RE = re.compile(
    r"[ \t]{0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|```|~~~|"
    r"(?:[-*_][ \t]*){3,}$|\[\^[^\]\s]+\]:)"
)


def _parse_footnote_def(block: Any, m: Any, state: Any) -> int:
    """`[^1]: …` and its continuation lines: a footnote definition, which GitHub renders at the
    end of the document.  Like a list item, it holds blocks: the text after `]:`, the lines
    indented by four (blank lines between them included) and lazy lines that continue its
    paragraph; never a reference definition of itself."""
    end = _footnote_extent(state.src, m.end())
    child = _footnote_content(state, m.start(), end)
    try:
        block.parse(child)
        cut, stopped = _first_cut([child]), False
    except _Cut as exc:
        cut, stopped = exc.line, True
    if cut is not None and _spend(state, end - m.start(), force=stopped):
        end = state.starts[cut - state.line_base]
        child = _footnote_content(state, m.start(), end)
        block.parse(child)
    # whether anything refers to it is known once the whole document is parsed
    state.append_token({"type": "footnote", "children": child.tokens, "_label": _footnote_label(m.group(0))})
    state.env[_FOOTNOTES] = True
    return end


def _footnote_extent(src: str, pos: int) -> int:
    """Where the lines a footnote definition may hold end (its first line ends at `pos`)."""
    end = pos
    n = len(src)
    while end < n:
        line_end = src.find("\n", end)
        line_end = n if line_end < 0 else line_end
        line = src[end:line_end]
        nxt = min(n, line_end + 1)
        if not line.strip():
            # blank lines: the definition goes on only if an indented line follows them
            j = nxt
            while j < n:
                k = src.find("\n", j)
                k = n if k < 0 else k
                if src[j:k].strip():
                    break
                j = min(n, k + 1)
            k = src.find("\n", j)
            if j < n and has_continuation_indent(src[j : n if k < 0 else k], 4):
                end = j
                continue
            break
        if not has_continuation_indent(line, 4) and (
            _FOOTNOTE_END_RE.match(line) or _HTML_1_TO_6_RE.match(line) or _HTML_7_RE.match(line)
        ):
            break
        end = nxt
    return end


def _footnote_content(state: _PosState, start: int, end: int) -> _PosState:
    """The child state of the footnote definition at `start` holding its lines up to `end`:
    the first without `[^label]:`, indented ones without four columns, lazy ones as written."""
    lines = state.src[start:end].split("\n")
    first = lines[0]
    out = [first[first.index("]:") + 2 :].lstrip(" \t")]
    base = state.orig_line(start)
    lazy_lines: list[int] = []
    lazy_starts: set[int] = set()
    off = len(out[0]) + 1
    for i, line in enumerate(lines[1:], 1):
        if has_continuation_indent(line, 4):
            line = strip_continuation_indent(line, 4)
        elif line.strip():
            lazy_lines.append(base + i)
            lazy_starts.add(off)
        out.append(line)
        off += len(line) + 1
    saved = state._pending_base
    state._pending_base = base
    child = state.child_state("\n".join(out), lazy_line_starts=lazy_starts or None)
    state._pending_base = saved
    child.lazy_lines = lazy_lines
    return child


_FOOTNOTE_REF_RE = re.compile(r"\[\^([^\]\s]+)\](?!:)|`+")
_FOOTNOTES = "_drafterlint_footnotes"  # in the parse's env: a footnote definition was seen


def _footnote_label(line: str) -> str:
    return unikey(line[line.index("[^") + 2 : line.index("]:")])


def _drop_unreferenced_footnotes(tokens: list[dict[str, Any]]) -> None:
    """GitHub renders a footnote definition only if the document refers to it (`[^label]` in
    text, not in code or HTML), and only the first of those with one label: what the others
    hold is not on the page."""
    refs: set[str] = set()
    notes: list[dict[str, Any]] = []
    stack = list(reversed(tokens))
    while stack:  # in document order
        tok = stack.pop()
        if tok["type"] == "footnote":
            notes.append(tok)
        text = tok.get("text")
        if isinstance(text, str) and "[^" in text:
            refs.update(_footnote_refs_in(text))
        stack.extend(reversed(tok.get("children") or ()))
    seen: set[str] = set()
    for tok in notes:
        if tok["_label"] not in refs or tok["_label"] in seen:
            tok["type"] = "unrendered_footnote"
            tok["children"] = []
        seen.add(tok["_label"])


def _footnote_refs_in(text: str) -> set[str]:
    """The labels `text` refers to, outside code spans (an odd count of backtick runs before a
    reference puts it in one: close enough for a footnote's label in a code span)."""
    out = set()
    runs = 0
    for m in _FOOTNOTE_REF_RE.finditer(text):
        if m.group(1) is None:
            runs += 1
        elif runs % 2 == 0 and not _in_bare_url(text, m.start()):
            out.add(unikey(m.group(1)))
    return out


_URL_START_RE = re.compile(URL_START)


def _in_bare_url(text: str, pos: int) -> bool:
    """Whether text[pos] is inside a bare URL (`https://e.org/x[^1]` links `…x[^1]`: no
    footnote is referred to)."""
    k = max(text.rfind(" ", 0, pos), text.rfind("\t", 0, pos), text.rfind("\n", 0, pos)) + 1
    m = _URL_START_RE.search(text, k, pos)
    if m is None:
        return False
    if m.start() and text[m.start() - 1] == "<":  # `<http://x>[^1]`: an autolink ends at `>`
        e = text.find(">", m.start(), pos)
        return e < 0
    return url_end(text, m.start()) > pos


def _make_markdown() -> mistune.Markdown:
    md = mistune.Markdown(renderer=None, block=_PosBlockParser(), inline=_FastInline())
    _bounded_tables(md)
    try:  # mistune's strikethrough plugin, with cmark-gfm's pairing of `~` runs
        md.inline.register("strikethrough", emphasis.STRIKE_START, emphasis.parse_strikethrough,
                           before="link", start_chars=("~",))
    except TypeError:
        md.inline.register("strikethrough", emphasis.STRIKE_START, emphasis.parse_strikethrough, before="link")
    for name in (
        "mistune.plugins.table.table_in_quote",
        "mistune.plugins.table.table_in_list",
    ):
        md.use(mistune.plugins.import_plugin(name))
    md.block.register("footnote_def", _FOOTNOTE_DEF, _parse_footnote_def, before="setex_heading")
    for rules in (md.block.block_quote_rules, md.block.list_rules):  # in quotes and items too
        md.block.insert_rule(rules, "footnote_def", before="setex_heading")
    try:  # mistune 3.4 skips plain text up to a rule's first characters
        md.inline.register("url_link", URL_START, _parse_bare_url, start_chars=URL_FIRST)
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

# A line that ends a paragraph (cmark-gfm's block starts that may interrupt one, roughly: an
# ATX heading, a quote, a fence, a non-empty item, a break or underline, a tag)
_INTERRUPT_RE = re.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|$)|>|```|~~~|[-*+][ \t]+\S|1[.)][ \t]+\S|(?:[-*_][ \t]*){3,}$|=+[ \t]*$|-+[ \t]*$|<[A-Za-z/!?])"
)


_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")


def _table_ends_paragraph(state: Any, pos: int) -> bool:
    """Whether the paragraph that starts at `pos` ends with a table's header row: cmark-gfm then
    makes a paragraph of the lines before the header that keeps its reference definitions as
    text (`[r]: /u⏎|a|⏎|-|` shows `[r]: /u`, and `[r]` links nowhere).  One scan per paragraph:
    the definitions after the first in it reuse the answer."""
    end, verdict = state._table_scan
    if pos < end:
        return verdict
    src = state.src
    i, verdict = pos, False
    while True:
        j = src.find("\n", i)
        if j < 0:
            break
        k = src.find("\n", j + 1)
        k = len(src) if k < 0 else k
        following = src[j + 1 : k]
        if not following.strip():
            break
        line = src[i:j]
        cols = None if _SETEXT_LINE_RE.match(following) else tables.delimiter_cells(following)
        if cols is not None:
            # a delimiter row under a header of another width: the paragraph starts no table
            verdict = len(cols) == len(tables.split_row(line))
            if not verdict:
                state._table_visited = i
            break
        if _INTERRUPT_RE.match(following):
            break
        i = j + 1
    state._table_scan = (i + 1, verdict)
    return verdict


# The delimiter row (`|---|:-:|`), as a cheap first test: one character class, no nesting, so
# linear on any line.
_DELIMITER_ROW_RE = re.compile(r"[ \t|:-]*\n?")


_NP_TABLE_PATTERN = (
    r"^ {0,3}(?:(?=[^\n]*\|)\S[^\n]*(?:\n|$)|\S[^\n]*\n(?=[ \t]*[|:-][ \t|:-]*(?:\n|$)))"
)


_NP_TABLE_RE = re.compile(_NP_TABLE_PATTERN, re.M)


def _bounded_tables(md: mistune.Markdown) -> None:
    """GitHub's tables (tables.py) for mistune's two table rules, behind the document's cell
    budget."""
    from mistune.plugins import table as _table

    md.use(_table.table)
    # (a header row needs no `|` (`a⏎-|` is a table), mistune's no-leading-pipe rule wants two)
    for name, pattern in (("table", _table.TABLE_PATTERN), ("nptable", _NP_TABLE_PATTERN)):
        md.block.register(name, pattern, _table_rule, before="paragraph")


def _line_end(src: str, pos: int) -> int:
    j = src.find("\n", pos)
    return len(src) if j < 0 else j + 1


def _table_rule(block: Any, m: Any, state: Any) -> Any:
    """A table, unless it would take the document over its cell budget: then one
    `table_skipped` token stands for the whole table."""
    src = state.src
    delimiter = m.end()  # mistune's match is the header line
    body = _line_end(src, delimiter)
    if _DELIMITER_ROW_RE.fullmatch(src, delimiter, body) is None or _SETEXT_LINE_RE.match(src, delimiter, body):
        return None  # (`---` underlines the header line: a setext heading comes first)
    if delimiter in state.lazy_line_starts:
        return None  # a lazy line continues a paragraph (`- a⏎-|`)
    cols = tables.delimiter_cells(src[delimiter:body])
    if cols is None:
        return None
    last = state.last_token()
    visited = state._table_visited
    if (0 <= visited < m.start() and last is not None and last["type"] == "paragraph"
            and _BLANK_LINE_RE.search(src, visited, m.start()) is None):
        return None  # a paragraph that failed to start a table starts none (cmark-gfm)
    if len(cols) != len(tables.split_row(m.group(0))):
        state._table_visited = m.start()
        return None
    end = tables.body_end(src, body, state.cursor_max)
    rows = 1 + src.count("\n", body, end) + (end > body and src[end - 1] != "\n")
    cells = len(cols) * rows
    left = state.env.get(_CELLS_LEFT, MAX_TABLE_CELLS)
    if cells > left:
        state.append_token({"type": "table_skipped", "_cells": cells, "_limit": MAX_TABLE_CELLS, "_stop": end})
        return end
    state.env[_CELLS_LEFT] = left - cells
    token = tables.table_token(m.group(0), src[delimiter:body], src[body:end])
    if token is None:
        return None
    state.append_token(token)
    return end


_MD: mistune.Markdown | None = None


def _markdown() -> mistune.Markdown:
    global _MD
    if _MD is None:
        _MD = _make_markdown()
    return _MD

