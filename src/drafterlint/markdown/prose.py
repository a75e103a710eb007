"""The prose of one block: its inline text and where each piece of it is written.

mistune's inline tokens say what the text is; this finds, in order, where each token's text
stands in the block's source span (a `PosState` source, so offsets map to original lines and
columns). The text of a token is a subsequence of its source: markup characters (`*`, `` ` ``,
`[`), backslashes of escapes, line prefixes and destinations lie between its characters, never
inside a verbatim run, so each run is found by searching forward from the end of the last.
Link destinations are skipped explicitly (mistune's own link parser measures them), because
their characters could otherwise be taken for the text after the link.
"""

from __future__ import annotations

from typing import Any

from mistune.helpers import parse_link

from drafterlint import lazyre
from drafterlint.markdown._mistune import src_of
from drafterlint.markdown.inline import has_linkish
from drafterlint.markdown.model import Piece, Prose, new_piece, new_prose
from drafterlint.markdown.positions import PosState
from drafterlint.markdown.text import decode_entities

# A destination without title, spaces, escapes, entities, parentheses or angle brackets.
_SIMPLE_DESTINATION = lazyre.compile(r"\([^\s()<>\\&\"'`]*\)")


class _Placer:
    def __init__(self, st: PosState, a: int, b: int, rendered: list[str] | None = None):
        self.position = st.position
        self.source = src_of(st)
        self.p = a  # the source before this is placed
        self.b = b
        self.text: list[str] = []
        self.n = 0  # len("".join(self.text))
        self.pieces: list[Piece] = []
        # the text as inline.render renders it, if asked for (see prose_and_text)
        self.rendered = rendered
        self.linkish = False  # a link, an image or inline HTML met (inline.has_linkish)

    def _emit(self, s: str) -> None:
        self.text.append(s)
        self.n += len(s)

    def place(self, raw: str, kind: str) -> int | None:
        """Append `raw` as text of `kind`; the source offset of its first character, if found.

        Linear in the token and the source it covers: no search runs past the next character
        placed, so a long line of many tokens costs no more than its length."""
        src, b, p = self.source, self.b, self.p
        base = self.n
        self.text.append(raw)
        n = len(raw)
        self.n = base + n
        if n:
            # the common case, a token written as it is, on one line: one piece
            c = raw[0]
            q = src.find(c, p, b)
            if q >= 0 and c != " " and "\n" not in raw and src.startswith(raw, q):
                line, column = self.position(q)
                self.pieces.append(new_piece(base, base + n, line, column, kind))
                self.p = q + n
                return q
        return self.place_each(raw, kind, base)

    def place_each(self, raw: str, kind: str, base: int) -> int | None:
        """`place` character run by character run, `raw` appended at `base` already (every case
        `place` has no shortcut for: tests/test_markdown_fast_paths.py holds the shortcut to
        what this gives)."""
        src, b, p = self.source, self.b, self.p
        first = None
        i, n = 0, len(raw)
        while i < n:
            c = raw[i]
            q = src.find(c, p, b)
            if c == " ":  # a line end in the source renders as a space (in a code span)
                nl = src.find("\n", p, q if q >= 0 else b)
                if nl >= 0:
                    p = nl + 1
                    i += 1
                    continue
            if q < 0:
                break  # not in the source: the rest of this token stays unplaced
            if i == 0 and "\n" not in raw and src.startswith(raw, q):
                k = n  # the whole token as written
            else:
                k = 1
                while i + k < n and q + k < b and raw[i + k] == src[q + k] != "\n":
                    k += 1
            line, column = self.position(q)
            self.pieces.append(new_piece(base + i, base + i + k, line, column, kind))
            if first is None:
                first = q
            i += k
            p = q + k
        self.p = p
        return first

    def walk(self, children: Any, kind: str = "text") -> int | None:
        """Place the tokens; the source offset of the first character placed, if any."""
        first = None
        rendered = self.rendered
        for tok in children or ():
            t = tok.get("type")
            at: int | None = None
            if t == "text":
                raw = tok.get("raw", "")
                at = self.place(raw, kind)
                if rendered is not None:
                    rendered.append(raw if "_literal" in tok else decode_entities(raw))
            elif t == "codespan":
                raw = tok.get("raw", "")
                at = self.place(raw, "code" if kind == "text" else kind)
                if rendered is not None:
                    rendered.append(raw)
            elif t in ("softbreak", "linebreak"):
                self._emit(" ")
                if rendered is not None:
                    rendered.append(" ")
                nl = self.source.find("\n", self.p, self.b)
                if nl >= 0:
                    self.p = nl + 1
            elif t in ("inline_html", "block_html"):
                if t == "inline_html" or has_linkish(tok.get("children")):
                    self.linkish = True
                raw = tok.get("raw", "")
                q = self.source.find(raw, self.p, self.b) if raw else -1
                if q >= 0:
                    self.p = q + len(raw)
            elif t in ("link", "image"):
                self.linkish = True
                start = self.p
                at = self.walk(tok.get("children"), "image" if t == "image" else "link")
                self._skip_destination(start, at)
            elif tok.get("children"):
                at = self.walk(tok["children"], kind)
            elif "raw" in tok:
                at = self.place(tok["raw"], kind)
                if rendered is not None and "children" not in tok:
                    rendered.append(tok["raw"])
            if first is None:
                first = at
        return first

    def _skip_destination(self, start: int, text_at: int | None) -> None:
        """After a link's text: past its `](destination)` or `][label]`. An autolink (`<url>`,
        a bare URL) has none: no `[` opens its text."""
        src, b = self.source, self.b
        if text_at is not None and "[" not in src[start:text_at]:
            return
        close = src.find("]", self.p, b)
        if close < 0:
            return
        p = close + 1
        if src.startswith("(", p):
            m = _SIMPLE_DESTINATION.match(src, p, b)
            if m is not None:  # the common `(#anchor)` or `(url)`: no need to parse it
                p = m.end()
            else:
                _, end = parse_link(src, p + 1)
                if end is not None and end <= b:
                    p = end
        elif src.startswith("[", p):
            label_end = src.find("]", p + 1, b)
            if label_end >= 0:
                p = label_end + 1
        self.p = p


def prose(st: PosState, a: int, b: int, children: Any) -> Prose:
    """The `Prose` of the block whose inline source is src_of(st)[a:b] and tokens `children`."""
    placer = _Placer(st, a, b)
    placer.walk(children)
    return new_prose("".join(placer.text), tuple(placer.pieces))


def prose_and_text(st: PosState, a: int, b: int, children: Any) -> tuple[Prose, str, bool]:
    """The block's `Prose` (as `prose`), its text as `inline.render(children)` renders it (a
    paragraph's, a table cell's: images' text in, a line break a space, entity references
    decoded), and whether it holds a link, an image or inline HTML (`inline.has_linkish`): one
    walk over its tokens instead of three."""
    rendered: list[str] = []
    placer = _Placer(st, a, b, rendered)
    placer.walk(children)
    return new_prose("".join(placer.text), tuple(placer.pieces)), "".join(rendered), placer.linkish
