"""The one writer of the Markdown people read: the Markdown report, the job summary, the audit's
report (audit.md and the tracking issue's body) and its timeline (the Mermaid labels too).

What drafterlint writes itself (headings, tables, its own links and folds) is Markdown; what it
quotes (a heading, a link's target, a file name, a catalog value, a finding's message, a reason)
comes from the checked repositories, a fork's pull request or a network answer, and must come
out as text whatever it holds. Each function here takes quoted text and returns Markdown that
renders as that text, in the place its name says:

* ``text`` prose, a table cell or a heading; ``message`` the same for a finding's message,
  whose code spans (the rule's backticks around a value) stay code spans; ``code`` a code span;
  ``link`` a link drafterlint makes; ``html`` text inside raw HTML (``<summary>``);
  ``mermaid`` a label in a Mermaid chart.
* Nothing quoted opens or closes anything: a link, an image, raw HTML or a comment, an entity,
  emphasis, a code span, a table cell or a line. A code span's fence is longer than any
  backtick run inside (CommonMark), padded when the text starts or ends with a backtick; in a
  table its `|` is written `\\|`, which GitHub's table reads as part of the cell even there.
* Nothing quoted notifies anyone or links on GitHub: a word holding an ``@`` (after any
  character), an issue reference (``#12``, ``GH-12``, ``owner/repo#12``), a bare URL or ``www.``
  is put in a code span, where GitHub links and mentions nothing.
* Controls, line breaks and the characters that disguise text (bidi and zero-width) are shown as
  the one escape for printed lines shows them (``safeio.visible``: ``\\u202e``); a line break in
  prose is the one HTML element quoted text can bring, ``<br>``.

Quoted text is never placed at the start of a line: the callers write the line's own opening
(`| `, `- `, `### `), so a `#`, `>` or `1.` in it opens no block.
"""

from __future__ import annotations

import bisect
import re
from urllib.parse import quote

from drafterlint import lazyre
from drafterlint.findings import quoted as _span
from drafterlint.safeio import visible

_RUN = lazyre.compile(r"`+")
# A word GitHub would link or notify from: a mention or e-mail address (`@` anywhere), an issue
# reference, a bare URL. It is shown in a code span, where GitHub does neither.
_LIVE = lazyre.compile(r"@|#[0-9]|(?i:gh-[0-9])|://|(?i:www\.)")
# A `|` is no part of a word: escaped as text, it is the same outside a table and inside one.
_WORD = lazyre.compile(r"[^\s|]+")
_AROUND = lazyre.compile(r"([(\[\"'“‘]*)(.*?)([)\]\"'”’.,:;!?]*)", re.S)
_BREAK = lazyre.compile(r"[ \t]*(?:\r\n|\r|\n)[ \t]*")
# Backslash-escaped wherever they stand: each could open emphasis, a code span, a link or image,
# strikethrough, a heading's closing sequence, math, or (in a table) a new cell.
_PUNCT = lazyre.compile(r"[\\`*\[\]~$#|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ENTITY = lazyre.compile(r"[&<>]")


def code(quoted: str, *, table: bool = False) -> str:
    """`quoted` as one code span (empty text: nothing)."""
    shown = visible(quoted)
    if table:
        shown = shown.replace("|", "\\|")
    return _span(shown) if shown else ""


def code_block(content: str, info: str = "") -> str:
    """`content` as a fenced code block, its lines as they are (a `suggestion` block must hold
    the exact line GitHub commits): the fence is longer than any backtick run inside, so no line
    of it closes the block."""
    fence = "`" * max(3, max((len(r) for r in _RUN.findall(content)), default=0) + 1)
    return f"{fence}{info}\n{content}\n{fence}"


def _units(quoted: str) -> list[tuple[bool, str]]:
    """Plain text as (is code, text) units: each live word to be a code span, the rest already
    Markdown (escaped, line breaks as `<br>`)."""
    out: list[tuple[bool, str]] = []
    for n, line in enumerate(_BREAK.split(quoted)):
        if n:
            out.append((False, "<br>"))
        line = visible(line)
        end = 0
        for m in _WORD.finditer(line):
            out.append((False, _escaped(line[end:m.start()])))
            word = m.group()
            if _LIVE.search(word):
                # The punctuation around a live word stays prose: "(see x@y)." spans `x@y` only.
                lead, core, trail = _AROUND.fullmatch(word).groups()  # type: ignore[union-attr]
                out += [(False, _escaped(lead)), (True, core), (False, _escaped(trail))]
            else:
                out.append((False, _escaped(word)))
            end = m.end()
        out.append((False, _escaped(line[end:])))
    return out


def _escaped(plain: str) -> str:
    return _ENTITY.sub(lambda e: _ENTITIES[e.group()], _PUNCT.sub(lambda p: "\\" + p.group(), plain))


def _joined(units: list[tuple[bool, str]], table: bool) -> str:
    """The units as Markdown; code units that touch are one span (two spans that touch would
    read as one opened by the first backtick and closed by the last)."""
    out: list[str] = []
    spans: list[str] = []
    for is_code, part in units:
        if is_code:
            spans.append(part)
        elif part:
            if spans:
                out.append(code("".join(spans), table=table))
                spans = []
            out.append(part)
    if spans:
        out.append(code("".join(spans), table=table))
    return "".join(out)


def text(quoted: str | None) -> str:
    """Quoted text as Markdown prose (a paragraph, a list item, a table cell, a heading): shown
    as written, each line break a `<br>`, no blanks at either end."""
    return _joined(_units(quoted.strip()), table=False) if quoted else ""


def pieces(message: str) -> list[tuple[bool, str]]:
    """(is a code span, its text) in order, as CommonMark reads code spans (a backtick run
    opens one that the next run of exactly its length closes; a run nothing closes is text).
    Backslashes are text: a message is not Markdown, it only quotes values in backticks."""
    runs = list(_RUN.finditer(message))
    by_length: dict[int, list[int]] = {}
    for k, r in enumerate(runs):
        by_length.setdefault(len(r.group()), []).append(k)
    out: list[tuple[bool, str]] = []
    start = 0
    k = 0
    while k < len(runs):
        opener = runs[k]
        same = by_length[len(opener.group())]
        at = bisect.bisect_right(same, k)
        if at == len(same):
            k += 1
            continue
        closer = runs[same[at]]
        if opener.start() > start:
            out.append((False, message[start:opener.start()]))
        inside = _BREAK.sub(" ", message[opener.end():closer.start()])
        if len(inside) > 1 and inside[0] == inside[-1] == " " and inside.strip(" "):
            inside = inside[1:-1]
        out.append((True, inside))
        start = closer.end()
        k = same[at] + 1
    if start < len(message):
        out.append((False, message[start:]))
    return out


def message(quoted: str | None, *, table: bool = False) -> str:
    """A finding's message (or suggestion, or reason) as Markdown: the values it quotes in
    backticks are code spans again, fenced anew; everything else is text."""
    if not quoted:
        return ""
    units: list[tuple[bool, str]] = []
    for is_code, part in pieces(quoted.strip()):
        units += [(True, part)] if is_code else _units(part)
    return _joined(units, table)


_URL_SAFE = "/:?#&=%@+~!$'*,;[]"


def link(label: str, url: str | None) -> str:
    """`label` (Markdown this module made) linked to `url`, when it is an https URL; its
    characters that could end the destination are percent-encoded."""
    if not url or not url.startswith("https://"):
        return label
    return f"[{label}]({quote(url, safe=_URL_SAFE)})"


def html(quoted: str | None) -> str:
    """Quoted text inside raw HTML (a `<summary>`), where Markdown is not read: entities, and
    the live words in `<code>`."""
    if not quoted:
        return ""

    def word(m: re.Match) -> str:
        shown = _ENTITY.sub(lambda e: _ENTITIES[e.group()], m.group())
        return f"<code>{shown}</code>" if _LIVE.search(shown) else shown

    return _WORD.sub(word, visible(quoted.strip()))


_MERMAID_UNSAFE = lazyre.compile(r"[^\w ./@()+-]")


def mermaid(quoted: str | None) -> str:
    """A label Mermaid's gantt parser takes as text: no `:`, `#`, `;` (its entity codes), quotes,
    brackets, backticks, controls or disguising characters; what is left out becomes a blank."""
    return re.sub(r"\s+", " ", _MERMAID_UNSAFE.sub(" ", str(quoted or ""))).strip() or "unnamed"
