"""Block positions: mistune's block parser, with every block token pinned to where it starts.

A `BlockState` subclass records, on every block token, the state and the offset in that state's
source (`cursor`) where the block starts.  Block quotes and list items are parsed by mistune from
*child sources* that keep exactly one line per source line (prefixes such as ``> `` or the list
indentation stripped), so each state knows the original line of its first line (`line_base`); an
offset in a child state maps to an original line by counting lines, and to a column by aligning
the child line with the original line (the child line is the original line minus a prefix).
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
from mistune.helpers import parse_link_href, unescape_char
from mistune.util import unikey

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


def _parse_list_item_with_position(block, bullet, item, token, state, rules):
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

