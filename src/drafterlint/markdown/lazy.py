"""Lazy continuation lines: a list item's, a quote's or a footnote definition's lines judged as
cmark-gfm judges them, and the container parsed again up to the first line it does not take
(`parse_cut_at_lazy_line`, the one mechanism the three containers share)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from drafterlint.markdown._mistune import (
    BLOCK_QUOTE_LINE,
    Checkpoint,
    cursor,
    env_get,
    env_set,
    parse_up_to,
    root_source,
    src_of,
    tokens_of,
)
from drafterlint.markdown.model import line_starts
from drafterlint.markdown.positions import PosState
from drafterlint.markdown.table_rule import CELLS_LEFT

# --------------------------------------------------------------------------------------------
# lazy continuation lines

# mistune takes into a list item or a block quote every line that starts no block able to
# interrupt a paragraph; cmark-gfm (GitHub) takes such a lazy line only when it continues a
# paragraph: after an HTML block, a heading, code or an empty item, the line closes the
# container.  The container is parsed as mistune does, its lazy lines checked against its
# blocks, and if one continues no paragraph, parsed again up to that line (the rest is then
# read outside the container).  Parsing again is bounded by a budget per document (in
# characters, twice the document and a floor), so nested containers each cut cannot cost more
# than that.  The floor keeps a short document exact: a cut inside a cut is charged twice, and
# twice a short document is soon spent (`> - w⏎[^2]: n⏎> x⏎[^1]: n` left no budget for the
# second quote's cut); a constant leaves the bound linear.
_REPARSE_LEFT = "_drafterlint_reparse_left"
_REPARSE_FLOOR = 65_536
# Set in the env once the budget refused a parse: what was parsed then depends on the budget
# left, which a sectioned parse (sections.py) must know to reuse nothing parsed under it.
REPARSE_REFUSED = "_drafterlint_reparse_refused"
# The first line (original numbering) whose reading the spent budget left as mistune's: a lazy
# line that continues no paragraph and that GitHub's parser would end its container at. The
# document says so (parse.parse_document: a DL702 note), as for a table over the cell budget.
REPARSE_REFUSED_AT = "_drafterlint_reparse_refused_at"
REPARSE_LEFT = _REPARSE_LEFT  # the budget's key, for a parse that starts with some of it spent


def reparse_budget(text: str) -> int:
    """The budget a parse of the document `text` starts with (the same for every pass and for
    every section of it, whatever its container tabs become)."""
    return 2 * (len(text) + (not text.endswith("\n"))) + _REPARSE_FLOOR

R = TypeVar("R")


def parse_cut_at_lazy_line(
    state: PosState,
    parse: Callable[[int | None], R],
    cut_in: Callable[[R], int | None],
    cost: Callable[[int], int],
) -> R:
    """Parse a container (a list, a block quote, a footnote definition) of `state`, and again up
    to its first lazy line that continues no paragraph, while the document's budget lasts.

    `parse(None)` parses the container with all the lines mistune gives it; the line to cut at
    is found during that parse (`judge_lazy_lines` stops it there) or after it, in its result
    (`cut_in`).  `parse(line)` parses the container up to original line `line`, at a price of
    `cost(line)` characters (charged even over the budget when the first parse was stopped: it
    must be done again)."""
    try:
        result = parse(None)
    except _Cut as exc:
        _spend(state, cost(exc.line), force=True)
        return parse(exc.line)
    cut = cut_in(result)
    if cut is not None and _spend(state, cost(cut), line=cut):
        return parse(cut)
    return result


def unmarked_quote_lines(state: PosState, base: int, nlines: int) -> list[int]:
    """Original line numbers of the lines of a block quote without their `>` (lazy lines)."""
    out = []
    first = base - state.line_base
    for k in range(first + 1, min(first + nlines, len(state.starts))):
        _, line = state.line_text(state.starts[k])
        if not BLOCK_QUOTE_LINE.match(line):
            out.append(state.line_base + k)
    return out


def first_cut(children: list[PosState]) -> int | None:
    """The first original line, among the lazy lines of these container contents (in order),
    that continues no paragraph begun on an earlier line."""
    for child in children:
        for line in child.lazy_lines[child.lazy_judged :]:
            if not _continues_paragraph(tokens_of(child), line):
                return line
    return None


# Blanks put before a quote's indented lazy line: more than every container inside the quote
# can take away, so that each reads it as indented (see deep_lazy_lines).
_LAZY_PAD = " " * 64


def deep_lazy_lines(text: str, lazy: set[int]) -> tuple[str, set[int]]:
    """A quote's text with each lazy line indented by four columns or more padded further.
    cmark-gfm judges a lazy line against the document, where so indented a line starts no block
    that may interrupt a paragraph: it continues the quote's innermost paragraph.  The
    containers inside the quote (an item) would take it for an indented line of their own and
    read a block there (`> - a<!--⏎    <!-- x -->`: an HTML block).  Padded, it is indented code
    for each of them, which interrupts no paragraph either (a paragraph's text drops the blanks;
    a line that continues none is cut by the lazy lines' judge)."""
    out: list[str] = []
    moved: set[int] = set()
    new = 0  # where each line starts in the result
    # The parser's lines (its text ends them at "\n" only): str.splitlines would also end one at
    # \x0b, \x0c, \x1c-\x1e, \x85, U+2028 or U+2029, and leave a lazy line holding one after its
    # blanks unpadded (and its re-parses charged less than the same line holding other text).
    starts = line_starts(text)
    for pos, end in zip(starts, [*starts[1:], len(text)]):
        line = text[pos:end]
        if not line:
            break  # (after the last "\n")
        if pos in lazy:
            moved.add(new)
            if line.strip() and len(line) - len(line.lstrip(" ")) >= 4:
                line = _LAZY_PAD + line
        out.append(line)
        new += len(line)
    return "".join(out), moved


def _definitions_only_end(items: list[PosState]) -> int | None:
    """The first original line where a list item holding only reference definitions so far
    ends: cmark-gfm takes them out of the item when a blank line closes their paragraph, and
    an item with no block left ends at the next blank line (`- [r]: /x⏎⏎⏎    # T` is code
    after the list).  mistune keeps collecting the item's lines."""
    for child in items:
        lines = src_of(child).split("\n")
        if not lines or not lines[0].strip():
            continue  # an item that starts empty: mistune ends it at its blank line itself
        starts = sorted(
            t["_p"][0].orig_line(t["_p"][1]) if "_p" in t else -1
            for t in tokens_of(child)
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


def judge_lazy_lines(state: PosState, done: bool = False) -> None:
    """Stop the parse (raise _Cut) at the first lazy line of `state` (a container's content)
    that its parse has passed (all, once `done`) and that continues no paragraph, while the
    document's budget lasts."""
    lines = state.lazy_lines
    i = state.lazy_judged
    if i >= len(lines):
        return
    spent = env_get(state, _REPARSE_LEFT, 1) <= 0
    if spent and env_get(state, REPARSE_REFUSED_AT) is not None:
        return  # (the document already says where its reading stopped following GitHub's)
    here = lines[-1] + 1 if done else state.orig_line(cursor(state))
    while i < len(lines) and lines[i] < here:
        if not _continues_paragraph(tokens_of(state), lines[i]):
            if not spent:
                raise _Cut(lines[i])
            _refuse(state, lines[i])
            return
        i += 1
    state.lazy_judged = i


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
        first: int = last.get("_def_line", at)
        text: str = last["text"]
        return first < line <= at + text.rstrip("\n").count("\n")
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


def _spend(state: PosState, cost: int, force: bool = False, line: int | None = None) -> bool:
    """Take `cost` characters from the document's budget for parsing again, if it has them (or
    if `force`: a parse stopped by _Cut must be done again); refused, the container is left as
    mistune read it past its lazy line `line`."""
    left = env_get(state, _REPARSE_LEFT)
    if left is None:
        left = 2 * len(root_source(state)) + _REPARSE_FLOOR
    if cost > left and not force:
        env_set(state, _REPARSE_LEFT, left)
        _refuse(state, line)
        return False
    env_set(state, _REPARSE_LEFT, left - cost)
    return True


def _refuse(state: PosState, line: int | None) -> None:
    """Record that the budget left a container as mistune read it, from its lazy line `line`
    (the first such line of the document is the one it names)."""
    env_set(state, REPARSE_REFUSED, True)
    if line is not None and env_get(state, REPARSE_REFUSED_AT) is None:
        env_set(state, REPARSE_REFUSED_AT, line)


class InPlace(Generic[R]):
    """A container parsed in its parent's state (a list, a block quote) by `parse_once`: what
    that parse changed in the state is undone before the container is parsed again up to a
    line."""

    def __init__(self, state: PosState, parse_once: Callable[[], R]):
        self.state = state
        self.parse_once = parse_once
        # (the table cells a parse spends are given back with it)
        self.before = Checkpoint(state, (CELLS_LEFT,))

    def run(self, cut_in: Callable[[R], int | None]) -> R:
        return parse_cut_at_lazy_line(self.state, self.parse, cut_in, self.cost)

    def cost(self, line: int) -> int:
        """Both parses are charged: the first read up to the state's cursor (a quote's lines
        are all collected before they are parsed), the second reads up to the line."""
        st = self.state
        cut = st.starts[line - st.line_base]
        return max(cursor(st), cut) + cut - 2 * self.before.position

    def parse(self, line: int | None) -> R:
        if line is None:
            return self.parse_once()
        st = self.state
        cut = st.starts[line - st.line_base]
        self.before.restore(st)
        st.open_block = None
        with parse_up_to(st, cut):
            return self.parse_once()


def list_cut(items: list[PosState]) -> int | None:
    """Where a list's items (their child states, in order) must end: at the first lazy line
    that continues no paragraph, or the end of an item holding only definitions, the earlier."""
    cuts = [c for c in (first_cut(items), _definitions_only_end(items)) if c is not None]
    return min(cuts, default=None)
