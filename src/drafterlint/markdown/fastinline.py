"""mistune's inline parser with the fast path for plain text, GFM's bare URLs and
footnote labels that make no link."""

from __future__ import annotations

import re
from typing import Any

from mistune import InlineState

from drafterlint import lazyre
from drafterlint.markdown import emphasis
from drafterlint.markdown._mistune import (
    AUTOLINK,
    HookedInlineParser,
    add_token,
    clean_emphasis_token,
    coalesce_emphasis_text,
    contains_emphasis_marker,
    drop_opener,
    finalize_emphasis,
    in_link,
    inline_depth,
    innermost_opener,
    open_brackets,
    opener_text_start,
    opener_token,
    opener_usable,
    reactivate_link_openers,
    set_in_link,
    src_of,
    tokens_of,
)
from drafterlint.markdown.autolinks import URL_FIRST, URL_START, split_underscores_before, url_end


def parse_bare_url(inline: Any, m: re.Match[str], state: Any) -> int:
    """mistune's inline rule for a GFM extended autolink, ended the way cmark-gfm ends it."""
    start = m.start()
    src = src_of(state)
    end = url_end(src, start)
    if end < 0:
        inline.process_text(m.group(0), state)
        return m.end()
    if (open_brackets(state) or in_link(state) or emphasis.no_bare_urls(state)
            or inline_depth(state) >= inline.max_nested_level):
        # cmark-gfm links no bare URL while a `[` is open
        inline.process_text(m.group(0), state)
        return m.end()
    text = src[start:end]
    # cmark-gfm keeps a bare URL as written: `&amp;` in it is no entity
    url = "http://" + text if text.startswith("www") else text
    split_underscores_before(tokens_of(state))
    add_token(state,
        {"type": "link", "children": [{"type": "text", "raw": text, "_literal": True}], "attrs": {"url": url}, AUTOLINK: text}
    )
    return end


_CLOSERS_RE = lazyre.compile(r"\]+")
_CODE_LINE_END_RE = lazyre.compile(r"\n[ \t]*")
# a `[^label]` that is text as written (no entity decoded); its own token type, as mistune
# merges text tokens and their flags away
FOOTNOTE_LABEL = "footnote_label"


def _footnote_label_closes(state: InlineState, q: int) -> bool:
    """Whether the `]` at src_of(state)[q] ends a `[^label]` (the `[` open before it active, its
    text `^` and more) that makes no link or image."""
    opener = innermost_opener(state)
    if not opener_usable(state, opener):
        return False
    start = opener_text_start(opener)
    if q - start < 2 or src_of(state)[start] != "^":
        return False
    return not emphasis.link_at(state, opener, q)


# The characters a delimiter run is made of (mistune's emphasis rule, `[*_]+`).
_RUN_CHARS = "*_"

_PLAIN_RE = lazyre.compile(r"[\\`*_<>\[\]!&~$^=:]|  \n|www\.", re.I)


class FastInline(HookedInlineParser):
    """mistune's inline parser, with a fast path for text that holds no inline markup at all."""

    state_cls = emphasis.StrikeState

    def parse_inline_html(self, m: Any, state: Any) -> Any:
        # mistune reads the text after a raw `<a …>` as link text, where no link may start;
        # cmark-gfm (GitHub) parses links there as anywhere else
        was = in_link(state)
        end = super().parse_inline_html(m, state)
        set_in_link(state, was)
        return end

    def parse_link(self, m: Any, state: Any) -> Any:
        end = super().parse_link(m, state)
        if not m.group(0).startswith("!"):
            # a `[` makes the `[`s open before it usable again, though a link inside them
            # made them none (cmark-gfm's one flag for all link openers)
            reactivate_link_openers(state)
        return end

    def parse_codespan(self, m: Any, state: Any) -> Any:
        end = super().parse_codespan(m, state)
        toks = tokens_of(state)
        tok = toks[-1] if toks else None
        inner = src_of(state)[m.end() : end - len(m.group(0))]
        if tok is not None and tok["type"] == "codespan" and "\n" in inner:
            # a paragraph's lines lose their leading blanks before cmark-gfm reads its inlines:
            # a code span across lines has one space where a line ends (mistune keeps the
            # next line's indentation: a setext heading's anchor had a `-` too many)
            code = _CODE_LINE_END_RE.sub(" ", inner)
            if code.strip(" ") and code.startswith(" ") and code.endswith(" "):
                code = code[1:-1]
            tok["raw"] = code
        return end

    def parse_link_close(self, m: Any, state: Any) -> Any:
        if state.strike_brackets:
            # a `[` a strikethrough left open is the innermost one for some `]` of the run:
            # each `]` closes the `[` opened last, whichever parsed it
            q = m.start()
            while q < m.end():
                if emphasis.close_strike_bracket(state):
                    self.process_text("]", state)
                    q += 1
                else:
                    q = self._link_close(_CLOSERS_RE.match(src_of(state), q, q + 1), state)
            return q
        return self._link_close(m, state)

    def _link_close(self, m: Any, state: Any) -> Any:
        q = m.start()
        if not open_brackets(state) or not _footnote_label_closes(state, q):
            return super().parse_link_close(m, state)
        # `[^…]` that makes no link is a footnote reference for cmark-gfm, and one to a label
        # nothing defines is its source as text: no tag, autolink, emphasis or entity in it
        # (`[^<span id="s1">]` is no anchor)
        opener = drop_opener(state)
        at = opener_token(opener)
        toks, src = tokens_of(state), src_of(state)
        raw = toks[at]["raw"] + src[opener_text_start(opener) : q + 1]
        del toks[at:]
        add_token(state, {"type": FOOTNOTE_LABEL, "raw": raw})
        rest = _CLOSERS_RE.match(src, q + 1, m.end())
        return super().parse_link_close(rest, state) if rest else q + 1

    def fast_trigger(self, chars: set[str]) -> Any:
        # A bare URL's rule declares its first letters (`h`, `f`, `w`), so mistune's plain text
        # stopped at each of them, tried every rule there and made that letter a text token of
        # its own (most of a paragraph's tokens; finalizing joins them again). Where no other
        # rule starts with the letter, plain text stops only where a bare URL's start matches:
        # at any other such letter no rule would match, and mistune's loop would take it as
        # text. A delimiter run (`*`, `_`) is text as well: mistune's emphasis rule makes it a
        # text token of its own (the runs are judged once the block's text is finalized, in
        # the text joined again), so where no other rule starts with `*` or `_` plain text
        # does not stop there. The tokens differ only in how text is cut before it is joined.
        others: set[str] = set()
        for rule in self.rules:
            if rule not in ("url_link", "emphasis"):
                others |= self.start_chars(rule) or set()
        narrowed = (chars & set(URL_FIRST)) - others if "url_link" in self.rules else set()
        runs = (chars & set(_RUN_CHARS)) - others if self._runs_are_text() else set()
        plain = "".join(sorted(chars - narrowed - runs))
        if not (narrowed or runs) or not plain:
            return super().fast_trigger(chars)
        alternatives = f"[{re.escape(plain)}]" + (f"|{URL_START}" if narrowed else "")
        # (the lookahead on every character a stop starts with first lets the regex engine
        # skip the other characters quickly; URL_START's lookbehinds alone would not)
        first = "".join(sorted(set(plain) | narrowed))
        return re.compile(f"(?=[{re.escape(first)}])(?:{alternatives})")

    def _runs_are_text(self) -> bool:
        """Whether a delimiter run's rule is mistune's own, which adds the run as text."""
        return "emphasis" in self.rules and self.runs_mistunes("emphasis")

    def finalize_tokens(self, tokens: list[dict[str, Any]], depth: int) -> list[dict[str, Any]]:
        remaining = self.max_nested_level - depth
        enabled = "emphasis" in self.rules and remaining > 0
        if not enabled or not contains_emphasis_marker(tokens):
            # no run of `*` or `_` to judge (most blocks): both ways below join the text tokens
            # and drop mistune's keys, and nothing else (coalescing keeps each character in a
            # text token of the same kind, so it adds or takes away no run)
            return [clean_emphasis_token(tok) for tok in (coalesce_emphasis_text(tokens) if len(tokens) > 1 else tokens)]
        return self.finalize_runs(tokens, enabled, remaining)

    def finalize_runs(self, tokens: list[dict[str, Any]], enabled: bool, remaining: int) -> list[dict[str, Any]]:
        """Finalize emphasis as mistune does where it reads `tokens` as cmark-gfm, else with
        cmark-gfm's flanking (`emphasis.finalize`)."""
        if emphasis.mistune_reads_alike(tokens):
            return finalize_emphasis(tokens, enabled, remaining)  # mistune's own: the common case, and faster
        return emphasis.finalize(tokens, enabled, remaining)

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
