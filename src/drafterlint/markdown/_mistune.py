"""The adapter to mistune: every private name, every undocumented state field and every hook of
mistune the parser relies on, in one place.

mistune's public API gives tokens, not positions, and finalizes emphasis its own way; the
parser reaches past it here and nowhere else.  Here live (1) mistune's private functions and
classes under public names, (2) named functions for each read or write of mistune's parse state
(`BlockState`, `InlineState`, an open `[`'s `Bracket`, the `env` the states share), each saying
which behaviour of mistune it relies on, and (3) the hooks mistune calls on its state and block
parser, handed to the parser's own methods.  The other modules of `markdown/` use these and
mistune's public API (its parser classes, rules and `helpers`), never a field of a state:
tests/test_markdown_mistune.py holds that.  All of it is read from mistune 3.4 (pyproject.toml
pins `mistune>=3.4,<3.5`); a new release breaks at most this module, and each docstring says
what to look at.  The weekly workflow `.github/workflows/mistune-latest.yml` runs the parser's
tests on the newest mistune release, so the pin can be widened on purpose.

Each private name is mistune's own object under a public name (no wrapper, so the parser runs
exactly as it did when it imported them directly).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mistune._inline import emphasis as _emphasis
from mistune._inline import links as _links
from mistune._inline.links import Bracket
from mistune.block_parser import _BLOCK_QUOTE_LINE, BlockParser, _parse_block_quote_line, _parse_html_to_newline
from mistune.core import BlockState, InlineState
from mistune.inline_parser import _KNOWN_RULE_START_CHARS, InlineParser
from mistune.list_parser import _compile_continue_width, _has_continuation_indent, _strip_continuation_indent

from drafterlint import lazyre

Token = dict[str, Any]

# -- block_parser ------------------------------------------------------------------------------

# A `>` line as mistune's quote rule reads it: a lazy line's judge must agree with it exactly.
BLOCK_QUOTE_LINE = _BLOCK_QUOTE_LINE
# A `>` line's content as mistune's quote rule takes it (its marker and one blank gone, a leading
# tab expanded), for the quote lines after lazy ones that mistune's rule would not reach.
parse_block_quote_line = _parse_block_quote_line
# An HTML block from the cursor to the next blank line, made as mistune's HTML rule makes it, for
# the parser's own HTML block rules (types 6 and 7 where mistune would not start one).
parse_html_to_newline = _parse_html_to_newline

# -- list_parser -------------------------------------------------------------------------------

# The indentation an item's continuation lines need, computed as mistune's list rule does, so
# that the lazy lines the parser marks are the ones mistune took.
compile_continue_width = _compile_continue_width
# Whether a line is indented enough to continue an item (mistune's test, also for footnotes).
has_continuation_indent = _has_continuation_indent
# A continuation line with the item's indentation removed, as mistune strips it.
strip_continuation_indent = _strip_continuation_indent

# -- _inline.links -----------------------------------------------------------------------------

# Whether `[…]` at a bracket names a defined reference: a `[^…]` footnote label is one only
# when no link reads it (mistune's own lookup, its normalization of the label included).
parse_reference = _links._parse_reference

# -- _inline.emphasis: mistune's emphasis finalization, reused with cmark-gfm's flanking --------

# Adjacent text tokens joined first (apart where emphasis is off), as mistune does before runs.
coalesce_emphasis_text = _emphasis._coalesce_emphasis_text
# Whether any text token holds a `*` or `_` (no emphasis work otherwise).
contains_emphasis_marker = _emphasis._contains_emphasis_marker
# A token without mistune's bookkeeping keys, as finalization leaves it.
clean_emphasis_token = _emphasis._clean_emphasis_token
# mistune's fast resolution of simple, well-nested delimiters (False: use the full algorithm).
process_dense_emphasis = _emphasis._process_dense_emphasis
# Adjacent text tokens merged after emphasis is resolved.
merge_text_tokens = _emphasis._merge_text_tokens


# A run of `*` or of `_`: what mistune's `_split_text_token` takes for one delimiter run.
_DELIMITER_RUN = lazyre.compile(r"\*+|_+")


def finalize_emphasis(tokens: list[Token], enabled: bool, max_depth: int) -> list[Token]:
    """mistune's `finalize_emphasis_tokens` (what `InlineParser.finalize_tokens` calls), step for
    step over its own steps, but for where a text token's delimiter runs are: mistune's
    `_split_text_token` steps to the next run one character at a time in Python
    (`_next_delimiter_run`, a fiftieth of the whole parse), `_split_text_token` here finds it
    with a regex. The runs, their parts and delimiters are the same."""
    if len(tokens) > 1:
        tokens = _emphasis._coalesce_emphasis_text(tokens)
    if not enabled or not _emphasis._contains_emphasis_marker(tokens):
        return [_emphasis._clean_emphasis_token(token) for token in tokens]
    parts: list[Token] = []
    delimiters: list[Any] = []
    source = _emphasis._emphasis_source_text(tokens)
    source_pos = 0
    for token in tokens:
        if token["type"] == "text" and token.get("_emphasis", True):
            _split_text_token(token, source, source_pos, parts, delimiters)
        else:
            parts.append(_emphasis._clean_emphasis_token(token))
        source_pos += _emphasis._emphasis_source_length(token)
    if not _emphasis._process_dense_emphasis(parts, delimiters):
        _emphasis._process_emphasis_delimiters(parts, delimiters, max_depth)
    return _emphasis._merge_text_tokens(parts)


def _split_text_token(token: Token, source: str, source_start: int, parts: list[Token], delimiters: list[Any]) -> None:
    """mistune's `_split_text_token`: the text between runs as text parts, each run a text part
    and, where it may open or close, a delimiter (judged by mistune's own functions)."""
    text = token["raw"]
    pos = 0
    for m in _DELIMITER_RUN.finditer(text):
        start, end = m.span()
        if start > pos:
            parts.append({"type": "text", "raw": text[pos:start]})
        marker = text[start]
        length = end - start
        absolute = source_start + start
        can_open = _emphasis._can_open_emphasis(source, absolute, length, marker)
        can_close = _emphasis._can_close_emphasis(source, absolute, length, marker)
        index = len(parts)
        parts.append({"type": "text", "raw": text[start:end]})
        if can_open or can_close:
            delimiters.append(_emphasis._Delimiter(index, marker, length, can_open, can_close, length, len(delimiters)))
        pos = end
    if pos < len(text):
        parts.append({"type": "text", "raw": text[pos:]})


def new_delimiter(index: int, marker: str, size: int, can_open: bool, can_close: bool, order: int) -> Any:
    """One delimiter run (`*`, `_`, `~`) as mistune's delimiter algorithm keeps it (its
    `_Delimiter`: the run's part, its character and length, whether it may open and close, its
    original length for the rule of three, its place among the runs)."""
    return _emphasis._Delimiter(index, marker, size, can_open, can_close, size, order)


def _tilde_opener(opener: Any, closer: Any) -> bool:
    """Whether cmark-gfm's search for the `~` closer's opener stops at `opener`: an open `~` run,
    not one the rule of three skips (`*~~__b~__`: the `~~` that may also close is passed over)."""
    if opener.marker != "~" or not opener.can_open or opener.length <= 0:
        return False
    return not ((closer.can_open or opener.can_close) and (opener.length + closer.length) % 3 == 0)


def process_delimiters(parts: list[dict[str, Any]], delimiters: list[Any], max_depth: int) -> None:
    """mistune's process_emphasis_delimiters, meeting `~` runs as cmark-gfm does: a `~` closer
    takes the nearest `~` opener before it and, whether their lengths agree or not, every
    delimiter between them is spent (`~~_b~_` is no emphasis: its first `_` went with the `~`s).
    A `*` or `_` closer before that `~` has already taken what it could.  The loop is mistune's,
    over the steps of its private `_emphasis` module (where the parts each delimiter stands at
    are now, the nearest opener a closer may take, how many characters they use, what the
    emphasis holds, and the match made), and reads its `_Delimiter` fields."""
    index_map = _emphasis._DelimiterIndex(delimiters, len(parts))
    closer_pos = 0
    openers_bottom: dict[tuple[str, int, bool], int] = {}
    while closer_pos < len(delimiters):
        closer = delimiters[closer_pos]
        if not closer.can_close or closer.length == 0:
            closer_pos += 1
            continue
        if closer.marker == "~":
            k = closer_pos - 1
            while k >= 0 and not _tilde_opener(delimiters[k], closer):
                k -= 1
            if k >= 0:
                index_map.deactivate_range(delimiters, k, closer_pos + 1)
            closer_pos += 1
            continue
        opener_key = (closer.marker, closer.length % 3, closer.can_open)
        match = _emphasis._find_emphasis_opener(delimiters, closer_pos, closer, openers_bottom.get(opener_key, 0))
        if match is None:
            openers_bottom[opener_key] = closer_pos
            closer_pos += 1
            continue
        opener_pos, opener = match
        opener_index = index_map.current(opener)
        closer_index = index_map.current(closer)
        use_length = _emphasis._get_emphasis_use_length(parts, opener, closer, opener_index, closer_index)
        children = _emphasis._get_emphasis_children(parts, opener_index, closer_index, max_depth)
        if use_length is None or children is None:
            closer_pos += 1
            continue
        _emphasis._apply_emphasis_match(parts, delimiters, index_map, opener, closer, opener_pos, closer_pos,
                                        opener_index, closer_index, use_length, children)
        if opener.can_open or closer.can_close:
            closer_pos = max(opener_pos, openers_bottom.get(opener_key, 0))
        else:
            closer_pos += 1


# -- inline tokens: mistune's bookkeeping keys ----------------------------------------------------
# mistune's inline tokens carry two keys of its own until emphasis is resolved (its
# `_clean_emphasis_token` drops them): the parser reads and sets them as mistune's rules do.

# On a text token that takes no part in emphasis (mistune's `process_text(..., parse_emphasis=False)`
# sets it False: an escape's text, a code span's).
NO_EMPHASIS = "_emphasis"
# On a link token made of an autolink: the text as written (mistune's autolink rules; a link's
# text keeps it as literal text, and emphasis judges its runs by it).
AUTOLINK = "_autolink"


# -- both states --------------------------------------------------------------------------------
# mistune's BlockState and InlineState both hold the text being parsed (`src`) and the tokens
# made from it so far (`tokens`, in order); a rule adds one through `append_token`.


def src_of(state: BlockState | InlineState) -> str:
    """The text `state` parses: a block state's whole source (a container's child source for
    its content), an inline state's block text (mistune's `src`)."""
    return state.src


def tokens_of(state: BlockState | InlineState) -> list[Token]:
    """The tokens parsed so far in `state`, the list itself (mistune's `tokens`: its rules and
    its list parser append and insert in it, the parser's own rules take back from its end)."""
    return state.tokens


def add_token(state: BlockState | InlineState, token: Token) -> None:
    """Add `token` as mistune's rules do (`append_token`): a block state's goes through the
    parser's hook (`HookedBlockState.add_block`), an inline state's also raises the depth the
    innermost open `[` holds (mistune bounds nested links by it)."""
    state.append_token(token)


# -- the block state -------------------------------------------------------------------------------
# mistune's block parser reads `src` from `cursor` up to `cursor_max`; a rule returns where the
# text it took ends (the loop moves the cursor there) or moves the cursor itself.


def cursor(state: BlockState) -> int:
    """Where the block parser stands in `src_of(state)` (mistune's `cursor`)."""
    return state.cursor


def move_cursor(state: BlockState, pos: int) -> None:
    """Move the block parser to `pos` (mistune's rules set `cursor` so; its loop goes on there)."""
    state.cursor = pos


def parse_end(state: BlockState) -> int:
    """Where the block parser stops (mistune's `cursor_max`, the source's length after
    `process`); its loop and its rules that read to the end (fences, HTML blocks, tables, list
    items, quotes) stop there."""
    return state.cursor_max


@contextmanager
def parse_up_to(state: BlockState, end: int) -> Iterator[None]:
    """The block parser stops at `end` meanwhile, as if the source ended there (the rules read
    `cursor_max`, not the source's length: a container parsed again up to a line)."""
    saved = state.cursor_max
    state.cursor_max = end
    try:
        yield
    finally:
        state.cursor_max = saved


def line_end(state: BlockState, pos: int | None = None) -> int:
    """Past the end of the line at `pos` (the cursor's by default), its newline included
    (mistune's `find_line_end_at`)."""
    return state.find_line_end_at(state.cursor if pos is None else pos)


def rest_of_line(state: BlockState) -> str:
    """The cursor's line from the cursor, its newline included (mistune's `get_text` up to
    `find_line_end`: what its fast path for indented lines reads)."""
    return state.get_text(state.find_line_end())


def line_at(state: BlockState, pos: int) -> str:
    """The line from `pos`, its newline included (mistune's `get_line`, which its quote rule
    takes line by line)."""
    return state.get_line(pos)


def last_block(state: BlockState) -> Token | None:
    """The last block token of `state`, None before the first (mistune's `last_token`)."""
    last: Token | None = state.last_token()
    return last


def add_paragraph(state: BlockState, text: str) -> None:
    """Paragraph text as mistune's loop adds it (`add_paragraph`: onto the last token if it is a
    paragraph, else a new one; through the parser's hook `HookedBlockState.add_paragraph_text`)."""
    state.add_paragraph(text)


def continue_paragraph(state: BlockState) -> int | None:
    """The cursor's line added to the paragraph that is the last token, and where it ends; None
    (nothing added) when the last token is no paragraph (mistune's `append_paragraph`: how its
    rules that cannot interrupt a paragraph give the line to it)."""
    return state.append_paragraph()


def parent_state(state: BlockState) -> Any:
    """The state of the container around `state` (mistune's `parent`; None for the document)."""
    return state.parent


def root_source(state: BlockState) -> str:
    """The document's source, as its outermost state holds it."""
    while state.parent is not None:
        state = state.parent
    return state.src


def nesting(state: BlockState) -> int:
    """How many containers `state` is in (mistune's `depth()`, which its quote and list rules
    compare with `max_nested_level`)."""
    return state.depth()


def lazy_line_starts(state: BlockState) -> set[int]:
    """The offsets in a container's child source of its lazy lines (mistune's
    `lazy_line_starts`: no setext underline, no table delimiter row there)."""
    return state.lazy_line_starts


def set_lazy_line_starts(state: BlockState, starts: set[int]) -> None:
    """Tell mistune which lines of a child state are lazy (as its quote rule does for quotes)."""
    state.lazy_line_starts = starts


def start_source(state: BlockState, src: str) -> None:
    """Give a new state its source (mistune's `process`: the cursor at 0, `cursor_max` the
    source's length)."""
    state.process(src)


def new_child_state(state: BlockState, src: str, lazy_starts: set[int] | None) -> Any:
    """mistune's own `child_state`: a state of the same class for a container's content, its
    parent `state`, sharing its env (`HookedBlockState.child_state` hands the call to the
    parser, which calls this)."""
    return BlockState.child_state(state, src, lazy_starts)


class Checkpoint:
    """What a container's parse adds to its parent's state, to be undone before the container
    is parsed again (up to a line): the cursor, the tokens added, the reference definitions
    mistune stored in the env (`env["ref_links"]` keeps them in the order defined), and the
    parser's own env values named by `keys`."""

    def __init__(self, state: BlockState, keys: tuple[str, ...] = ()):
        self.position = state.cursor
        self.ntokens = len(state.tokens)
        self.nrefs = len(state.env["ref_links"])
        self.values = {key: state.env.get(key, _ABSENT) for key in keys}

    def restore(self, state: BlockState) -> None:
        del state.tokens[self.ntokens :]
        refs = state.env["ref_links"]
        for key in list(refs)[self.nrefs :]:
            del refs[key]
        for key, value in self.values.items():
            if value is _ABSENT:
                state.env.pop(key, None)
            else:
                state.env[key] = value
        state.cursor = self.position


_ABSENT = object()


# -- the env: one dict per parse, shared by every state of it ----------------------------------
# mistune's `env` is made by the document's BlockState, handed to each child state (`parent.env`)
# and to the inline parser of every block (`Markdown.render_state`): the parser keeps its own
# per-document values there too, under keys of its own.


def env_get(state: BlockState | InlineState, key: str, default: Any = None) -> Any:
    """The parser's value `key` for this parse (in mistune's shared `env`)."""
    return state.env.get(key, default)


def env_set(state: BlockState | InlineState, key: str, value: Any) -> None:
    """Set the parser's value `key` for this parse (in mistune's shared `env`)."""
    state.env[key] = value


def ref_links(state: BlockState | InlineState) -> Mapping[str, dict[str, Any]]:
    """The reference definitions read so far, by normalized label (`mistune.util.unikey`):
    mistune's `env["ref_links"]`, each a dict with its `url`, `title` and `label`, and the
    parser's own keys (`note_reference`).  An inline state sees the whole document's: mistune
    parses every block before any inline text."""
    refs = state.env.get("ref_links")
    return refs if refs is not None else {}


def use_ref_links(state: BlockState, refs: dict[str, dict[str, Any]]) -> None:
    """Have the inline parse of `state`'s blocks read the reference definitions `refs` (a
    section's blocks read the whole document's, markdown/sections.py) instead of those its
    block parse stored."""
    state.env["ref_links"] = refs


def note_reference(state: BlockState, key: str, **data: Any) -> None:
    """Keep the parser's own facts (`raw_url`, where the destination is written, the line) with
    the definition mistune stored under `key` (its dict in `env["ref_links"]`)."""
    state.env["ref_links"][key].update(data)


# -- the inline state and its open brackets -------------------------------------------------------
# mistune 3.4 keeps every `[` and `![` still open in `brackets` (innermost last), each a
# `Bracket`: where its text starts (`start`, past the `[`), the index of its text token
# (`token_index`), whether it opens an image, whether it may still make a link (`active`: a link
# deactivates the `[` before it), and the link opener before it (`previous_link`, a chain from
# `last_link`).


# An open `[` or `![` (the adapter's functions read it).
Opener = Bracket


def inline_depth(state: InlineState) -> int:
    """How deep in nested inline containers `state` parses (mistune's `depth`, which its rules
    compare with `max_nested_level`)."""
    return state.depth


def in_link(state: InlineState) -> bool:
    """Whether `state` parses a link's text, where no link may start (mistune's `in_link`, which
    a raw `<a …>` also sets)."""
    return state.in_link


def set_in_link(state: InlineState, value: bool) -> None:
    """Set mistune's `in_link` (to undo what its raw HTML rule did)."""
    state.in_link = value


def open_brackets(state: InlineState) -> int:
    """How many `[` and `![` are open (mistune's `brackets`)."""
    return len(state.brackets)


def innermost_opener(state: InlineState) -> Bracket:
    """The innermost open `[` or `![` (there must be one)."""
    return state.brackets[-1]


def opener_usable(state: InlineState, opener: Bracket) -> bool:
    """Whether a `]` now may make a link or image of `opener`: mistune's `_close_bracket`
    test (active, and no link inside a link's text, where an image may still be)."""
    return opener.active and not (state.in_link and not opener.image)


def opener_text_start(opener: Bracket) -> int:
    """Where the text of `opener` starts in the inline source (past its `[`)."""
    return opener.start


def opener_token(opener: Bracket) -> int:
    """The index, in the inline tokens, of the text token mistune made of `opener`'s `[`."""
    return opener.token_index


def drop_opener(state: InlineState) -> Bracket:
    """Close the innermost `[` without a link, as mistune's `_close_bracket` does first (the
    link opener chain goes back past it), and return it."""
    opener = state.brackets.pop()
    if not opener.image:
        state.last_link = opener.previous_link
    return opener


def opener_text_starts(state: InlineState) -> list[int]:
    """Where the text of each open `[` and `![` starts (past it), outermost first."""
    return [bracket.start for bracket in state.brackets]


def reactivate_link_openers(state: InlineState) -> None:
    """Every open `[` made usable again (mistune's `active`): cmark-gfm keeps one flag for "no
    link opener is usable", which a link sets and any later `[` clears, for the `[`s before it
    too (`[[a](#l)[x]~](#t)` links `#t` around `#l`), where mistune deactivates each."""
    for bracket in state.brackets:
        bracket.active = True


def deactivate_link_openers(state: InlineState) -> None:
    """A link deactivates every `[` open before it (links do not nest), as mistune's own link
    close does: along `last_link` and `previous_link`, up to one already inactive."""
    bracket = state.last_link
    while bracket is not None and bracket.active:
        bracket.active = False
        bracket = bracket.previous_link


def inline_child(state: InlineState, src: str) -> Any:
    """A state for inline text parsed apart (a strikethrough's): mistune's `copy` (same class
    and env, one level deeper, `in_link` kept, no bracket open) with `src` as its source."""
    child = state.copy()
    child.src = src
    return child


# -- hooks -------------------------------------------------------------------------------------------


class HookedBlockState(BlockState):
    """mistune's `BlockState` with the three methods its parser calls to grow the tree handed to
    methods the parser defines: `child_state` (mistune's quote and list rules make a state for
    each container's content) to `open_child`, `append_token` (every block token but paragraph
    text) to `add_block`, `add_paragraph` (the loop's paragraph text) to `add_paragraph_text`.
    Defaults keep mistune's behaviour."""

    def child_state(self, src: str, lazy_line_starts: Any = None) -> Any:
        return self.open_child(src, lazy_line_starts)

    def append_token(self, token: Token) -> None:
        self.add_block(token)

    def add_paragraph(self, text: str) -> None:
        self.add_paragraph_text(text)

    def open_child(self, src: str, lazy_starts: Any) -> Any:
        return new_child_state(self, src, lazy_starts)

    def add_block(self, token: Token) -> None:
        BlockState.append_token(self, token)

    def add_paragraph_text(self, text: str) -> None:
        BlockState.add_paragraph(self, text)


class LineStartScanner:
    """A block scanner (mistune's `compile_sc` pattern) that finds its next match trying line
    starts only.

    mistune's loop, at a line no rule matches that is no plain paragraph's start (it begins with
    punctuation, a digit or a blank: `**`, `[`, `` ` ``), `search`es its scanner from there for
    the next block start. Every block rule's pattern begins with `^` (re.M): it matches only at
    the string's start or after a newline (tests/test_markdown_fast_paths.py proves it of every
    rule list the parser configures). The regex engine's search tries every alternative at every
    character, though; trying the pattern at `pos` and then at each line start after it finds
    the same first match (the first position, and at it the first alternative that matches, as
    `search` does) at a fraction of the cost (an eighth of the whole parse on the real
    documents). `match`, which is all mistune's other calls use, is the pattern's own."""

    __slots__ = ("match", "pattern")

    def __init__(self, sc: Any) -> None:
        self.pattern = sc
        self.match = sc.match

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        n = min(len(string), endpos)
        match = self.match
        while pos <= n:
            m = match(string, pos, endpos)
            if m is not None:
                return m
            nl = string.find("\n", pos, n)
            if nl < 0:
                return None
            pos = nl + 1
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


class HookedBlockParser(BlockParser):
    """mistune's `BlockParser` with its private fast path for indented lines open as the public
    hook `indent_code_fast`: mistune's `parse` calls `_parse_indent_code_fast` before any rule,
    and it takes a line of four blanks after a paragraph for text, which the parser must stop.
    Its scanners search line start by line start (`LineStartScanner`)."""

    _line_scanners: dict[int, LineStartScanner] | None = None

    def indent_code_fast(self, state: Any) -> Any:
        return BlockParser._parse_indent_code_fast(self, state)

    def _parse_indent_code_fast(self, state: Any) -> Any:
        return self.indent_code_fast(state)

    def compile_sc(self, rules: Any = None) -> Any:
        sc = BlockParser.compile_sc(self, rules)
        scanners = self._line_scanners
        if scanners is None:
            scanners = self._line_scanners = {}
        # (by identity: a pattern's hash reads its whole code each time; the scanner keeps
        # the pattern alive, so no other takes its id)
        scanner = scanners.get(id(sc))
        if scanner is None:
            scanner = scanners[id(sc)] = LineStartScanner(sc)
        return scanner


class HookedInlineParser(InlineParser):
    """mistune's `InlineParser` with the pattern of its private fast path for plain text open
    as the public hook `fast_trigger`, and kept while the set of characters it is made from is
    the same set: mistune's `_find_fast_text_end` asks `_get_fast_trigger_re` for it at every
    run of text, which sorts that set each time to look it up (a twentieth of the whole parse).
    mistune makes the set anew (`_get_fast_trigger_chars`) whenever its rules change and never
    alters one it made.

    mistune's loop stops plain text where the pattern matches and tries its rules there (one
    character of text when none matches); it takes no rule to start anywhere else than at the
    characters each rule declares (`start_chars`)."""

    _trigger_chars: Any = None
    _trigger_re: Any = None

    def _get_fast_trigger_re(self, chars: Any) -> Any:
        if chars is not self._trigger_chars:
            self._trigger_re = self.fast_trigger(chars)
            self._trigger_chars = chars
        return self._trigger_re

    def fast_trigger(self, chars: set[str]) -> Any:
        """The pattern that finds where plain text ends: mistune's, any of `chars` (the start
        characters of every rule)."""
        return InlineParser._get_fast_trigger_re(self, chars)

    def runs_mistunes(self, rule: str) -> bool:
        """Whether `rule` runs mistune's own method for it (`InlineParser.parse_<rule>`, the one
        mistune binds in `_methods`), not one registered or overridden since."""
        method = self._methods.get(rule)
        return getattr(method, "__func__", None) is getattr(InlineParser, "parse_" + rule, None) is not None

    def start_chars(self, rule: str) -> set[str] | None:
        """The characters mistune's fast path takes `rule` to start with (declared when the rule
        was registered, else mistune's own table); None: unknown, and mistune then has no fast
        path."""
        chars: set[str] | None = self._rule_start_chars.get(rule, _KNOWN_RULE_START_CHARS.get(rule))
        return chars
