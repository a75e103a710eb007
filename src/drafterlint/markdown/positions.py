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

from drafterlint import lazyre
from drafterlint.markdown._mistune import (
    HookedBlockState,
    compile_continue_width,
    cursor,
    has_continuation_indent,
    last_block,
    lazy_line_starts,
    new_child_state,
    parent_state,
    set_lazy_line_starts,
    src_of,
    strip_continuation_indent,
    tokens_of,
)
from drafterlint.markdown.model import line_starts
from drafterlint.markdown.patterns import LIST_LINE_RE, LIST_MARKER_RE, TASK_BOX_RE, TASK_LINE_RE

# --------------------------------------------------------------------------------------------
# mistune with positions


# What CommonMark counts as blank (not Python's str.strip: a no-break space is text).
_BLANKS = " \t\n\r\f\v"


def unicode_blank(text: str) -> bool:
    """Whether `text` is blank for Python (str.isspace) but not for CommonMark."""
    return not text.strip() and bool(text.strip(_BLANKS))

# The blanks, `>` and list markers a line's containers start with (and the blanks after them).
_CONTAINER_PREFIX_RE = lazyre.compile(r"(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*", re.M)


def expand_container_tabs(text: str, text_from: dict[int, int] | None = None) -> tuple[str, dict[int, str]]:
    """`text` with each tab among the blanks and markers that start a line (its containers'
    prefix) replaced by the spaces to the next multiple of four columns, and the lines changed
    (by number).  CommonMark reads a tab there as those spaces; mistune expands only a tab
    right after `>` or a marker, as if it stood at the line's first columns (`>   ⇥# h` is
    code for GitHub, a heading for mistune).  A tab after the prefix stays, and so does one
    at or after `text_from[line]` (an index in the line): where a paragraph's text starts
    on a line whose "markers" are no container (`a⏎2) ⇥b`: an ordered list starting at 2
    interrupts no paragraph), the tab is text, kept as written."""
    if "\t" not in text:
        return text, {}
    lines = text.split("\n")
    changed = {}
    for n, line in enumerate(lines):
        if "\t" not in line:
            continue
        end = _CONTAINER_PREFIX_RE.match(line).end()  # type: ignore[union-attr]
        if text_from is not None and n + 1 in text_from:
            end = min(end, text_from[n + 1])
        if "\t" in line[:end]:
            lines[n] = changed[n + 1] = line[:end].expandtabs(4) + line[end:]
    return "\n".join(lines), changed


def unexpanded_index(orig: str, expanded: str, at: int) -> int:
    """The index in `orig` of what stands at index `at` of `expanded`, the line whose container
    tabs `expand_container_tabs` made spaces (inside a tab's spaces: the tab)."""
    # orig[:end] is what was expanded: past the last tab whose expansion the line shows
    end = max((t + 1 for t, c in enumerate(orig)
               if c == "\t" and orig[: t + 1].expandtabs(4) + orig[t + 1 :] == expanded), default=0)
    col = 0
    for i, c in enumerate(orig):
        if col >= at:
            return i
        nxt = (col // 4 + 1) * 4 if c == "\t" and i < end else col + 1
        if at < nxt:
            return i
        col = nxt
    return len(orig) + at - col


def _index_at_column(line: str, column: int) -> int:
    """The index in `line` of the character that stands at `column` (from 0) once its tabs
    are expanded to multiples of four."""
    col = 0
    for i, c in enumerate(line):
        if col >= column:
            return i
        col = (col // 4 + 1) * 4 if c == "\t" else col + 1
    return len(line)


def text_expanded(tokens: list[dict[str, Any]], expanded: dict[int, str], orig: list[str]) -> dict[int, int]:
    """The lines whose container tabs `expand_container_tabs` expanded inside a paragraph's or
    heading's text, each with the index in the original line where that text starts: parsed
    again expanding only before it, the text keeps its tabs as written (and its anchor, its
    prose pieces, their columns).  Empty in the common case: no parse again."""
    out: dict[int, int] = {}
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        children = tok.get("children")
        if children:
            stack.extend(children)
        pos = tok.get("_p")
        if pos is None or tok.get("type") not in ("paragraph", "block_text", "heading"):
            continue
        st, a = pos
        text = tok.get("text")
        b = a + len(text) if isinstance(text, str) else st.line_text(a)[0] + len(st.line_text(a)[1])
        for i in range(st.line_index(a), st.line_index(max(a, b - 1)) + 1):
            line = st.line_base + i
            exp = expanded.get(line)
            if exp is None or not 1 <= line <= len(orig):
                continue
            start = st.starts[i]
            src = src_of(st)
            child = src[start : st.starts[i + 1] - 1 if i + 1 < len(st.starts) else len(src)]
            rest = child[max(a - start, 0) :]
            # where the text starts in the line as parsed
            at = st.aligned(i, exp) + len(child) - len(rest.lstrip(" \t"))
            if at < _CONTAINER_PREFIX_RE.match(exp).end():  # type: ignore[union-attr]
                k = _index_at_column(orig[line - 1], at)
                out[line] = min(out.get(line, k), k)
    return out


class _MarkerLine:
    """A list item's marker line in `state`'s source, read once for what opening its child state
    asks of it: where it starts, its text, its match by mistune's list rule (LIST_LINE_RE) and
    the indentation the item's continuation lines need (as mistune's list rule computes it)."""

    __slots__ = ("start", "text", "match", "width")

    def __init__(self, state: "PosState", off: int) -> None:
        self.start, self.text = state.line_text(off)
        m = self.match = LIST_LINE_RE.match(self.text)
        self.width = 0 if m is None else compile_continue_width(m.group(3), len(m.group(1)) + len(m.group(2)))[1]


class PosState(HookedBlockState):
    """A block state that remembers where each block token starts, in original lines."""

    line_base: int
    orig: list[str]

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.line_base = 1
        self.orig = parent.orig if parent is not None else []
        # Every state of one parse, the document's first (see release).
        self.family: list[PosState] = parent.family if parent is not None else []
        self.family.append(self)
        self._starts: list[int] | None = None
        self._end = 0  # the source's length, once `starts` are made
        # A container's state: its lines stand at a column offset within the document's lines.
        self._nested = parent is not None
        # That offset for each line index positions were asked on, with its original line (a
        # parse asks for the same line's many times: each piece of its prose, each table cell).
        self._offsets: dict[int, tuple[int, int]] = {}
        self._pending_base: int | None = None
        # Offsets of the marker lines of the list being parsed in this state (see parse_list).
        self.item_marks: list[int] | None = None
        # The last code or HTML block appended, until the next block shows where it ended.
        self.open_block: dict[str, Any] | None = None
        # The child states of the items of the list being parsed in this state.
        self.item_states: list[PosState] | None = None
        # Original line numbers of this container's lazy lines (see lazy.first_cut).
        self.lazy_lines: list[int] = []
        # How many of `lazy_lines` are known to continue a paragraph (see lazy.judge_lazy_lines).
        self.lazy_judged = 0
        # Lists and quotes being collected in this state: their tokens are not there yet.
        self.collecting = 0
        # Whether a reference definition left an open paragraph token (see parse_ref_link).
        self.defs_open = False
        # Where the last paragraph scanned for a table header ends, and whether one ends it.
        self.table_scan = (-1, False)
        # The header line of the last table that failed to start (a delimiter row of another
        # width): its paragraph starts no table after it.
        self.table_visited = -1
        # A task item's: its first line is paragraph text, whatever it starts with (see _task).
        self.task_text = False
        # The document's lines whose container tabs became spaces, as parsed (by line number;
        # see expand_container_tabs): positions are aligned with them, then shifted back.
        self.expanded: dict[int, str] = parent.expanded if parent is not None else {}

    def release(self) -> None:
        """Forget what every state of this parse holds, once its tokens are read. A token knows
        its state (`_p`) and a state its tokens, its parent and the env: each parse leaves
        reference cycles, which only the cyclic collector (off on the command line) frees,
        and its pass scans every object the parse left alive, the document's model too.
        Emptied, the states hold nothing and reference counting frees the parse as it goes."""
        for st in self.family:
            st.__dict__.clear()

    # -- positions ------------------------------------------------------------------------

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            src = src_of(self)
            self._starts = line_starts(src)
            self._end = len(src)  # (read with the starts: the source stays as they were made of it)
        return self._starts

    # (the calls below are the parse's most frequent: they read `_starts` once made, which
    # the property above would cost a call each time to give)

    def line_index(self, off: int) -> int:
        return bisect_right(self._starts or self.starts, off) - 1

    def orig_line(self, off: int) -> int:
        return self.line_base + bisect_right(self._starts or self.starts, off) - 1

    def position(self, off: int) -> tuple[int, int]:
        """(line, column) in the original file of offset `off` of this state's source."""
        # (the parse's most frequent call: each piece of prose, each link and cell)
        starts = self._starts or self.starts
        end = self._end
        off = 0 if off < 0 else end if off > end else off
        i = bisect_right(starts, off) - 1
        line = self.line_base + i
        col = off - starts[i]
        if self.expanded:
            expanded = self.expanded.get(line)
            if expanded is not None and 1 <= line <= len(self.orig):
                # a column of the line as parsed, its container tabs spaces: back to the
                # character written there (a tab among the markers stands for one to four columns)
                return line, 1 + unexpanded_index(self.orig[line - 1], expanded, col + self.aligned(i, expanded))
        elif not self._nested:
            return line, col + 1  # the document's own line
        return line, max(1, col + 1 + self.col_offset(i, line))

    def col_offset(self, i: int, line: int) -> int:
        known = self._offsets.get(i)
        if known is not None and known[0] == line:
            return known[1]
        offset = self._col_offset(i, line)
        self._offsets[i] = (line, offset)
        return offset

    def _col_offset(self, i: int, line: int) -> int:
        expanded = self.expanded.get(line) if self.expanded else None
        if expanded is None:
            if parent_state(self) is None or not 1 <= line <= len(self.orig):
                return 0
            return self.aligned(i, self.orig[line - 1])
        # the line as parsed had spaces for its container tabs: align with it, then shift back
        return self.aligned(i, expanded) + len(self.orig[line - 1]) - len(expanded)

    def aligned(self, i: int, o: str) -> int:
        """The column offset of line `i` of this state's source within `o`, the document's line."""
        starts = self.starts
        src = src_of(self)
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(src)
        child = src[starts[i] : end]
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
        starts = self._starts or self.starts
        i = bisect_right(starts, off) - 1
        src = src_of(self)
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(src)
        return starts[i], src[starts[i] : end]

    # -- hooks ----------------------------------------------------------------------------

    def open_child(self, src: str, lazy_starts: Any = None) -> "PosState":
        task_text = False
        marks = self.item_marks
        # A list item's marker line, read once for all that follows (mistune has collected the
        # item's lines, so the cursor is past the marker line of the next item, if any; the
        # last mark is this item's marker).
        marker = _MarkerLine(self, marks[-1]) if self._pending_base is None and marks else None
        if marker is not None and not lazy_starts:
            src = self._unicode_blanks_back(src, marker)
            src, task_text = self._task(src)
        child = new_child_state(self, src, lazy_starts)
        assert isinstance(child, PosState)
        child.task_text = task_text
        if self._pending_base is not None:  # a block quote's
            child.line_base = self._pending_base
            self._pending_base = None
        elif marks is not None:
            # A list item's.
            assert marker is not None
            marker_off, marker_text = marks[-1], marker.text
            child.line_base = self.orig_line(marker_off)
            m = LIST_MARKER_RE.match(marker_text)
            if m is not None and not marker_text[m.end() :].strip(_BLANKS):
                child.line_base += 1  # "-\n  foo": the item's content starts on the next line
            marks.append(self.starts[self.line_index(max(0, cursor(self) - 1))])
            self._mark_lazy_lines(child, marker)
            if self.item_states is not None:
                self.item_states.append(child)
        else:
            child.line_base = self.orig_line(cursor(self))
        return child

    def child_at(self, src: str, line: int, lazy_starts: Any = None) -> PosState:
        """A child state whose source starts at original line `line` (a block quote's, a
        footnote definition's): never a list item's, even while a list is collected here."""
        saved = self._pending_base  # a list item being collected may be waiting for its child
        self._pending_base = line
        child = self.open_child(src, lazy_starts)
        self._pending_base = saved
        return child

    def _unicode_blanks_back(self, src: str, marker: "_MarkerLine") -> str:
        """A list item's source as mistune built it, with what Python's whitespace took from it
        put back: a first line holding only a Unicode space (a no-break space: text for
        cmark-gfm; mistune reads the item as starting empty) and the last lines holding only
        blanks with a Unicode space among them (mistune's strip_end drops them)."""
        m = marker.match
        if m is None:
            return src
        at = self.line_index(marker.start)
        rest = m.group(3)
        if unicode_blank(rest):
            src = rest.lstrip(" \t") + "\n" + src
        elif not rest.strip(_BLANKS):
            at += 1  # the item's content starts on the next line
        if src and not src.endswith("\n"):
            return src  # (nothing was stripped)
        width = marker.width
        last = self.line_index(max(0, cursor(self) - 1))
        back: list[str] = []
        kept = 0
        for k in range(at + src.count("\n"), last + 1):
            line = self.line_text(self.starts[k])[1]
            if line.strip():
                break  # (the next item's marker line)
            back.append(strip_continuation_indent(line, width) if has_continuation_indent(line, width) else line)
            if unicode_blank(line):
                kept = len(back)
        return src + "".join(x + "\n" for x in back[:kept])

    def _task(self, src: str) -> tuple[str, bool]:
        """A list item's source without its task-list checkbox, and whether the rest of that
        line is paragraph text.  GitHub takes `[ ]`, `[x]` or `[X]` after the item's marker for
        a checkbox only where the marker is the first thing on the line (not after `> ` or
        another marker: cmark-gfm matches the whole line), and the rest of the line is then
        paragraph text, never a block start (`- [x] # a` is no heading); like any paragraph
        it may start with reference definitions."""
        marker_off = self.item_marks[-1] if self.item_marks else 0
        line = self.orig_line(marker_off)
        if not 1 <= line <= len(self.orig) or not TASK_LINE_RE.match(self.orig[line - 1]):
            return src, False
        nl = src.find("\n")
        first = src if nl < 0 else src[:nl]
        m = TASK_BOX_RE.match(first)
        if m is None:
            return src, False
        rest = first[m.end() :]
        return rest + src[len(first) :], bool(rest) and (not rest.startswith("[") or rest.startswith("[^"))

    def _mark_lazy_lines(self, child: "PosState", marker: "_MarkerLine") -> None:
        """Tell mistune which lines of a list item are lazy continuation lines (indented less
        than the item's content, as mistune collected them), as it does for block quotes: no
        setext underline there.  They are kept (`lazy_lines`) to check they continue a
        paragraph, the only thing a lazy line may do."""
        first = child.line_base - self.line_base
        m = marker.match
        if m is None or not 0 <= first < len(self.starts) or not src_of(child).strip(_BLANKS):
            return
        width = marker.width
        lazy = set(lazy_line_starts(child) or ())
        lines: list[int] = []
        # after an empty marker line (`-`), the item's first line may be lazy as well
        skip = 1 if m.group(3).strip(_BLANKS) else 0
        nlines = src_of(child).rstrip("\n").count("\n") + 1
        for i, start in enumerate(child.starts[skip:nlines], skip):
            k = first + i
            if k >= len(self.starts):
                break
            _, line = self.line_text(self.starts[k])
            if line.strip(_BLANKS) and not has_continuation_indent(line, width):
                lazy.add(start)
                lines.append(self.line_base + k)
        if lazy:
            set_lazy_line_starts(child, lazy)
        child.lazy_lines = lines

    def close_open_block(self, end: int | None = None) -> None:
        """The open code/HTML block (if any) ended at `end`, by default the cursor.

        Called when a block rule returns its end, where the next block starts (a rule's
        method, a paragraph or a token added by a fast path of mistune's own loop) and at the
        end of each state's parse: so positions need no parser internals."""
        tok = self.open_block
        if tok is not None:
            self.open_block = None
            tok.setdefault("_end", cursor(self) if end is None else end)

    def add_block(self, token: dict[str, Any]) -> None:
        self.close_open_block()
        if "_p" not in token and token["type"] not in ("list", "block_quote"):
            token["_p"] = (self, cursor(self))
        if token["type"] in ("block_code", "block_html"):
            self.open_block = token
        tokens_of(self).append(token)

    def add_paragraph_text(self, text: str) -> None:
        self.close_open_block()
        last = last_block(self)
        if last and last["type"] == "paragraph":
            last["text"] += text
        else:
            tokens_of(self).append({"type": "paragraph", "text": text, "_p": (self, cursor(self))})
