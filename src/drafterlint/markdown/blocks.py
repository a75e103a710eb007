"""The block parser: mistune's, with every block token pinned to where it starts (positions.py),
lazy lines as cmark-gfm reads them (lazy.py), footnotes, bounded tables and the inline parser's
fast path; `markdown_parser()` is the one configured instance."""

from __future__ import annotations

from typing import Any

import mistune
from mistune.helpers import parse_link_href
from mistune.util import unikey

from drafterlint import lazyre
from drafterlint.markdown import emphasis
from drafterlint.markdown._mistune import (
    HookedBlockParser,
    add_paragraph,
    add_token,
    continue_paragraph,
    cursor,
    env_get,
    last_block,
    line_at,
    line_end,
    move_cursor,
    nesting,
    note_reference,
    parent_state,
    parse_block_quote_line,
    parse_end,
    parse_html_to_newline,
    ref_links,
    rest_of_line,
    src_of,
    tokens_of,
)
from drafterlint.markdown.autolinks import URL_FIRST, URL_START
from drafterlint.markdown.fastinline import FastInline, parse_bare_url
from drafterlint.markdown.footnotes import FOOTNOTE_DEF, FOOTNOTES, drop_unreferenced_footnotes, parse_footnote_def
from drafterlint.markdown.inline import destination_span
from drafterlint.markdown.lazy import InPlace, deep_lazy_lines, first_cut, judge_lazy_lines, list_cut, unmarked_quote_lines
from drafterlint.markdown.patterns import (
    ATX_CLOSING_RE,
    BLOCK_HTML,
    FOOTNOTE_LABEL_RE,
    HTML_1_TO_6_RE,
    HTML_7_RE,
    SETEXT_LINE_RE,
)
from drafterlint.markdown.positions import PosState, unicode_blank
from drafterlint.markdown.table_rule import INTERRUPT_RE, NP_TABLE_RE, bounded_tables, parse_table, table_ends_paragraph
from drafterlint.markdown.table_rule import MAX_TABLE_CELLS as MAX_TABLE_CELLS  # (tests import it from here)
from drafterlint.markdown.text import decode

_EQUALS_LINE_RE = lazyre.compile(r" {0,3}=+[ \t]*$")
_INDENTED_ROW_RE = lazyre.compile(r"[ \t]*\S[^\n]*\n")
_CODE_INDENT_RE = lazyre.compile(r" {0,3}\t| {4}")


def _interrupts(line: str) -> bool:
    """Whether `line` starts a block that ends a paragraph, so no lazy line: not `===` (a lazy
    line underlines nothing), not an HTML block of type 7 (it interrupts no paragraph)."""
    if not INTERRUPT_RE.match(line) or _EQUALS_LINE_RE.match(line):
        return False
    return not line.lstrip(" ").startswith("<") or HTML_1_TO_6_RE.match(line) is not None

class _PosBlockParser(HookedBlockParser):
    """mistune's block parser, telling each token where it starts (through `PosState`).

    Public methods are extended (and mistune's fast path for indented lines), each calling
    mistune's own: no mistune function is replaced, so other users of mistune in the same
    process are unaffected.
    """

    state_cls = PosState

    def parse(self, state: Any, rules: Any = None) -> None:
        if state.task_text and cursor(state) == 0:
            # the rest of a task item's first line is paragraph text, which may head a table
            # (`- [ ] a|b⏎  -|-`), as any paragraph's line may
            t = NP_TABLE_RE.match(src_of(state), 0)
            table_end = parse_table(self, t, state) if t is not None else None
            if table_end:
                move_cursor(state, table_end)
            else:
                end = line_end(state)
                add_paragraph(state, rest_of_line(state))
                move_cursor(state, end)
        super().parse(state, rules)
        state.close_open_block()  # the last block of this state ends where its source does
        if state.lazy_lines:
            judge_lazy_lines(state, done=True)
        if state.defs_open:  # the paragraphs left open by definitions that nothing continued
            toks = tokens_of(state)
            toks[:] = [t for t in toks if not (t.get("_after_def") and not t["text"])]
        if parent_state(state) is None and env_get(state, FOOTNOTES):
            drop_unreferenced_footnotes(tokens_of(state))

    def indent_code_fast(self, state: Any) -> Any:
        if src_of(state)[cursor(state)] not in " \t":
            return None  # (most lines: neither indented code nor a paragraph's indented line)
        # mistune's fast path for indented lines takes a line of four blanks after a paragraph
        # for its text; it is a blank line, which ends the paragraph (`a⏎    ⏎=` is no heading)
        line = rest_of_line(state)
        if not line.strip():
            return None
        last = last_block(state)
        if last is not None and last["type"] == "paragraph" and _CODE_INDENT_RE.match(line):
            # an indented line continues the paragraph, and may head a table: cmark-gfm reads
            # the paragraph's line without its indentation (`x⏎    a|b⏎-|-`)
            t = _INDENTED_ROW_RE.match(src_of(state), cursor(state))
            end = parse_table(self, t, state) if t is not None else None
            if end:
                return end
        return super().indent_code_fast(state)

    def parse_method(self, m: Any, state: Any) -> Any:
        start = cursor(state)
        state.close_open_block()  # a block starts here
        if m.lastgroup == "indent_code" and not rest_of_line(state).strip():
            # four blanks and nothing else: a blank line, no paragraph text (mistune's rule
            # appends it to the paragraph before it)
            eol = line_end(state)
            add_token(state, {"type": "blank_line"})
            return eol
        end = super().parse_method(m, state)
        if not end and m.lastgroup not in ("table", "nptable") and cursor(state) == start:
            # a rule that matched and found nothing (`[]:||`, `=`, `<a|b`) leaves its line to
            # mistune's paragraph, which would skip the table it may head
            t = NP_TABLE_RE.match(src_of(state), start)
            if t is not None:
                end = parse_table(self, t, state)
        tok = state.open_block
        if end and tok is not None:
            # mistune moves the cursor to the end marker of `<pre>`, `<!--` ... blocks before
            # adding them: the block starts where its rule matched
            tok["_p"] = (state, start)
            state.close_open_block(end)
        if state.lazy_lines and not state.collecting:
            judge_lazy_lines(state)
        return end

    def parse_list(self, m: Any, state: Any) -> Any:
        start = cursor(state)
        last = last_block(state)
        marker = m.group("list_2")
        from_one = len(marker) == 1 or int(marker[:-1]) == 1
        if last is not None and last["type"] == "paragraph" and (not m.group("list_3").strip(" \t") or not from_one):
            # an item that may not interrupt the paragraph (empty, or numbered from 2) is its
            # text, which may head a table (`x⏎2) a|b⏎-|-`): mistune's rule appends the line
            # to the paragraph before the table rule could see it
            t = NP_TABLE_RE.match(src_of(state), start)
            end = parse_table(self, t, state) if t is not None else None
            if end:
                return end
        hide = None
        toks = tokens_of(state)
        if last is not None and last["type"] == "paragraph" and from_one and unicode_blank(m.group("list_3")):
            # an item holding only a no-break space (or another Unicode space) is no empty item
            # for cmark-gfm: it interrupts the paragraph, which mistune's rule (Python's
            # whitespace) would append it to; the paragraph is hidden from that rule meanwhile
            hide = {"type": "blank_line"}
            toks.append(hide)
        # a lazy line that continues no paragraph is no part of the list: it closes it
        try:
            end, _ = InPlace(state, lambda: self._parse_list_once(m, state, start)).run(lambda r: list_cut(r[1]))
        finally:
            if hide is not None:
                toks[:] = [t for t in toks if t is not hide]
        return end

    def _parse_list_once(self, m: Any, state: PosState, start: int) -> tuple[Any, list[PosState]]:
        toks = tokens_of(state)
        ntok = len(toks)
        # mistune parses each item from a child state created right after the item's lines
        # were collected; `child_state` pins the item to its marker line from these offsets.
        saved = state.item_marks, state.item_states
        state.item_marks, state.item_states = [start], []
        state.collecting += 1
        try:
            end = super().parse_list(m, state)
            marks, items = state.item_marks, state.item_states
        finally:
            state.item_marks, state.item_states = saved
            state.collecting -= 1
        for tok in reversed(toks[ntok:]):
            if tok["type"] == "list" and "_p" not in tok:
                tok["_p"] = (state, start)
                tok["_items"] = [(state, off) for off in marks[: len(tok["children"])]]
                break
        return end, items

    def parse_block_quote(self, m: Any, state: Any) -> int:
        start = cursor(state)
        end, _ = InPlace(state, lambda: self._parse_quote_once(m, state, start)).run(lambda r: first_cut([r[1]]))
        return end

    def _parse_quote_once(self, m: Any, state: PosState, start: int) -> tuple[int, PosState]:
        base = state.orig_line(start)
        # mistune parses the blocks that end the quote's lazy lines before it adds the quote:
        # this stands for the quote meanwhile, so that `>>` then `-` (an empty item) does not
        # take the paragraph before the quote for its own
        toks = tokens_of(state)
        hold = len(toks)
        toks.append({"type": "block_quote", "children": []})
        state.collecting += 1
        try:
            text, end_pos, lazy_line_starts = self.extract_block_quote(m, state)
        finally:
            state.collecting -= 1
        child = state.child_at(text, base, lazy_line_starts)
        child.line_base = base
        # every line the quote took, a last `>` with nothing after it too (cmark-gfm's quote ends there)
        nlines = max(1, text.count("\n") + (not text.endswith("\n")))
        child.lazy_lines = unmarked_quote_lines(state, base, nlines)
        if nesting(state) >= self.max_nested_level - 1:
            rules = [r for r in self.block_quote_rules if r not in ("block_quote", "list")]
        else:
            rules = self.block_quote_rules
        self.parse(child, rules)
        toks[hold] = {
            "type": "block_quote",
            "children": tokens_of(child),
            "_p": (state, start),
            "_child": child,
            "_end_line": base + nlines - 1,
        }
        return (end_pos or cursor(state)), child

    def __init__(self) -> None:
        super().__init__()
        # the HTML blocks that interrupt a list item's or a quote's lazy lines end their tag
        # name the way cmark-gfm requires (mistune's pattern left out `>` and `/>`)
        self.specification["block_html"] = BLOCK_HTML

    def extract_block_quote(self, m: Any, state: Any) -> Any:
        text, end_pos, lazy = super().extract_block_quote(m, state)
        if end_pos is None and self.compile_sc(["blank_line", "indent_code", "fenced_code"]).match(text):
            # a quote whose first line is blank, code or a fence: mistune takes no lazy line
            # after it at all; cmark-gfm takes one that continues the paragraph of a later line
            # (`>⏎>d⏎[r]:r` is one paragraph), which the lazy lines' judge then checks
            # (and a `>` line after those lazy lines goes on with the quote, as after any other)
            lazy = set(lazy or ())
            blank = False
            while (at := cursor(state)) < parse_end(state):
                line = line_at(state, at)
                quoted = parse_block_quote_line(line)
                if quoted is not None:
                    text += quoted
                    move_cursor(state, at + len(line))
                    blank = not quoted.strip(" \t\n")
                    continue
                if blank or not line.strip(" \t\n") or _interrupts(line):
                    break
                lazy.add(len(text))
                text += line
                move_cursor(state, at + len(line))
        if lazy:
            text, lazy = deep_lazy_lines(text, lazy)
        return text, end_pos, lazy

    def parse_raw_html(self, m: Any, state: Any) -> Any:
        if HTML_1_TO_6_RE.match(src_of(state), m.start()):
            return super().parse_raw_html(m, state)
        # type 7 (mistune's types 1 and 6 include `<div[`, `<details*`: no block starts there),
        # which may not interrupt a paragraph
        if not HTML_7_RE.match(src_of(state), m.start()):
            return None
        end_pos = continue_paragraph(state)
        if end_pos:
            return end_pos
        return parse_html_to_newline(state, self.BLANK_LINE)

    def parse_block_html(self, m: Any, state: Any) -> Any:
        # only a line that ends a list item's or a quote's lazy lines comes here: of type 7,
        # it starts its block even after a paragraph (that paragraph is in the container)
        if HTML_1_TO_6_RE.match(src_of(state), m.start()):
            return super().parse_raw_html(m, state)
        return parse_html_to_newline(state, self.BLANK_LINE)

    def parse_ref_link(self, m: Any, state: Any) -> Any:
        label = m.group("reflink_1") or ""
        if FOOTNOTE_LABEL_RE.fullmatch(label):
            return None  # `[^1]: …` defines a footnote, no reference (`[^]:` does define one)
        src = src_of(state)
        if table_ends_paragraph(state, m.start()):
            return None  # cmark-gfm keeps a paragraph's definitions as text when a table ends it
        eol = line_end(state, m.end())
        if not src[m.end() : eol].strip() and SETEXT_LINE_RE.match(src, eol):
            # `[r]:` then `-`: the underline takes the line before the destination could
            return None
        last = last_block(state)
        rest = last if last is not None and last.get("_after_def") else None
        if rest is not None and not rest["text"]:
            tokens_of(state).pop()  # a definition after a definition
        elif last is not None and last["type"] == "paragraph":
            return super().parse_ref_link(m, state)  # paragraph text
        refs = ref_links(state)
        key = unikey(label)
        had = key in refs
        end = super().parse_ref_link(m, state)
        if not end:
            if rest is not None:
                tokens_of(state).append(rest)
            return end
        if key and not had and key in refs:
            href, hpos = parse_link_href(src, m.end(), block=True)
            if href is not None and hpos is not None:
                # the destination as written, and where fix would edit it
                note_reference(state, key, raw_url=decode(href), _dest=destination_span(state, href, hpos))
            note_reference(state, key, _line=state.orig_line(m.start()))
        # cmark-gfm takes definitions out of the paragraph they begin, which stays open: what
        # follows continues it (an indented line, a tag, `2.`), an underline included
        first = rest["_def_line"] if rest is not None else state.orig_line(m.start())
        tokens_of(state).append({"type": "paragraph", "text": "", "_p": (state, end), "_after_def": True, "_def_line": first})
        state.defs_open = True
        return end

    def parse_atx_heading(self, m: Any, state: Any) -> Any:
        end = super().parse_atx_heading(m, state)
        # cmark-gfm trims only ASCII blanks and a closing `#` run after a space or tab; mistune's
        # `\s` takes a no-break space too (`# \u00a0 #` keeps it)
        text = m.group("atx_2").strip(" \t")
        tokens_of(state)[-1]["text"] = ATX_CLOSING_RE.sub("", text).rstrip(" \t") if text else text
        return end

    def parse_setex_heading(self, m: Any, state: Any) -> Any:
        if not SETEXT_LINE_RE.match(m.group(0)):
            return None  # `=-`: mistune's rule takes a mixed line for an underline, GitHub does not
        last = last_block(state)
        if last is not None and last.get("_after_def") and not last["text"]:
            return continue_paragraph(state)  # `[r]: /u` then `===`: nothing to underline
        return super().parse_setex_heading(m, state)


def make_markdown(inline: FastInline | None = None) -> mistune.Markdown:
    """The parser's mistune, configured; with `inline` for its inline parser (a FastInline; the
    tests compare one that stops plain text where mistune's own would)."""
    md = mistune.Markdown(renderer=None, block=_PosBlockParser(), inline=inline if inline is not None else FastInline())
    bounded_tables(md)
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
    md.block.register("footnote_def", FOOTNOTE_DEF, parse_footnote_def, before="setex_heading")
    for rules in (md.block.block_quote_rules, md.block.list_rules):  # in quotes and items too
        md.block.insert_rule(rules, "footnote_def", before="setex_heading")
    try:  # mistune 3.4 skips plain text up to a rule's first characters
        md.inline.register("url_link", URL_START, parse_bare_url, start_chars=URL_FIRST)
    except TypeError:
        md.inline.register("url_link", URL_START, parse_bare_url)
    return md


_MD: mistune.Markdown | None = None


def markdown_parser() -> mistune.Markdown:
    global _MD
    if _MD is None:
        _MD = make_markdown()
    return _MD
