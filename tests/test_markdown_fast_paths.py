"""The parser's shortcuts through mistune find what mistune's own way finds.

- The block parser's scanners search line start by line start (`_mistune.LineStartScanner`):
  exact only while every block rule matches at a line start alone, which is proved here of each
  rule list the parser configures (from the patterns' parse trees), and the search is compared
  with the regex engine's own.
- Plain inline text stops only where a rule may start (`FastInline.fast_trigger`: at a bare
  URL's start, not at each `h`, `f`, `w`): the finalized inline tokens are those of an inline
  parser that stops where mistune's own pattern does.
- Emphasis is finalized by mistune's function with its delimiter runs found by a regex
  (`_mistune.finalize_emphasis`): the tokens are those mistune's own function makes.
- The inline position scanner's pattern (`inline.SPECIAL_RE`) leads with a lookahead on the
  characters its matches start with: it finds what the pattern as written finds.
- The model's small parts are made without the frozen dataclasses' `__init__` (`model.new_piece`,
  `new_link`, `new_span`, …): each is the part that `__init__` makes.
- Delimiter runs (`*`, `_`) do not stop plain inline text where mistune's own emphasis rule
  adds them as text: the tokens are those of a parser that stops at every rule's characters.
- The lines that may open a block are counted before parsing (`limits.block_count`) from line
  end to line end: as many as there are line starts where they match.
- A token's prose found as written on one line is placed in one piece at once
  (`prose._Placer.place`): the model is the one placing it run by run gives.
- A list item's marker line is read once for its state (`positions._MarkerLine`).
- Inline tokens holding no `*` or `_` run are finalized without judging runs
  (`FastInline.finalize_tokens`): the tokens are those judging them gives.
- Where each line starts (`model.line_starts`) is summed from the lines' lengths by loops in
  C: the offsets are those after each "\n" a scan finds, in calls that do not grow with the lines."""

from __future__ import annotations

import dataclasses
import inspect
import re
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mistune import InlineParser

from drafterlint.markdown import positions
from drafterlint.markdown._mistune import HookedInlineParser, LineStartScanner
from drafterlint.markdown.autolinks import URL_START
from drafterlint.markdown.blocks import make_markdown, markdown_parser
from drafterlint.markdown.emphasis import mistune_reads_alike
from drafterlint.markdown.fastinline import FastInline
from drafterlint.markdown.inline import SPECIAL_RE
from drafterlint.markdown.limits import BLOCK_LINE, block_count
from drafterlint.markdown.model import (
    Link,
    ListItem,
    Paragraph,
    Piece,
    Prose,
    Span,
    TableCell,
    new_cell,
    new_link,
    new_list_item,
    new_paragraph,
    new_piece,
    new_prose,
    new_span,
)
from drafterlint.markdown.parse import parse_blocks, parse_document
from drafterlint.markdown.prose import _Placer
from tests.helpers.gfm_documents import documents
from tests.helpers.gfm_regressions import REGRESSIONS

if sys.version_info >= (3, 11):
    from re import _constants as sre_constants
    from re import _parser as sre_parse
else:  # pragma: no cover
    import sre_constants
    import sre_parse


def _starts_at_line_start(items: list) -> bool:
    """Whether a sequence of regex items can match only where `^` holds (re.M: a line start):
    its first item that can consume or assert is `^`, or a group, branch or repeat (at least
    once) every way through which starts so."""
    for op, av in items:
        if op == sre_constants.AT:
            return av in (sre_constants.AT_BEGINNING, sre_constants.AT_BEGINNING_LINE)
        if op == sre_constants.SUBPATTERN:
            return _starts_at_line_start(list(av[-1]))
        if op == sre_constants.BRANCH:
            return all(_starts_at_line_start(list(alt)) for alt in av[1])
        if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            return av[0] >= 1 and _starts_at_line_start(list(av[2]))
        return False
    return False


def test_the_proof_tells_anchored_patterns_from_others():
    anchored = [r"^a", r"(^a)+", r"^(?:a|b)", r"(?:^a|^b)", r"(?P<x>^ {0,3}#)"]
    loose = [r"a", r"^a|b", r"(^a)*", r"(?:^a|b)", r"(?<=\n)a", r" *^a"]
    assert all(_starts_at_line_start(list(sre_parse.parse(p, re.M))) for p in anchored)
    assert not any(_starts_at_line_start(list(sre_parse.parse(p, re.M))) for p in loose)


def _rule_lists():
    block = markdown_parser().block
    lists = {"document": block.rules, "quote": block.block_quote_rules, "item": block.list_rules}
    assert {"fenced_code", "blank_line", "list", "block_quote", "table", "nptable", "footnote_def"} <= set(block.rules)
    return block, lists


def test_every_block_rule_matches_at_a_line_start_only():
    block, lists = _rule_lists()
    loose = [(where, name) for where, rules in lists.items() for name in rules
             if not _starts_at_line_start(list(sre_parse.parse(block.specification[name], block.sc_flag)))]
    assert loose == [], "a block rule that may match inside a line: LineStartScanner.search is wrong for it"


def test_the_parser_searches_with_line_start_scanners():
    block, lists = _rule_lists()
    for rules in lists.values():
        assert isinstance(block.compile_sc(rules), LineStartScanner)
    assert isinstance(block.compile_sc(), LineStartScanner)


_TEXTS = [*REGRESSIONS, "", "\n", "a\n\n", "x\n- a\n", "**b**\n[c]: /d\n", "a\n\n\n", "  \n#\n"]


@settings(max_examples=100, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents)
@example("**b** x\n| a |\n|---|\n")
@example("`a`\n\n> q\n")
def test_the_line_start_search_is_the_regex_search(text):
    _assert_searches_alike(text)


@pytest.mark.parametrize("text", _TEXTS)
def test_the_line_start_search_on_the_regressions(text):
    _assert_searches_alike(text)


def _assert_searches_alike(text: str) -> None:
    """At every offset of `text` (and of it with a line end more), with the text's end, none
    and one a little before it as the search's end, both searches find the same match."""
    block, lists = _rule_lists()
    for source in (text, text + "\n"):
        for rules in lists.values():
            scanner = block.compile_sc(rules)
            sc = scanner.pattern
            for pos in range(len(source) + 1):
                for end in (sys.maxsize, max(pos, len(source) - 3)):
                    a, b = scanner.search(source, pos, end), sc.search(source, pos, end)
                    assert (a and (a.span(), a.lastgroup)) == (b and (b.span(), b.lastgroup)), (source, pos, end)


class _MistunesStops(FastInline):
    """The inline parser stopping plain text where mistune's own pattern does (at every
    character a rule may start with)."""

    def fast_trigger(self, chars: set[str]):
        return HookedInlineParser.fast_trigger(self, chars)


_ENV = {"ref_links": {"r": {"url": "/ref-target", "label": "r"}}}


def _inline_tokens(md, text: str):
    return md.inline(text, {"ref_links": dict(_ENV["ref_links"])})


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents | st.text(alphabet="hHfFwW:/._-*~&;\\ \n[]()<>tpsx", max_size=40))
@example("wh  \nhttp://a.example hhttp://b.example _u_https://c.example &hellip; www.x.org")
@example("AT&amp;T ftp://f.example/x~www.a.example~ (www.b.example) Http://X.example")
@example("x__http://a.example **b**_c_ *_d_*http://e.example \\__http://f.example a*_[b]_*c")
def test_plain_text_stops_where_a_rule_may_start(text):
    narrowed, plain = markdown_parser(), make_markdown(_MistunesStops())
    assert _inline_tokens(narrowed, text) == _inline_tokens(plain, text), text


class _MistunesFinalizing(FastInline):
    """The inline parser finalizing emphasis with mistune's own function where it reads the
    tokens as cmark-gfm does."""

    def finalize_tokens(self, tokens, depth):
        if mistune_reads_alike(tokens):
            return InlineParser.finalize_tokens(self, tokens, depth)
        return super().finalize_tokens(tokens, depth)


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents | st.text(alphabet="**__ab \n[]()`\\&;.,!-", max_size=40))
@example("***a** b* __c_ d_ *e**f**g* _h*i*j_ a*b*c a_b_c **x**y ***z*** `*` \\*a*")
@example("*a [b](#c) d* _e <https://x.example> f_ **g `h` i** *a\nb* ***")
@example("a **__b__** *_c_* _*d*_ __**e**__ *__f__* x*_y_*z")
def test_emphasis_is_finalized_as_mistune_finalizes_it(text):
    ours, mistunes = markdown_parser(), make_markdown(_MistunesFinalizing())
    assert _inline_tokens(ours, text) == _inline_tokens(mistunes, text), text


class _EveryRunJudged(FastInline):
    """The inline parser finalizing every block's tokens the way that judges their runs,
    whether they hold one or not."""

    def finalize_tokens(self, tokens, depth):
        remaining = self.max_nested_level - depth
        return self.finalize_runs(tokens, "emphasis" in self.rules and remaining > 0, remaining)


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents | st.text(alphabet="ab ~&;#\\`[]()<>\n\u00e9*_", max_size=40))
@example("a&amp;b &#35;x &copy &a; \\*a\\_ ~~a~~ b \u00e9 ~x~ `*` [c](#d) <e> f  \ng")
@example("&amp&amp; [&]() ~ ~~ \u00a0\u2003 a\\\nb")
def test_tokens_without_a_run_are_finalized_as_with_their_runs_judged(text):
    """Inline tokens holding no `*` or `_` run to judge are only joined and cleaned
    (`FastInline.finalize_tokens`): what judging their runs gives."""
    ours, judged = markdown_parser(), make_markdown(_EveryRunJudged())
    assert _inline_tokens(ours, text) == _inline_tokens(judged, text), text


def test_delimiter_runs_stop_plain_text_only_under_mistunes_own_rule():
    """Plain text passes over `*` and `_` because mistune's emphasis rule adds a run as text;
    a rule for them registered in its place (which may make other tokens) stops it again."""
    ours = markdown_parser().inline.fast_trigger({"*", "_", "[", "h"})
    assert [m.start() for m in ours.finditer("a *b* _c_ [d]")] == [10]
    md = make_markdown(FastInline())
    md.inline.register("emphasis", r"[*_]+", lambda inline, m, state: None)
    theirs = md.inline.fast_trigger({"*", "_", "[", "h"})
    assert [m.start() for m in theirs.finditer("a *b* _c_ [d]")] == [2, 4, 6, 8, 10]


def test_the_narrowed_stops_skip_the_letters():
    inline = markdown_parser().inline
    assert inline("the foo with hhttp://x wwww.y", {}) == [{"type": "text", "raw": "the foo with hhttp://x wwww.y"}]
    chars = {"h", "f", "w", "\n", "["}
    narrowed = inline.fast_trigger(chars)
    assert [m.start() for m in narrowed.finditer("the [w] http://x\n")] == [4, 8, 16]
    mistunes = _MistunesStops().fast_trigger(chars)
    assert [m.start() for m in mistunes.finditer("the [w] http://x\n")] == [1, 4, 5, 8, 16]


# -- the inline scanner's pattern ----------------------------------------------------------------

_SPECIAL_AS_WRITTEN = re.compile(r"[\\`<\[\]]|" + URL_START)


@pytest.mark.slow  # every code point, three times
def test_a_bare_url_starts_with_h_f_or_w_only():
    """The scanner's lookahead holds every character a match may start with: a bare URL's
    first letter, in any case the regex engine folds to (no other code point)."""
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    starts = set()
    for tail in ("ttps://x", "tp://x", "ww.x"):
        starts |= {m.group()[0] for m in re.finditer(URL_START, " " + (tail + " ").join(chars) + tail)}
    assert starts == {"h", "H", "f", "F", "w"}
    assert all(SPECIAL_RE.match(c) for c in "\\`<[]")


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents)
@example("see www.a.example and Http://x.example(http://y.example) _www.z.example")
def test_the_inline_scanner_finds_what_its_pattern_as_written_finds(text):
    for pos in range(len(text) + 1):
        a, b = SPECIAL_RE.search(text, pos), _SPECIAL_AS_WRITTEN.search(text, pos)
        assert (a and a.span()) == (b and b.span()), (text, pos)


_SPAN = Span(1, 2, 1, 9)
_LINK = Link("t", "#x", 3, 4, "inline", _SPAN, None)
_PROSE = Prose("ab", (Piece(0, 2, 1, 1, "text"),))
_FAST = [
    (new_piece, Piece, (3, 7, 12, 5, "code")),
    (new_span, Span, (4, 1, 6, 3)),
    (new_link, Link, ("a", "b.md#c", 2, 5, "reference", _SPAN, Span(2, 9, 2, 12))),
    (new_link, Link, ("", "#x", 7, 1, "html")),
    (new_paragraph, Paragraph, ("text", 3, 1, 5)),
    (new_list_item, ListItem, ("item", 4, 3, 1, (_LINK,), (_PROSE,))),
    (new_list_item, ListItem, ("item", 4, 3, 0)),
    (new_cell, TableCell, ("cell", 9, 4, (_LINK,))),
    (new_cell, TableCell, ("cell", 9, 4)),
    (new_prose, Prose, ("ab", (Piece(0, 2, 1, 1, "text"),))),
]


@pytest.mark.parametrize(("fast", "cls", "args"), _FAST, ids=lambda x: getattr(x, "__name__", ""))
def test_a_part_made_fast_is_the_dataclass_made(fast, cls, args):
    """Each fast constructor of the model (`model.new_piece`, `new_link`, …) takes the
    dataclass's fields in order with its defaults (no field added since goes unset) and makes
    what the dataclass's own constructor makes: it compares, hashes, prints and stays frozen
    alike."""
    params = inspect.signature(fast).parameters
    assert [(f.name, f.default) for f in dataclasses.fields(cls)] == [(n, p.default if p.default is not p.empty else dataclasses.MISSING) for n, p in params.items()]
    made_fast, made = fast(*args), cls(*args)
    assert type(made_fast) is cls and made_fast == made and hash(made_fast) == hash(made) and repr(made_fast) == repr(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made_fast.line = 1  # type: ignore[misc]


# -- the block count before parsing ------------------------------------------------------------


@settings(max_examples=200, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents | st.text(alphabet="#->*+|=`~1.) \t\nab", max_size=60))
@example("# a\n- b\n> > 2) c\n|d\n===\n```\n~~~\n\n  - e\nf\n")
def test_the_block_lines_are_counted_line_start_by_line_start(text):
    """`limits.block_count` counts the lines that may open a block by the line end before each,
    and the first line apart: as many as a search for them at every line start finds."""
    at_line_starts = len(re.findall("^" + BLOCK_LINE, text, re.MULTILINE))
    runs = len(re.findall(r"^[ \t]*\S.*(?:\n[ \t]*\S.*)*", text, re.MULTILINE))
    assert block_count(text).blocks == runs + at_line_starts


# -- placing prose ---------------------------------------------------------------------------


def _placed_step_by_step(self, raw, kind):
    """`_Placer.place` without its shortcut: every token run by run (`place_each`)."""
    base = self.n
    self.text.append(raw)
    self.n = base + len(raw)
    return self.place_each(raw, kind, base)


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents | st.text(alphabet="ab `*_[]()<>&;|-\n\t", max_size=60))
@example("`a\nb` `c  d` ` e` [`f`](#g) **h** a&amp;b\n| x | `y\\|z` |\n|-|-|\n| 1 | ` ` |\n")
@example("- `a\n  b` c\n  > `d\n  > e`\n")
def test_prose_is_placed_as_token_by_token_run_by_run(text):
    """A token's text found as written on one line is placed in one piece at once
    (`prose._Placer.place`): the model is the one placing every token run by run gives."""
    fast = parse_document(text, "a.md")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_Placer, "place", _placed_step_by_step)
        slow = parse_document(text, "a.md")
    assert fast == slow, text


# -- a list item's marker line -------------------------------------------------------------------


def test_a_list_items_marker_line_is_read_once(monkeypatch):
    """Opening a list item's state reads its marker line once (`positions._MarkerLine`): its
    continuation width, for the Unicode blanks mistune dropped and for the lazy lines, is
    computed once an item."""
    calls = []
    real = positions.compile_continue_width
    monkeypatch.setattr(positions, "compile_continue_width", lambda *a: calls.append(a) or real(*a))
    doc = parse_document("- a\n\n- b\n  c\nd\n1. e\n", "a.md")
    assert [len(block.items) for block in doc.lists] == [2, 1]
    assert len(calls) == 3


@pytest.mark.parametrize("raw", ["a\nb", "a b", " b", "b", "a  b", "x", "", "\nb", "b\n"])
def test_a_token_is_placed_as_run_by_run(raw):
    """`_Placer.place` on tokens the parser may not make (a line end in one): what placing
    it run by run gives."""
    text = "a\nb a b a  b\n"
    state, _ = parse_blocks(text, text.split("\n"))
    fast, slow = _Placer(state, 0, len(text)), _Placer(state, 0, len(text))
    assert fast.place(raw, "text") == _placed_step_by_step(slow, raw, "text")
    assert (fast.pieces, fast.p, fast.n, fast.text) == (slow.pieces, slow.p, slow.n, slow.text)


def test_each_heading_is_made_once_with_its_section_end(monkeypatch):
    """headings.finish_headings works out where each section ends before making the headings,
    so each is made once (it made each, then each again by dataclasses.replace with its end)."""
    from drafterlint.markdown import headings
    from drafterlint.markdown.model import Heading

    made: list[Heading] = []

    def counted(*args):
        made.append(Heading(*args))
        return made[-1]

    text = "# 1 A\n\n## 1.1 B\n\ntext\n\n### c\n\n## 1.2 D\n\n# 2 E\n\nmore\n"
    monkeypatch.setattr(headings, "Heading", counted)
    doc = parse_document(text, "x.md")
    assert made == doc.headings
    assert [(h.number, h.line, h.end_line) for h in doc.headings] == [
        ("1", 1, 10), ("1.1", 3, 8), (None, 7, 8), ("1.2", 9, 10), ("2", 11, 13)]


def _starts_by_scan(text: str) -> list[int]:
    return [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(documents | st.text(alphabet="ab\n\r \u2028\x0b\x85\u00e9", max_size=40))
@example("")
@example("\n")
@example("a\r\nb\n\n")
def test_line_starts_are_where_each_line_break_ends(text):
    from drafterlint.markdown.model import line_starts

    assert line_starts(text) == _starts_by_scan(text) == line_starts(text, text.split("\n"))


def test_line_starts_are_found_in_calls_that_do_not_grow_with_the_lines():
    # (the rules document's 3,800 lines were a loop in Python, 1 ms of each parse of it)
    from drafterlint.markdown.model import line_starts

    def calls(lines: int) -> int:
        text = "a line\n" * lines
        counted = [0]

        def profile(frame, event, arg):
            # only what line_starts calls: a collection in the middle may run another test's
            # finalizers, which are no call of its (in a shuffled order, calls(10) counted 8)
            made_by_it = frame.f_code is line_starts.__code__ if event == "c_call" else (
                event == "call" and frame.f_back is not None and frame.f_back.f_code is line_starts.__code__)
            counted[0] += made_by_it

        sys.setprofile(profile)
        try:
            starts = line_starts(text)
        finally:
            sys.setprofile(None)
        assert starts == _starts_by_scan(text)
        return counted[0]

    assert calls(10) == calls(2000) > 0
