"""Parsing a document section by section, so that an edit re-parses only the section it is in.

A *cut* is where the block parser, reading the document, starts a level-1, 2 or 3 ATX heading
in the document itself (no container, HTML block, fence or paragraph open there): the heading is
one line and closes every block before it, so the blocks on either side of a cut are what they
are whatever is on the other side. The cuts are never guessed: a line that looks like such a
heading is only a *candidate*, and a section is the text up to a candidate parsed with that
candidate's line after it (its *probe*): when the parser makes that line a heading in the
document's own token list, the candidate is a cut; when it does not (an HTML block or a fence
runs into it), the probe goes on to a later candidate.

What a section's blocks are then depends on its text, the line after it and the budget the parse
has left (lazy.py, table_rule.py: a probe starts with what the sections before it left). What its
model is (parse.Part: links, lists, prose...) depends besides on the reference definitions it looks
up, which may stand anywhere in the document, and on the raw HTML the blocks before it leave open
(parse.Carry). So a section's cache entry, named by its text and the line after it, holds what
it found and what it read: the budget it spent (a section whose parse the budget limited is not
kept), the definitions it makes, the definitions it looked up and the raw HTML state it started
from. An entry is reused only where all of these are the same (positions shifted by where the
section now starts); otherwise the section is parsed again. What depends on the whole document is
computed over the whole document after: the definitions (the first one of a label wins), heading
anchors (duplicates numbered -1, -2), sections' extents, comments and suppressions
(parse.assemble). A document with footnotes is parsed whole: their numbers follow the order of
references over the whole document, and the headings' text holds them.

Entries are JSON (`cache_codec`), never pickle: a cache CI restores may have been written by
anyone. tests/test_sectioned_parse.py parses sectioned and whole and requires the same model.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import field
from typing import Any, Protocol

from drafterlint import lazyre
from drafterlint.cache_codec import decode_columns, encode_columns, pools_of
from drafterlint.inputs import sha256 as _sha256  # (hashlib imported where a section is first named)
from drafterlint.markdown._mistune import env_get, ref_links, tokens_of, use_ref_links
from drafterlint.markdown.lazy import REPARSE_LEFT, REPARSE_REFUSED, reparse_budget
from drafterlint.markdown.limits import MAX_MARKUP, refuse_if_too_big
from drafterlint.markdown.model import Document, Link, ListBlock, Paragraph, Prose, Quote, Span, Table, line_starts
from drafterlint.markdown.parse import (
    Builder,
    Carry,
    Part,
    assemble,
    normalise,
    parse_blocks,
    parse_document,
    parse_inline,
)
from drafterlint.markdown.positions import PosState
from drafterlint.markdown.table_rule import CELLS_LEFT, MAX_TABLE_CELLS
from drafterlint.records import dataclass

FORMAT = 2  # (2: a section's model in columns)
# Below this many bytes a document is kept whole (cache.DocumentCache): one entry costs less to
# read than its sections, and re-parsing it all costs little.
WORTH_SECTIONING = 32 * 1024
# A line the block parser may make a level-1, 2 or 3 ATX heading: a candidate cut. (Level 3 too:
# the real rules document's level-1/2 sections were 0.4 to 74 KB, its last one 22 KB, re-parsed
# by a line appended to it; cut at level 3 too, 84 sections, the last one 2 KB.)
# (Matched from the line break before it: a pattern that starts with a literal is searched for
# that character, one that starts with `^` is tried at every offset, 5x slower.)
_CANDIDATE_RE = lazyre.compile(r"\n {0,3}#{1,3}(?=[ \t\n]|\Z)")
_NO_CARRY: Carry = (False, ("", (0, 0)))
# The ends a lookup tries beyond a section's first candidate (cached): sections that start with
# the same text and line may end at different candidates; each costs naming up to its end.
MAX_REACHES = 4


class SectionStore(Protocol):
    """Where section entries are kept (cache.DocumentCache.sections, or a dict in tests).

    An entry is JSON but for its keys starting with `_`, which only the run that made it
    keeps (the model's objects, reused as they are where the section has not moved); when the
    store `persists` (writes the entries where a later run reads them) the part is JSON too."""

    salt: str  # what else names an entry: the tool's fingerprint
    persists: bool

    def get(self, name: str) -> Any: ...

    def put(self, name: str, entry: dict[str, Any]) -> None: ...

    def done(self, names: list[str]) -> None:
        """The document is kept as the sections `names` (in order): a store keeping one entry
        per document (cache.SectionPack) writes it now."""


class MemoryStore:
    """Entries in a dict: a test's (`persists`: as if written, the part as JSON)."""

    def __init__(self, salt: str = "", *, persists: bool = False) -> None:
        self.salt = salt
        self.persists = persists
        self.entries: dict[str, dict[str, Any]] = {}

    def get(self, name: str) -> Any:
        entry = self.entries.get(name)
        if entry is not None and self.persists:
            return {k: v for k, v in entry.items() if not k.startswith("_")}
        return entry

    def put(self, name: str, entry: dict[str, Any]) -> None:
        self.entries[name] = entry

    def done(self, names: list[str]) -> None:
        pass  # (every entry is kept)


class _Whole(Exception):
    """The document is parsed whole instead: a parse ran out of recursion, or a container was
    parsed again (see _Sectioned.parse)."""


@dataclass(eq=False, repr=False)
class _Section:
    """One top-level section of a document being parsed: where it is, its cache entry, its parse."""

    start: int  # offsets in the document
    end: int
    line: int  # where it starts
    name: str
    budget: tuple[int, int]  # what the parse has left where it starts
    used: tuple[int, int] = (0, 0)
    defs: dict[str, Any] = field(default_factory=dict)
    entry: dict[str, Any] | None = None
    state: PosState | None = None
    # (the name of the section ending at its first candidate, how many candidates further
    # its cut is): kept beside its entry when the cut is further, for `cached`
    reach: tuple[str, int] = ("", 0)


class _Recorded(dict[str, Any]):
    """The document's reference definitions, remembering every label looked up."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.seen: set[str] = set()

    def __getitem__(self, key: Any) -> Any:
        self.seen.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.seen.add(key)
        return super().get(key, default)

    def __contains__(self, key: Any) -> bool:
        self.seen.add(key)
        return super().__contains__(key)


def parse_sectioned(text: str, path: str, store: SectionStore, *, max_markup: int = MAX_MARKUP,
                    parsed: list[int] | None = None) -> tuple[Document, bool]:
    """The document `text` at `path`, as parse_document makes it, reusing the sections `store`
    holds and keeping there the ones it parses; and whether its sections are kept (False: it
    was parsed whole, see _Whole). `parsed` (if given) is told the first line of every section
    parsed."""
    text = normalise(text)
    refuse_if_too_big(text, max_markup)
    if "[^" not in text:
        sectioned = _Sectioned(text, path, store, parsed)
        try:
            doc = sectioned.document()
        except _Whole:
            pass
        else:
            store.done(sectioned.names)
            return doc, True
        finally:
            sectioned.release()
    return parse_document(text, path, max_markup=max_markup), False


class _Sectioned:
    def __init__(self, text: str, path: str, store: SectionStore, parsed: list[int] | None):
        self.text = text
        self.path = path
        self.store = store
        self.parsed = parsed
        self.lines = text.split("\n")
        self.starts = line_starts(text, self.lines)
        self.ends = [m.start() + 1 for m in _CANDIDATE_RE.finditer(text)] + [len(text)]
        self.spans: list[bytes] | None = None  # the digest of each stretch up to a candidate
        self.prefix = f"{store.salt}\0section {FORMAT}\0".encode("utf-8", "surrogatepass")
        self.names: list[str] = []  # the sections' entries, once known
        self.reached: list[str] = []  # the reach markers written (see cached)
        # The parses not yet freed: a parse's states and tokens refer to one another, cycles
        # only the cyclic collector frees (off on the command line), so each is emptied once
        # read (PosState.release) and nothing is left to collect after the document.
        self.states: list[PosState] = []

    def release(self, state: PosState | None = None) -> None:
        """Free `state`'s parse (every one not yet freed, if None)."""
        for st in [state] if state is not None else self.states[:]:
            self.states.remove(st)
            st.release()

    def document(self) -> Document:
        sections = self.sections()
        names = [sec.name for sec in sections]
        refs: dict[str, Any] = {}
        for sec in sections:
            for key, value in sec.defs.items():
                refs.setdefault(key, value)
        parts: list[Part] = []
        carry = _NO_CARRY
        for sec in sections:
            reused = self.reuse(sec, refs, carry) if sec.entry is not None else None
            if reused is None:
                part, carry = self.walk(sec, refs, carry)
            else:
                part, carry = reused
            parts.append(part)
        self.names = [*names, *self.reached]
        return assemble(self.text, self.path, parts, self.starts)

    # -- where the sections are ---------------------------------------------------------------

    def sections(self) -> list[_Section]:
        out: list[_Section] = []
        pos = 0
        budget = (reparse_budget(self.text), MAX_TABLE_CELLS)
        while True:
            first = bisect_right(self.ends, pos)
            sec = self.cached(pos, first, budget) or self.probe(pos, first, budget)
            out.append(sec)
            budget = (budget[0] - sec.used[0], budget[1] - sec.used[1])
            if sec.end >= len(self.text):
                return out
            pos = sec.end

    def _next_line(self, end: int) -> str:
        nl = self.text.find("\n", end)
        return self.text[end : len(self.text) if nl < 0 else nl + 1]

    def _ends(self, first: int) -> list[int]:
        """The candidates (by index) a section starting before candidate `first` may end at:
        first, first + 1, first + 3, first + 7… and the end of the document. A probe tries them
        in turn (a fence left open runs into every later candidate: the probes stay linear in
        the document), so a section kept ends at one of them, and a lookup tries only these."""
        last = len(self.ends) - 1
        out = []
        step = 1
        while first + step - 1 < last:
            out.append(first + step - 1)
            step *= 2
        return [*out, last]

    def _span(self, i: int) -> bytes:
        """The digest of the stretch of text that ends at candidate `i` (hashed once)."""
        if self.spans is None:
            text, ends = self.text, self.ends
            self.spans = [_sha256(text[a:b].encode("utf-8", "surrogatepass")).digest()
                          for a, b in zip([0, *ends[:-1]], ends)]
        return self.spans[i]

    def _named(self, first: int, ks: list[int]) -> Iterator[tuple[int, str]]:
        """(end, entry name) of the sections from candidate `first`'s stretch to each candidate
        of `ks` (ascending), made as they are asked for: named by a chain of the digests of the
        stretches they hold (each link hashes one digest onto the last) and the line after them,
        so a name costs the stretches between it and the one before, and a caller that stops
        early pays only for what it asked."""
        chain = b""
        i = first
        for k in ks:
            while i <= k:
                chain = _sha256(chain + self._span(i)).digest()
                i += 1
            line = self._next_line(self.ends[k]).encode("utf-8", "surrogatepass")
            yield self.ends[k], _sha256(self.prefix + chain + b"\0" + line).hexdigest()

    def cached(self, pos: int, first: int, budget: tuple[int, int]) -> _Section | None:
        """The section that starts at `pos` as an entry holds it, or None. Only a few names are
        looked up: the section ending at the first candidate, and those ending where runs that
        parsed sections starting with the same text found their cuts (their reaches, kept
        beside them, at most MAX_REACHES). Trying every candidate a probe may try would name
        sections running to the document's end from every section: quadratic in the headings
        on a miss."""
        line = bisect_right(self.starts, pos)
        ends = self._ends(first)
        named = self._named(first, ends)
        end, short = next(named)
        tried = [(end, short)]
        wanted = {self.ends[first + r] for r in self._reaches(short) if first + r in ends[1:]}
        for end, name in named if wanted else ():
            if end in wanted:
                tried.append((end, name))
                wanted.discard(end)
                if not wanted:
                    break
        for end, name in tried:
            entry = self.store.get(name)
            try:
                if not isinstance(entry, dict) or entry.get("format") != FORMAT:
                    continue
                used = (int(entry["used"][0]), int(entry["used"][1]))
                if used[0] or used[1] > budget[1]:
                    continue  # (a table's cells over the budget left here: parse it again)
                shift = line - int(entry["at"])
                defs = {str(k): _def_from_json(v, shift) for k, v in entry["defs"]}
            except (KeyError, TypeError, ValueError, IndexError):
                continue
            if name != short:  # (kept beside the entry again: cache.SectionPack keeps what names)
                self.reached.append(_reach_name(short))
            return _Section(pos, end, line, name, budget, used, defs, entry)
        return None

    def _reaches(self, short: str) -> list[int]:
        """How many candidates past its first the sections starting as `short` names ended."""
        marker = self.store.get(_reach_name(short))
        if not isinstance(marker, dict) or marker.get("format") != FORMAT:
            return []
        reaches = marker.get("reaches")
        if not isinstance(reaches, list):
            return []
        return [r for r in reaches[:MAX_REACHES] if isinstance(r, int) and not isinstance(r, bool) and r > 0]

    def probe(self, pos: int, first: int, budget: tuple[int, int]) -> _Section:
        """The section that starts at `pos`, parsed up to the first of its possible ends (_ends)
        that the parser makes a cut."""
        line = bisect_right(self.starts, pos)
        short = ""
        for k, (end, name) in zip(self._ends(first), self._named(first, self._ends(first))):
            short = short or name
            sec = _Section(pos, end, line, name, budget, reach=(short, k - first))
            if self.parse(sec):
                return sec
        raise AssertionError("the end of the document is always a cut")  # (parse: no line after it)

    def parse(self, sec: _Section) -> bool:
        """Parse `sec`'s blocks; False if the line after it is no cut."""
        nxt = self._next_line(sec.end)
        state, finished = parse_blocks(self.text[sec.start : sec.end] + nxt, self.lines, sec.line, sec.budget)
        self.states.append(state)
        if not finished:
            raise _Whole
        if self.parsed is not None:
            self.parsed.append(sec.line)
        if nxt:
            at = sec.end - sec.start
            tokens = tokens_of(state)
            last = tokens[-1] if tokens else None
            if (last is None or last["type"] != "heading" or last.get("style") == "setext"
                    or last.get("_p") != (state, at)):
                self.release(state)
                return False
            tokens.pop()  # the next section's heading
        sec.used = (sec.budget[0] - env_get(state, REPARSE_LEFT), sec.budget[1] - env_get(state, CELLS_LEFT))
        if sec.used[0] or env_get(state, REPARSE_REFUSED):
            # A container parsed again (a lazy line it took continues no paragraph) charges the
            # document's budget for all it took, which on the whole document may run past the
            # cut (into the next heading, and the lines its `>` continues): what the sections
            # spend is then not what the whole document spends, and where the budget runs out
            # is not the same. Rare (none in the real documents; a quote right before a heading,
            # `> a⏎## b`, is one): such a document is parsed whole.
            raise _Whole
        sec.defs = dict(ref_links(state))
        sec.state = state
        return True

    # -- what the sections hold ------------------------------------------------------------

    def walk(self, sec: _Section, refs: dict[str, Any], carry: Carry) -> tuple[Part, Carry]:
        if sec.state is None and not self.parse(sec):
            raise _Whole  # (an entry said the line after it is a cut: it was not ours)
        state = sec.state
        assert state is not None
        seen = _Recorded(refs)
        use_ref_links(state, seen)
        if not parse_inline(state):
            raise _Whole
        b = Builder(seen, None, carry)
        b.walk(tokens_of(state))
        part = b.part()
        refused = env_get(state, REPARSE_REFUSED)
        sec.state = None
        self.release(state)
        if not part.limits and not refused:
            self.store.put(sec.name, {
                "format": FORMAT,
                "at": sec.line,
                "used": list(sec.used),
                "defs": [[k, _def_json(v)] for k, v in sec.defs.items()],
                "any_refs": bool(refs),
                "uses": sorted([k, _def_json(refs.get(k))] for k in seen.seen),
                "in": _carry_json(carry),
                "out": _carry_json(b.carry),
                "part": _part_json(part) if self.store.persists else None,
                "_part": (sec.line, part),
            })
            short, reach = sec.reach
            if reach:
                # (sections that start alike may end apart: a few reaches kept, this one first)
                kept = [reach, *(r for r in self._reaches(short) if r != reach)][:MAX_REACHES]
                self.store.put(_reach_name(short), {"format": FORMAT, "reaches": kept})
                self.reached.append(_reach_name(short))
        return part, b.carry

    def reuse(self, sec: _Section, refs: dict[str, Any], carry: Carry) -> tuple[Part, Carry] | None:
        entry = sec.entry
        assert entry is not None
        try:
            shift = sec.line - int(entry["at"])
            if bool(entry["any_refs"]) != bool(refs) or _carry_from_json(entry["in"], shift) != carry:
                return None
            for key, value in entry["uses"]:
                if _def_json(refs.get(key)) != _shifted_def_json(value, shift):
                    return None
            kept = entry.get("_part")
            if kept is not None and kept[0] == sec.line:
                part = kept[1]  # (read only: parse.assemble makes the document's own lists)
            else:
                if entry["part"] is None and kept is not None:  # the run's own, moved
                    entry["part"] = _part_json(kept[1])
                part = _part_from_json(entry["part"], shift)
            return part, _carry_from_json(entry["out"], shift)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
            return None


# -- the entries' JSON -------------------------------------------------------------------------
# A definition is mistune's dict (url, title, label) with the parser's raw_url, _line and _dest
# (a Span); positions are the document's, and shifted by where the section now starts.


def _reach_name(short: str) -> str:
    return "reach-" + short


def _def_json(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    return {k: ([v.line, v.column, v.end_line, v.end_column] if isinstance(v, Span) else v)
            for k, v in sorted(value.items())}


def _shifted_def_json(value: Any, shift: int) -> Any:
    if not isinstance(value, dict) or not shift:
        return value
    out = dict(value)
    if isinstance(out.get("_line"), int):
        out["_line"] += shift
    dest = out.get("_dest")
    if isinstance(dest, list):
        out["_dest"] = [dest[0] + shift, dest[1], dest[2] + shift, dest[3]]
    return out


def _def_from_json(value: Any, shift: int) -> dict[str, Any]:
    out = _shifted_def_json(value, shift)
    if not isinstance(out, dict):
        raise TypeError("a definition")
    dest = out.get("_dest")
    if dest is not None:
        out = {**out, "_dest": Span(*(int(x) for x in dest))}
    return out


def _carry_json(carry: Carry) -> list[Any]:
    comment_open, (tag, (line, column)) = carry
    return [comment_open, tag, line, column]


def _carry_from_json(value: list[Any], shift: int) -> Carry:
    comment_open, tag, line, column = value
    if not tag:
        return bool(comment_open), ("", (0, 0))
    return bool(comment_open), (str(tag), (int(line) + shift, int(column)))


# A section's model: its headings as rows, each list of the model's objects as columns
# (cache_codec.encode_columns: a loop in C per field, not a call per object), the rest as is.
_COLUMNS = (("links", Link), ("lists", ListBlock), ("tables", Table), ("quotes", Quote),
            ("paragraphs", Paragraph), ("prose", Prose))
_POOLED = (ListBlock, Table)  # (what holds the part's links and prose again)


def _part_json(part: Part) -> str:
    # (a list item's links and prose, a table cell's links: written as their places in the part's
    # own lists, cache_codec.Pools)
    pools = pools_of(links=part.links, prose=part.prose)
    return json.dumps([
        [[line, col, level, text, list(anchors)] for line, col, level, text, anchors in part.head_raw],
        *([len(objects), encode_columns(cls, objects, pools if cls in _POOLED else None)]
          for objects, cls in ((getattr(part, f), c) for f, c in _COLUMNS)),
        list(part.html_anchors.items()), sorted(part.code_lines), sorted(part.block_code_lines),
    ], ensure_ascii=True, separators=(",", ":"))  # (ASCII: the store keeps it as it is, cache.SectionPack)


def _part_from_json(text: str, shift: int) -> Part:
    head, links, lists, tables, quotes, paragraphs, prose, anchors, code, block_code = json.loads(text)
    made = {"links": decode_columns(Link, links[1], links[0], shift),
            "prose": decode_columns(Prose, prose[1], prose[0], shift)}
    pools: dict[type, list[Any]] = {Link: made["links"], Prose: made["prose"]}
    made.update({field: decode_columns(cls, columns, n, shift, pools) for (n, columns), (field, cls)
                 in zip((lists, tables, quotes, paragraphs), _COLUMNS[1:5], strict=True)})
    return Part(
        head_raw=[(int(line) + shift, col, level, title, list(names)) for line, col, level, title, names in head],
        **made,
        html_anchors={str(name): int(line) + shift for name, line in anchors},
        code_lines={int(x) + shift for x in code},
        block_code_lines={int(x) + shift for x in block_code},
        limits=[],
    )
