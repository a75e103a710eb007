"""mistune's inline parser with the fast path for plain text, GFM's bare URLs and
footnote labels that make no link."""

from __future__ import annotations

import re
from typing import Any

import mistune

from drafterlint.markdown import emphasis
from drafterlint.markdown.autolinks import split_underscores_before, url_end


def parse_bare_url(inline: Any, m: Any, state: Any) -> int:
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


class FastInline(mistune.InlineParser):
    """mistune's inline parser, with a fast path for text that holds no inline markup at all."""

    def parse_inline_html(self, m: Any, state: Any) -> Any:
        # mistune reads the text after a raw `<a …>` as link text, where no link may start;
        # cmark-gfm (GitHub) parses links there as anywhere else
        in_link = state.in_link
        end = super().parse_inline_html(m, state)
        state.in_link = in_link
        return end

    def parse_link_close(self, m: Any, state: Any) -> Any:
        emphasis.close_strike_bracket(state)
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
