"""What a parsed Markdown document is made of. Positions are 1-based lines and columns of the
original file (columns count characters, not bytes; a BOM is not a column)."""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable
from dataclasses import field
from itertools import accumulate, islice
from typing import Any, TypeVar

from drafterlint.records import dataclass

T = TypeVar("T")

# Where a limit's message (Outline.limits) names its first line: the parser's line there is not
# git's past a bare "\r", and the report says git's (checks.context.Context.unreadable_met).
LIMIT_LINE = "{line}"

# The small parts are slotted (no __dict__ each): a document keeps about a hundred of them for
# every 2.5 KB of text, and a docs tree of 20,000 files keeps every document for the links
# between them (a fifth less memory). Prose and Document keep lazily computed indexes in their
# __dict__, so they are not.

@dataclass(frozen=True, slots=True)
class Span:
    """Where something is written: from line:column up to, not including, end_line:end_column."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class Link:
    """A link in the text: inline, reference, autolink or an HTML `<a href>`."""

    text: str  # rendered link text (markup removed, escapes resolved)
    target: str  # destination as written, reference definitions resolved, entities decoded
    line: int  # where the link starts: the '[' (or '<' of an autolink)
    column: int
    kind: str  # "inline" | "reference" | "autolink" | "html"
    # Where a bracketed link's text is written (between its brackets), and its destination,
    # exactly as written (escapes and entities undecoded, without `<…>`): `target` decoded.
    # A reference link's destination is its definition's.  None where the parser cannot tell
    # (an autolink, an HTML link, a link it could not place).
    text_span: Span | None = None
    dest_span: Span | None = None


@dataclass(frozen=True, slots=True)
class Heading:
    """An ATX or setext heading."""

    level: int
    text: str  # rendered text, as GitHub slugs it
    number: str | None  # "2.9.4" for "2.9.4 Speculative Decoding"; None when unnumbered
    title: str  # text without the leading number
    slug: str  # GitHub's anchor for this heading, unique within the document
    anchors: tuple[str, ...]  # explicit <a id=…>/<a name=…> inside the heading
    line: int  # the line of the '#' (setext: the text line)
    column: int
    end_line: int = 0  # last line of the section (up to the next heading of the same or higher level)


@dataclass(frozen=True, slots=True)
class ListItem:
    """An item of a list."""

    text: str  # rendered text of the item's own paragraph(s), nested lists excluded
    line: int  # the bullet or number
    column: int
    depth: int  # 0 for a top-level list
    links: tuple[Link, ...] = ()
    prose: "tuple[Prose, ...]" = ()  # its own paragraphs' prose, nested lists excluded


@dataclass(frozen=True, slots=True)
class ListBlock:
    """A list: its items, where it starts, whether it is ordered and how deeply it is nested."""

    items: tuple[ListItem, ...]
    line: int
    column: int
    ordered: bool
    depth: int


@dataclass(frozen=True, slots=True)
class TableCell:
    """A cell of a table."""

    text: str
    line: int
    column: int
    links: tuple[Link, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """A GFM table."""

    header: tuple[TableCell, ...]
    rows: tuple[tuple[TableCell, ...], ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Quote:
    """A block quote or GitHub alert."""

    alert: str | None  # "NOTE", "CAUTION", … for GitHub alerts; None for a plain quote
    text: str
    line: int
    column: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph."""

    text: str  # rendered text
    line: int
    column: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Piece:
    """A stretch of a `Prose` text that stands, character for character, on one source line."""

    start: int  # offsets in Prose.text
    end: int
    line: int  # where Prose.text[start] is in the file
    column: int
    kind: str  # "text" | "code" (a code span) | "link" (a link's text) | "image" (its alt text)


def _slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of the slots `names` of the frozen slotted dataclass `cls`, for the fast
    constructors below (tests/test_markdown_fast_paths.py holds that they are its fields)."""
    return tuple(cls.__dict__[name].__set__ for name in names)


_PIECE_SLOTS = _slot_setters(Piece, "start", "end", "line", "column", "kind")
_SPAN_SLOTS = _slot_setters(Span, "line", "column", "end_line", "end_column")
_LINK_SLOTS = _slot_setters(Link, "text", "target", "line", "column", "kind", "text_span", "dest_span")
_PARAGRAPH_SLOTS = _slot_setters(Paragraph, "text", "line", "column", "end_line")
_ITEM_SLOTS = _slot_setters(ListItem, "text", "line", "column", "depth", "links", "prose")
_CELL_SLOTS = _slot_setters(TableCell, "text", "line", "column", "links")

# The parse makes the parts below one by one, thousands of each for a large document, through
# these constructors: each sets its slots directly, where a frozen dataclass's `__init__` calls
# `object.__setattr__` for each field (about half the cost of each part made).


def new_piece(start: int, end: int, line: int, column: int, kind: str) -> Piece:
    """`Piece(start, end, line, column, kind)` (a parse makes a piece for every run of text it
    places, the most numerous of its objects)."""
    piece = object.__new__(Piece)
    set_start, set_end, set_line, set_column, set_kind = _PIECE_SLOTS
    set_start(piece, start)
    set_end(piece, end)
    set_line(piece, line)
    set_column(piece, column)
    set_kind(piece, kind)
    return piece


def new_span(line: int, column: int, end_line: int, end_column: int) -> Span:
    """`Span(line, column, end_line, end_column)`."""
    span = object.__new__(Span)
    set_line, set_column, set_end_line, set_end_column = _SPAN_SLOTS
    set_line(span, line)
    set_column(span, column)
    set_end_line(span, end_line)
    set_end_column(span, end_column)
    return span


def new_link(text: str, target: str, line: int, column: int, kind: str,
             text_span: Span | None = None, dest_span: Span | None = None) -> Link:
    """`Link(text, target, line, column, kind, text_span, dest_span)`."""
    link = object.__new__(Link)
    set_text, set_target, set_line, set_column, set_kind, set_text_span, set_dest_span = _LINK_SLOTS
    set_text(link, text)
    set_target(link, target)
    set_line(link, line)
    set_column(link, column)
    set_kind(link, kind)
    set_text_span(link, text_span)
    set_dest_span(link, dest_span)
    return link


def new_paragraph(text: str, line: int, column: int, end_line: int) -> Paragraph:
    """`Paragraph(text, line, column, end_line)`."""
    paragraph = object.__new__(Paragraph)
    set_text, set_line, set_column, set_end_line = _PARAGRAPH_SLOTS
    set_text(paragraph, text)
    set_line(paragraph, line)
    set_column(paragraph, column)
    set_end_line(paragraph, end_line)
    return paragraph


def new_list_item(text: str, line: int, column: int, depth: int, links: tuple[Link, ...] = (),
                  prose: tuple[Prose, ...] = ()) -> ListItem:
    """`ListItem(text, line, column, depth, links, prose)`."""
    item = object.__new__(ListItem)
    set_text, set_line, set_column, set_depth, set_links, set_prose = _ITEM_SLOTS
    set_text(item, text)
    set_line(item, line)
    set_column(item, column)
    set_depth(item, depth)
    set_links(item, links)
    set_prose(item, prose)
    return item


def new_cell(text: str, line: int, column: int, links: tuple[Link, ...] = ()) -> TableCell:
    """`TableCell(text, line, column, links)`."""
    cell = object.__new__(TableCell)
    set_text, set_line, set_column, set_links = _CELL_SLOTS
    set_text(cell, text)
    set_line(cell, line)
    set_column(cell, column)
    set_links(cell, links)
    return cell


@dataclass(frozen=True)
class Prose:
    """The inline text of one block (paragraph, list item paragraph, heading, table cell) as
    GitHub renders it, with where each piece of it is written.

    Only what renders as text is here: code blocks, HTML blocks, HTML comments and tags, link
    destinations and markup characters are not. Code spans and link text are, marked by their
    piece's `kind`. Soft and hard line breaks are one space. Entity references are kept as
    written (`&amp;`), so that each piece is a verbatim copy of the source."""

    text: str
    pieces: tuple[Piece, ...]

    @property
    def line(self) -> int:
        return self.pieces[0].line if self.pieces else 0

    def _piece(self, index: int) -> Piece | None:
        i = bisect.bisect_right(self._starts, index) - 1
        return self.pieces[i] if i >= 0 else None

    @property
    def _starts(self) -> list[int]:
        starts = self.__dict__.get("_starts_")
        if starts is None:  # frozen: cache through __dict__
            starts = [p.start for p in self.pieces]
            object.__setattr__(self, "_starts_", starts)
        return starts

    def position(self, index: int) -> tuple[int, int]:
        """(line, column) of text[index]; a line break's space is placed after the piece before it."""
        piece = self._piece(index)
        if piece is None:
            return (self.pieces[0].line, self.pieces[0].column) if self.pieces else (0, 0)
        return piece.line, piece.column + min(index, piece.end) - piece.start

    def kind_at(self, index: int) -> str:
        """The kind of the piece holding text[index] ("text" for a line break's space)."""
        piece = self._piece(index)
        return piece.kind if piece is not None and index < piece.end else "text"


def new_prose(text: str, pieces: tuple[Piece, ...]) -> Prose:
    """`Prose(text, pieces)` (not slotted: its fields are in its `__dict__`)."""
    prose = object.__new__(Prose)
    fields_ = prose.__dict__
    fields_["text"] = text
    fields_["pieces"] = pieces
    return prose


@dataclass(frozen=True, slots=True)
class Suppression:
    """A suppression comment: the codes it silences and the lines it covers."""

    codes: frozenset[str]  # empty means every code
    start_line: int
    end_line: int | None  # None: to the end of the document


def line_starts(text: str, lines: list[str] | None = None) -> list[int]:
    """The offset at which each line of `text` begins (positions map back through these, and
    a fix's offsets: Document.line_starts). `lines`: `text.split("\n")`, where the caller has
    it already. (Each line's length and its "\n" summed by loops in C: a loop in Python over
    the rules document's 3,800 lines was 1 ms of each parse of it, sectioned or whole.)"""
    if lines is None:
        lines = text.split("\n")
    return list(accumulate(map(_PLUS_ONE, map(len, islice(lines, len(lines) - 1))), initial=0))


_PLUS_ONE = (1).__add__


class Outline:
    """What other documents read of a document: its path, its headings and anchors, its links,
    its suppression comments and the parts left unparsed.

    A parsed `Document` is one; once the rules that read a document's body (its prose, lists,
    tables) have run on it, the engine keeps its `Summary` instead, so that a docs tree of
    20,000 files holds what the links between them need and not every parsed body. Code that
    reads documents other than the one it reports on takes an Outline."""

    path: str  # POSIX path relative to its repository
    headings: list[Heading]
    links: list[Link]
    # Explicit anchors outside headings (<a id>, <a name>, any id= attribute), with their line.
    html_anchors: dict[str, int]
    suppressions: list[Suppression]
    # Parts of the document left unparsed because they exceed a bound (a table over the cell
    # budget): (first line, last line, message), each reported as DL702 while the rest is
    # checked; readers of the raw lines skip them too. The message names its first line by
    # LIMIT_LINE, which the report replaces with git's line.
    limits: list[tuple[int, int, str]]

    def _index(self) -> None:
        self._heading_lines = [h.line for h in self.headings]
        self._anchors: dict[str, int] | None = None
        self._targets: dict[str, Heading | int] = {}
        self._by_number: dict[str, Heading] | None = None

    def whole(self) -> "Document":
        """The document with its body, for a reader of its text (fix, which keeps documents
        whole); a Summary has none."""
        raise TypeError(f"{self.path}: only its outline was kept")

    def anchors(self) -> dict[str, int]:
        """Every fragment GitHub resolves in this document, lowercased, with its line.

        Computed once: documents are not changed after parsing.
        """
        if self._anchors is None:
            out: dict[str, int] = {}
            targets: dict[str, Heading | int] = {}
            for name, line in self.html_anchors.items():
                key = name.lower()
                out.setdefault(key, line)
                targets.setdefault(key, line)
            for h in self.headings:
                for a in (h.slug, *h.anchors):
                    key = a.lower()  # one string for both maps: every document a link reaches keeps them
                    out.setdefault(key, h.line)
                    # A heading's own anchors win over a same-named id elsewhere.
                    if not isinstance(targets.get(key), Heading):
                        targets[key] = h
            self._anchors, self._targets = out, targets
        return self._anchors

    def heading_for_fragment(self, fragment: str) -> Heading | None:
        """The heading a fragment lands on: its own, or the section holding an explicit anchor."""
        self.anchors()
        target = self._targets.get(fragment.lower())
        if target is None or isinstance(target, Heading):
            return target
        return self.section_at(target)

    def section_at(self, line: int) -> Heading | None:
        """The innermost heading whose section contains `line`."""
        i = bisect.bisect_right(self._heading_lines, line) - 1
        return self.headings[i] if i >= 0 else None

    def heading_by_number(self, number: str) -> Heading | None:
        if self._by_number is None:  # an index, built once: rules ask once per link
            by_number: dict[str, Heading] = {}
            for h in self.headings:
                if h.number is not None:
                    by_number.setdefault(h.number, h)
            self._by_number = by_number
        return self._by_number.get(number)

    def is_suppressed(self, code: str, line: int) -> bool:
        return any(
            (not s.codes or code in s.codes)
            and s.start_line <= line
            and (s.end_line is None or line <= s.end_line)
            for s in self.suppressions
        )


@dataclass
class Document(Outline):
    """A parsed Markdown document, whole: its text and every part the rules read."""

    path: str  # POSIX path relative to its repository
    text: str  # the source with line ends normalised to "\n" and the BOM removed
    headings: list[Heading] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    lists: list[ListBlock] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    quotes: list[Quote] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    # The text of every block that has inline text, in document order: what rules that look
    # for words in prose read (never the raw lines).
    prose: list[Prose] = field(default_factory=list)
    html_anchors: dict[str, int] = field(default_factory=dict)
    suppressions: list[Suppression] = field(default_factory=list)
    # Lines inside fenced or indented code, HTML comments and HTML blocks: never prose.
    code_lines: frozenset[int] = frozenset()
    limits: list[tuple[int, int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._index()
        self._line_starts: list[int] | None = None
        self._prose_lines: tuple[list[int] | None, list[Prose]] | None = None

    def whole(self) -> "Document":
        return self

    def summary(self) -> "Summary":
        """What other documents read of this one: the same headings; the links without where
        their text and destination are written (only fix reads that, and it keeps documents
        whole), a third of what a document of short paragraphs keeps."""
        links = [Link(k.text, k.target, k.line, k.column, k.kind) for k in self.links]
        return Summary(self.path, self.headings, links, self.html_anchors, self.suppressions, self.limits)

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + 1

    def line_starts(self) -> list[int]:
        """The offset in `text` at which each line begins, worked out on first use (a fix maps
        line and column to offsets and back; a check never asks)."""
        if self._line_starts is None:
            self._line_starts = line_starts(self.text)
        return self._line_starts

    def prose_between(self, first: int, last: int) -> list[Prose]:
        """The prose of the blocks with text that start on lines `first` to `last`, in order. The
        facts read the rules document's prose a section at a time, and a scan of all of it cost
        0.8 ms a section: the first line of each is listed once, then bisected (a list not in
        the order of its lines, which the parser never makes, is scanned as before)."""
        if self._prose_lines is None:
            blocks = [p for p in self.prose if p.pieces]
            starts = [p.pieces[0].line for p in blocks]
            self._prose_lines = (starts if all(map(operator.le, starts, starts[1:])) else None, blocks)
        lines, with_text = self._prose_lines
        if lines is None:
            return [p for p in with_text if first <= p.line <= last]
        return with_text[bisect.bisect_left(lines, first):bisect.bisect_right(lines, last)]


@dataclass
class Summary(Outline):
    """A document's outline alone: what the engine keeps of a checked document once the rules
    that read its body ran on it."""

    path: str
    headings: list[Heading]
    links: list[Link]
    html_anchors: dict[str, int]
    suppressions: list[Suppression]
    limits: list[tuple[int, int, str]]

    def __post_init__(self) -> None:
        self._index()


class Body:
    """A checked document as a rule's per-document part (`check_document`) reads it: its path,
    its outline, and `read(fn)`, what a function of the whole document gives. What is read is
    kept by the document's content (its path and bytes, cache.Read) for the run: a pull
    request's base is given what the current run read of a document the change left alone, and
    parses it again only for a function that did not run on it then. So `fn` reads the document
    alone, never the context or the repository (a module's function, not a closure), and gives
    a small value (what the part reports from, not the document's parts: the base keeps it)."""

    __slots__ = ("outline", "_reads", "_whole", "_doc")

    def __init__(self, outline: Outline, reads: dict[Any, Any], whole: Callable[[], Document] | None = None):
        self.outline = outline  # the document itself where the run has it whole
        self._reads = reads
        self._whole = whole  # where only its outline was kept: parses it again
        self._doc = outline if isinstance(outline, Document) else None

    @property
    def path(self) -> str:
        return self.outline.path

    def read(self, fn: Callable[[Document], T]) -> T:
        try:
            return self._reads[fn]  # type: ignore[no-any-return]
        except KeyError:
            pass
        if getattr(fn, "__closure__", None) is not None or "<" in getattr(fn, "__qualname__", "<"):
            raise TypeError(f"{fn!r}: a Body is read by a module's function of the document alone")
        if self._doc is None:
            assert self._whole is not None
            self._doc = self._whole()
        value = self._reads[fn] = fn(self._doc)
        return value
