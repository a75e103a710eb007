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

The work is split by concern: `blocks` (block positions, mistune's block parser), `inline`
(inline positions and rendered text), `htmlattrs` (explicit anchors, `<a href>`, comments),
`prose` (each block's text and where its pieces are written, for rules that look for words),
`slug` (GitHub's heading anchors), `headings` (numbers, anchors and sections once all are found),
`comments` (suppression comments, the lines comments cover), `limits` (the documents refused
before parsing); this module walks the tokens and builds the `Document`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from itertools import chain
from operator import attrgetter
from typing import Any

from drafterlint import lazyre
from drafterlint.markdown._mistune import env_get, env_set, ref_links, src_of, start_source, tokens_of
from drafterlint.markdown.blocks import markdown_parser
from drafterlint.markdown.comments import comment_lines, suppressions
from drafterlint.markdown.escapes import unescaped_pipes
from drafterlint.markdown.headings import RawHeading, finish_headings
from drafterlint.markdown.htmlattrs import (
    RawHtml,
    anchors_in,
    comment_spans,
    headings_in,
    hrefs_in,
)
from drafterlint.markdown.inline import Aligner, footnote_numbers, has_linkish, render
from drafterlint.markdown.lazy import REPARSE_LEFT, REPARSE_REFUSED_AT, reparse_budget
from drafterlint.markdown.limits import (
    MAX_BLOCK_LINES,
    MAX_BLOCKS,
    MAX_LINES,
    MAX_MARKUP,
    TooComplex,
    refuse_if_too_big,
)
from drafterlint.markdown.model import (
    LIMIT_LINE,
    Document,
    Link,
    ListBlock,
    ListItem,
    Paragraph,
    Prose,
    Quote,
    Table,
    TableCell,
    line_starts,
    new_cell,
    new_link,
    new_list_item,
    new_paragraph,
)
from drafterlint.markdown.positions import PosState, expand_container_tabs, text_expanded
from drafterlint.markdown.prose import prose, prose_and_text
from drafterlint.markdown.table_rule import CELLS_LEFT, MAX_TABLE_CELLS
from drafterlint.records import dataclass

__all__ = ["parse_document", "TooComplex", "MAX_MARKUP", "MAX_BLOCKS", "MAX_LINES", "MAX_BLOCK_LINES"]

_ALERT_RE = lazyre.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.I)


# --------------------------------------------------------------------------------------------
# the document builder


class Builder:
    """Walks the block tokens of a document, or of one section of it (sections.py), into the
    parts of the model (`Part`). `refs` are the document's reference definitions and `carry`
    the raw HTML state the blocks before leave open (`Builder.carry` once walked)."""

    def __init__(self, refs: Any = None, footnote_numbers: dict[str, int] | None = None,
                 carry: "Carry" = (False, ("", (0, 0)))):
        self.head_raw: list[RawHeading] = []
        self.links: list[Link] = []
        self.lists: list[ListBlock] = []
        self.tables: list[Table] = []
        self.quotes: list[Quote] = []
        self.paragraphs: list[Paragraph] = []
        self.prose: list[Prose] = []
        self.html_anchors: dict[str, int] = {}
        self.code_lines: set[int] = set()
        self.block_code_lines: set[int] = set()
        self.refs: Mapping[str, Any] = refs if refs is not None else {}
        self.limits: list[tuple[int, int, str]] = []
        self.footnote_numbers: dict[str, int] = footnote_numbers or {}  # each rendered footnote's number
        self.raw_html = RawHtml()  # the page's raw HTML so far, as one text
        self.raw_html.comment_open, (self.raw_html.carry, self.raw_html.started) = carry

    @property
    def carry(self) -> "Carry":
        """What the raw HTML so far leaves open: inside a comment, and a tag's text and start."""
        return self.raw_html.comment_open, (self.raw_html.carry, self.raw_html.started)

    def part(self) -> "Part":
        return Part(self.head_raw, self.links, [x for x in self.lists if x is not None], self.tables,
                    [q for q in self.quotes if q is not None], self.paragraphs, self.prose,
                    self.html_anchors, self.code_lines, self.block_code_lines, self.limits)

    # -- inline helpers -------------------------------------------------------------------

    def _inline(self, st: PosState, a: int, b: int, children: Any, heading: bool = False,
                linkish: bool | None = None) -> list[Link]:
        if not (has_linkish(children) if linkish is None else linkish):
            self._last_anchors = []
            return []
        al = Aligner(st, a, b, self, self.raw_html)
        links = al.run(children or [], in_heading=heading)
        if not heading:
            for name, line in al.anchors:
                self.html_anchors.setdefault(name, line)
        self._last_anchors = al.anchors
        return links

    def _prose(self, st: PosState, a: int, b: int, children: Any) -> None:
        text = prose(st, a, b, children)
        if text.pieces:
            self.prose.append(text)

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
        elif t == "footnote":
            self.walk(tok["children"], list_depth)
        elif t == "list":
            self.list_block(tok, list_depth)
        elif t == "block_quote":
            self.quote(tok, list_depth)
        elif t == "table":
            self.table(tok)
        elif t == "table_skipped":
            self.table_skipped(tok)
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
                # the page's raw HTML is one text: a comment or tag the raw HTML before left
                # open goes on here (an HTML block that a closing list item or quote ended
                # inside a comment leaves it open in the rendered page too)
                raw, place = self.raw_html.feed(tok.get("raw", ""), lambda at: st.position(off + at))
                for name, at in anchors_in(raw):
                    self.html_anchors.setdefault(name, place(at)[0])
                for level, text, at in headings_in(raw):
                    self.head_raw.append((*place(at), level, text, []))
                for target, at in hrefs_in(raw):
                    self.links.append(new_link("", target, *place(at), "html"))

    def _span(self, tok: dict[str, Any]) -> tuple[PosState, int, int]:
        st, off = tok["_p"]
        text = tok.get("_text")
        if text is None:
            end = src_of(st).find("\n", off)
            end = len(src_of(st)) if end < 0 else end
        else:
            end = off + len(text)
        return st, off, end

    def paragraph(self, tok: dict[str, Any]) -> tuple[str, list[Link]]:
        if "_p" not in tok:
            text = render(tok.get("children"))
            return text, []
        st, a, b = self._span(tok)
        text_prose, text, linkish = prose_and_text(st, a, b, tok.get("children"))
        links = self._inline(st, a, b, tok.get("children"), linkish=linkish)
        self.links.extend(links)
        if text_prose.pieces:
            self.prose.append(text_prose)
        first = a
        while first < b and src_of(st)[first] in " \t\n":
            first += 1
        line, col = st.position(first)
        raw = src_of(st)[a:b].rstrip("\n")
        end_line = st.orig_line(a) + raw.count("\n")
        self.paragraphs.append(new_paragraph(text, line, col, end_line))
        return text, links

    def heading(self, tok: dict[str, Any]) -> None:
        if "_p" not in tok:
            return
        st, a, b = self._span(tok)
        if tok.get("style") == "setext":
            text_raw = tok.get("_text", "")
            b = a + len(text_raw)
            # the underline was consumed separately; the text is the paragraph's lines
        else:
            # an ATX heading's text follows its `#`s: its inline spans lie anywhere on the line
            end = src_of(st).find("\n", a)
            b = len(src_of(st)) if end < 0 else end
        first = a
        while first < b and src_of(st)[first] in " \t":
            first += 1
        line, col = st.position(first)
        links = self._inline(st, a, b, tok.get("children"), heading=True)
        self.links.extend(links)
        self._prose(st, a, b, tok.get("children"))
        anchors = [name for name, _ in self._last_anchors]
        text = render(tok.get("children"), images=False, breaks="\n", footnotes=self.footnote_numbers)
        level = (tok.get("attrs") or {}).get("level", 1)
        self.head_raw.append((line, col, level, text, anchors))

    def list_block(self, tok: dict[str, Any], depth: int) -> None:
        if "_p" not in tok:
            self.walk(self._children_of_list(tok), depth + 1)
            return
        st, off = tok["_p"]
        positions = tok.get("_items") or []
        items: list[ListItem] = []
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
            own_prose: list[Prose] = []
            for child in item.get("children") or []:
                ct = child["type"]
                if ct in ("paragraph", "block_text"):
                    before = len(self.prose)
                    txt, lk = self.paragraph(child)
                    texts.append(txt)
                    links.extend(lk)
                    own_prose.extend(self.prose[before:])
                elif ct == "list":
                    self.list_block(child, depth + 1)
                else:
                    self.block(child, depth + 1)
            items.append(new_list_item(" ".join(texts), line, col, depth, tuple(links), tuple(own_prose)))
        if items:
            bline, bcol = items[0].line, items[0].column
        else:
            bline, bcol = st.position(off)
        ordered = bool((tok.get("attrs") or {}).get("ordered"))
        self.lists[index] = ListBlock(tuple(items), bline, bcol, ordered, depth)

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

    def reparse_refused(self, line: int | None) -> None:
        """Say where the document's budget for parsing containers again (lazy.py) left a list or
        a block quote as mistune reads it, past a lazy line that ends it on GitHub: what follows
        in it may be read otherwise than the page shows (a link missed, or found where there is
        none). Only a whole parse meets it (sections.py parses such a document whole)."""
        if line is None:
            return
        self.limits.append((line, line, (
            f"the lazy line at line {LIMIT_LINE} ends its list or block quote on GitHub, but the "
            "document has spent its budget for parsing lists and block quotes again: from there on "
            "they are read as the parser first reads them, which may not be what GitHub shows (links "
            "in them may be missed); split the document"
        )))

    def table_skipped(self, tok: dict[str, Any]) -> None:
        st, off = tok["_p"]
        line = st.orig_line(off)
        self.limits.append((line, st.orig_line(max(off, tok["_stop"] - 1)), (
            f"the table at line {LIMIT_LINE} (about {tok['_cells']} cells) takes the document over its "
            f"limit of {tok['_limit']} table cells: its cells are not parsed or checked; split it "
            "or move it to a file of its own"
        )))

    @staticmethod
    def _next_line(st: PosState, off: int) -> int:
        j = src_of(st).find("\n", off)
        return len(src_of(st)) if j < 0 else j + 1

    def _row(self, st: PosState, off: int, cells: list[dict[str, Any]]) -> tuple[TableCell, ...]:
        start, line = st.line_text(off)
        pipes = unescaped_pipes(line)
        stripped = line.strip()
        bounds = [-1] + pipes + [len(line)]
        segs = [(bounds[i] + 1, bounds[i + 1]) for i in range(len(bounds) - 1)]
        if stripped.startswith("|") and segs:
            segs = segs[1:]
        if stripped.endswith("|") and not stripped.endswith("\\|") and segs and len(stripped) > 1:
            segs = segs[:-1]
        # One line per row: its line number and column offset once, not per cell.
        i = st.line_index(start)
        line_no = st.line_base + i
        col_base = 1 - start + st.col_offset(i, line_no)
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
            children = cell.get("children")
            if children and len(children) == 1 and children[0].get("type") == "text":
                self._prose(st, ca, cb, children)
                raw = children[0].get("raw", "")  # plain text, the common cell: no links
                out.append(new_cell(html.unescape(raw) if "&" in raw else raw, line_no, ca + col_base))
                continue
            text_prose, text, linkish = prose_and_text(st, ca, cb, children)
            if text_prose.pieces:
                self.prose.append(text_prose)
            links = self._inline(st, ca, cb, children, linkish=linkish)
            self.links.extend(links)
            out.append(new_cell(text, line_no, ca + col_base, tuple(links)))
        return tuple(out)


def _rendered_footnotes(tokens: list[dict[str, Any]]) -> set[str]:
    labels = set()
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        if tok["type"] == "footnote":
            labels.add(tok["_label"])
        stack.extend(tok.get("children") or ())
    return labels


def _keep_text(tokens: list[dict[str, Any]]) -> None:
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        if "text" in tok:
            tok["_text"] = tok["text"]
        ch = tok.get("children")
        if ch:
            stack.extend(ch)


def normalise(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _block_state(text: str, lines: list[str], text_from: dict[int, int] | None, line_base: int,
                 budget: tuple[int, int]) -> PosState:
    """The state the block parser reads `text` from, its container tabs expanded (up to
    `text_from`); its first line is line `line_base` of the document whose lines are `lines`."""
    state = PosState()
    state.orig = lines
    state.line_base = line_base
    shift = line_base - 1
    if shift and text_from:
        text_from = {n - shift: at for n, at in text_from.items()}
    source, expanded = expand_container_tabs(text, text_from)
    state.expanded = {n + shift: line for n, line in expanded.items()} if shift else expanded
    env_set(state, REPARSE_LEFT, budget[0])
    env_set(state, CELLS_LEFT, budget[1])
    start_source(state, source if source.endswith("\n") else source + "\n")
    return state


def parse_blocks(text: str, lines: list[str], line_base: int = 1,
                 budget: tuple[int, int] | None = None) -> tuple[PosState, bool]:
    """The block tokens of `text`, lines `line_base`… of the document whose lines are `lines`,
    parsed with `budget` (characters to parse again, table cells) left; and whether the parse
    finished (False: it ran out of recursion, and the tokens are what it made before)."""
    if budget is None:
        budget = (reparse_budget(text), MAX_TABLE_CELLS)
    md = markdown_parser()
    state = _block_state(text, lines, None, line_base, budget)
    try:
        md.block.parse(state)
        if state.expanded:
            text_from = text_expanded(tokens_of(state), state.expanded, lines)
            if text_from:
                state.release()  # (the first pass: its tokens are not read)
                state = _block_state(text, lines, text_from, line_base, budget)
                md.block.parse(state)
        _keep_text(tokens_of(state))
    except RecursionError:
        return state, False
    return state, True


def parse_inline(state: PosState) -> bool:
    """The inline tokens of every block of `state` (through its env's reference definitions);
    False if that ran out of recursion."""
    try:
        markdown_parser().render_state(state)
    except RecursionError:
        return False
    return True


def parse_document(text: str, path: str, *, max_markup: int = MAX_MARKUP) -> Document:
    """Parse `text` (BOM already removed) of the document at repository-relative `path`.

    Raises TooComplex for a document over a limit: `max_markup` markup openers, MAX_BLOCKS
    blocks, MAX_LINES lines, or a block of more than MAX_BLOCK_LINES lines.
    """
    text = normalise(text)
    refuse_if_too_big(text, max_markup)
    state, ok = parse_blocks(text, text.split("\n"))
    try:
        if ok:
            parse_inline(state)
        b = Builder(ref_links(state))
        if "[^" in text:
            b.footnote_numbers = footnote_numbers(text, _rendered_footnotes(tokens_of(state)))
        b.walk(tokens_of(state))
        b.reparse_refused(env_get(state, REPARSE_REFUSED_AT))
    finally:
        state.release()  # no cycles left: the parse is freed without the cyclic collector
    return assemble(text, path, [b.part()])


# (line, column): where a part of the model is, the order assemble sorts them in
_PLACE = attrgetter("line", "column")


def assemble(text: str, path: str, parts: "list[Part]", starts: list[int] | None = None) -> Document:
    """The document `text` at `path` made of `parts`, the walks of its blocks in order (one for
    the whole document, or one per section): what depends on the whole document (heading
    anchors and sections, comments, suppressions) is computed here, over all of it. `starts`:
    its line_starts, where the caller has them already."""
    if starts is None:
        starts = line_starts(text)
    block_code_lines = set().union(*(p.block_code_lines for p in parts))
    code_lines = set().union(block_code_lines, *(p.code_lines for p in parts))
    comments = list(comment_spans(text))  # (found once: the suppressions read them too)
    code_lines.update(comment_lines(text, starts, block_code_lines, comments))
    html_anchors: dict[str, int] = {}
    for p in parts:
        for name, line in p.html_anchors.items():
            html_anchors.setdefault(name, line)

    def every(field: str) -> list[Any]:
        return list(chain.from_iterable(map(attrgetter(field), parts)))  # (a loop in C: 85 parts, 17,000 objects)

    links = every("links")
    links.sort(key=_PLACE)
    return Document(
        path=path,
        text=text,
        headings=finish_headings(every("head_raw"), text),
        links=links,
        lists=sorted(every("lists"), key=_PLACE),
        tables=every("tables"),
        quotes=sorted(every("quotes"), key=_PLACE),
        paragraphs=sorted(every("paragraphs"), key=_PLACE),
        prose=sorted(every("prose"), key=lambda t: (t.pieces[0].line, t.pieces[0].column)),
        html_anchors=html_anchors,
        suppressions=suppressions(text, starts, block_code_lines, comments),
        code_lines=frozenset(code_lines),
        limits=every("limits"),
    )


# The raw HTML state a walk leaves for the blocks after it: inside a comment, and the text and
# position of a tag left open.
Carry = tuple[bool, tuple[str, tuple[int, int]]]


@dataclass(slots=True, eq=False, repr=False)
class Part:
    """What walking some blocks (a whole document's, or a section's) found, in the order found."""

    head_raw: list[RawHeading]
    links: list[Link]
    lists: list[ListBlock]
    tables: list[Table]
    quotes: list[Quote]
    paragraphs: list[Paragraph]
    prose: list[Prose]
    html_anchors: dict[str, int]
    code_lines: set[int]
    block_code_lines: set[int]
    limits: list[tuple[int, int, str]]
