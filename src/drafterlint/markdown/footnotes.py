"""Footnote definitions (cmark-gfm's extent and content) and the dropping of the ones
nothing references."""

from __future__ import annotations

from typing import Any

from mistune.util import unikey

from drafterlint import lazyre
from drafterlint.markdown._mistune import (
    add_token,
    env_set,
    has_continuation_indent,
    src_of,
    strip_continuation_indent,
    tokens_of,
)
from drafterlint.markdown.autolinks import URL_START, url_end
from drafterlint.markdown.lazy import first_cut, parse_cut_at_lazy_line
from drafterlint.markdown.patterns import HTML_1_TO_6_RE, HTML_7_RE
from drafterlint.markdown.positions import PosState

FOOTNOTE_DEF = r"^ {0,3}\[\^[^\]\s]+\]:[^\n]*(?:\n|$)"
# a line, not indented, that ends a footnote definition: any block start but a setext underline
# and indented code (cmark-gfm starts even an empty item, `2.` or a tag of type 7 on a line the
# definition does not hold; HTML blocks are tested apart)
_FOOTNOTE_END_RE = lazyre.compile(
    r"[ \t]{0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|```|~~~|"
    r"(?:[-*_][ \t]*){3,}$|\[\^[^\]\s]+\]:)"
)


def parse_footnote_def(block: Any, m: Any, state: Any) -> int:
    """`[^1]: …` and its continuation lines: a footnote definition, which GitHub renders at the
    end of the document.  Like a list item, it holds blocks: the text after `]:`, the lines
    indented by four (blank lines between them included) and lazy lines that continue its
    paragraph; never a reference definition of itself."""
    start = m.start()
    extent = _footnote_extent(src_of(state), m.end())

    def parse(line: int | None) -> tuple[PosState, int]:
        end = extent if line is None else state.starts[line - state.line_base]
        child = _footnote_content(state, start, end)
        block.parse(child)
        return child, end

    child, end = parse_cut_at_lazy_line(state, parse, lambda r: first_cut([r[0]]), lambda line: extent - start)
    # whether anything refers to it is known once the whole document is parsed
    add_token(state, {"type": "footnote", "children": tokens_of(child), "_label": _footnote_label(m.group(0))})
    env_set(state, FOOTNOTES, True)
    return end


def _footnote_extent(src: str, pos: int) -> int:
    """Where the lines a footnote definition may hold end (its first line ends at `pos`)."""
    end = pos
    n = len(src)
    while end < n:
        line_end = src.find("\n", end)
        line_end = n if line_end < 0 else line_end
        line = src[end:line_end]
        nxt = min(n, line_end + 1)
        if not line.strip():
            # blank lines: the definition goes on only if an indented line follows them
            j = nxt
            while j < n:
                k = src.find("\n", j)
                k = n if k < 0 else k
                if src[j:k].strip():
                    break
                j = min(n, k + 1)
            k = src.find("\n", j)
            if j < n and has_continuation_indent(src[j : n if k < 0 else k], 4):
                end = j
                continue
            break
        if not has_continuation_indent(line, 4) and (
            _FOOTNOTE_END_RE.match(line) or HTML_1_TO_6_RE.match(line) or HTML_7_RE.match(line)
        ):
            break
        end = nxt
    return end


def _footnote_content(state: PosState, start: int, end: int) -> PosState:
    """The child state of the footnote definition at `start` holding its lines up to `end`:
    the first without `[^label]:`, indented ones without four columns, lazy ones as written."""
    lines = src_of(state)[start:end].split("\n")
    first = lines[0]
    out = [first[first.index("]:") + 2 :].lstrip(" \t")]
    base = state.orig_line(start)
    lazy_lines: list[int] = []
    lazy_starts: set[int] = set()
    off = len(out[0]) + 1
    for i, line in enumerate(lines[1:], 1):
        if has_continuation_indent(line, 4):
            line = strip_continuation_indent(line, 4)
        elif line.strip():
            lazy_lines.append(base + i)
            lazy_starts.add(off)
        out.append(line)
        off += len(line) + 1
    child = state.child_at("\n".join(out), base, lazy_starts or None)
    child.lazy_lines = lazy_lines
    return child


FOOTNOTE_REF_RE = lazyre.compile(r"\[\^([^\]\s]+)\](?!:)|`+")
FOOTNOTES = "_drafterlint_footnotes"  # in the parse's env: a footnote definition was seen


def _footnote_label(line: str) -> str:
    return unikey(line[line.index("[^") + 2 : line.index("]:")])


def drop_unreferenced_footnotes(tokens: list[dict[str, Any]]) -> None:
    """GitHub renders a footnote definition only if the document refers to it (`[^label]` in
    text, not in code or HTML), and only the first of those with one label: what the others
    hold is not on the page."""
    refs: set[str] = set()
    notes: list[dict[str, Any]] = []
    stack = list(reversed(tokens))
    while stack:  # in document order
        tok = stack.pop()
        if tok["type"] == "footnote":
            notes.append(tok)
        text = tok.get("text")
        if isinstance(text, str) and "[^" in text:
            refs.update(_footnote_refs_in(text))
        stack.extend(reversed(tok.get("children") or ()))
    seen: set[str] = set()
    for tok in notes:
        if tok["_label"] not in refs or tok["_label"] in seen:
            tok["type"] = "unrendered_footnote"
            tok["children"] = []
        seen.add(tok["_label"])


def _footnote_refs_in(text: str) -> set[str]:
    """The labels `text` refers to, outside code spans (an odd count of backtick runs before a
    reference puts it in one: close enough for a footnote's label in a code span)."""
    out = set()
    runs = 0
    for m in FOOTNOTE_REF_RE.finditer(text):
        if m.group(1) is None:
            runs += 1
        elif runs % 2 == 0 and not _in_bare_url(text, m.start()):
            out.add(unikey(m.group(1)))
    return out


_URL_START_RE = lazyre.compile(URL_START)


def _in_bare_url(text: str, pos: int) -> bool:
    """Whether text[pos] is inside a bare URL (`https://e.org/x[^1]` links `…x[^1]`: no
    footnote is referred to)."""
    k = max(text.rfind(" ", 0, pos), text.rfind("\t", 0, pos), text.rfind("\n", 0, pos)) + 1
    m = _URL_START_RE.search(text, k, pos)
    if m is None:
        return False
    if m.start() and text[m.start() - 1] == "<":  # `<http://x>[^1]`: an autolink ends at `>`
        e = text.find(">", m.start(), pos)
        return e < 0
    return url_end(text, m.start()) > pos
