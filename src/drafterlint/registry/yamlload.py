"""Plain, safe, bounded YAML with the position of every mapping key and sequence item.

PyYAML composes the document into nodes (libyaml when available); the nodes are then turned into
plain Python data here, not by a PyYAML constructor, so that:

- every key and item keeps its 1-based line and column (``YamlDoc.position(path)``);
- a key repeated in one mapping is recorded (``YamlDoc.duplicates``) instead of silently lost;
- anything but plain YAML (an explicit tag such as ``!!python/object`` or ``!foo``, a merge key,
  a complex key) is refused with its position;
- timestamps and dates stay the strings they were written as;
- aliases are bounded: the expanded size of the document is computed on the node graph (which
  libyaml builds in linear time) before anything is expanded, so a "billion laughs" file fails in
  milliseconds with a clear message.

Every failure is an ``UnreadableFile`` with a line and column; never a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from drafterlint import lazyre
from drafterlint.findings import Location, UnreadableFile, quoted
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.gitlines import Renumber

# PyYAML is imported by the first parse, not with this module: the model (YamlDoc) is read by
# every run, and a run whose YAML files are unchanged takes their parses from the cache
# (cache.YamlPack) without it.

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_ALIASES = 10_000
DEFAULT_MAX_NODES = 1_000_000
DEFAULT_MAX_DEPTH = 200

Path = tuple  # a path into the document: keys (str) and item indexes (int)
Pos = tuple  # (line, column), both 1-based

_TAG = "tag:yaml.org,2002:"


@dataclass(frozen=True)
class Duplicate:
    """A mapping key given twice in a YAML file, with both positions."""

    path: tuple  # the path of the repeated key (its mapping's path + the key)
    first: Pos
    second: Pos

    def __iter__(self):  # unpacks as (path, first, second)
        return iter((self.path, self.first, self.second))


@dataclass(frozen=True)
class Problem:
    """Something accepted but worth reporting (e.g. a key that is not a string)."""

    path: tuple
    position: Pos
    message: str


@dataclass
class YamlDoc:
    """A parsed YAML file with the position of every key, item and value."""

    path: str
    repo: str
    value: Any
    positions: dict = field(default_factory=dict)  # path -> (line, col) of the key / the item
    value_positions: dict = field(default_factory=dict)  # path -> (line, col) of the value
    duplicates: list = field(default_factory=list)  # [Duplicate]
    problems: list = field(default_factory=list)  # [Problem]
    # An alias made two places of `value` one object: not kept in the cache, where it would be
    # written out as copies (up to DEFAULT_MAX_NODES of them).
    shared: bool = field(default=False, compare=False, repr=False)

    def position(self, path: Iterable) -> Pos | None:
        """(line, col) of the key (in a mapping) or the item (in a sequence) at `path`."""
        return self.positions.get(tuple(path))

    def line_of(self, path: Iterable) -> int | None:
        pos = self.nearest(path)
        return pos[0] if pos else None

    def nearest(self, path: Iterable) -> Pos | None:
        """The position of `path`, or of its nearest ancestor that exists."""
        p = tuple(path)
        while p:
            pos = self.positions.get(p)
            if pos:
                return pos
            p = p[:-1]
        return self.positions.get(())

    def location(self, path: Iterable = (), *, value: bool = False) -> Location:
        """A Location for `path` (its value's position when value=True), nearest ancestor else."""
        p = tuple(path)
        pos = self.value_positions.get(p) if value else None
        pos = pos or self.nearest(p) or (1, 1)
        return Location(self.repo, self.path, pos[0], pos[1])

    def get(self, path: Iterable, default: Any = None) -> Any:
        cur: Any = self.value
        for part in path:
            if isinstance(cur, dict) and isinstance(part, str) and part in cur:
                cur = cur[part]
            elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
                cur = cur[part]
            else:
                return default
        return cur


def as_entry(doc: YamlDoc) -> str | None:
    """`doc` as the cache keeps it (cache.YamlPack): JSON text, read back by `from_entry` with
    no hook (a mapping of the file is data, whatever its keys say); None for one the cache does
    not keep (`shared`)."""
    if doc.shared:
        return None
    return json.dumps([doc.path, doc.repo, doc.value, _rows(doc.positions), _rows(doc.value_positions),
                       [[list(path), list(a), list(b)] for path, a, b in doc.duplicates],
                       [[list(p.path), list(p.position), p.message] for p in doc.problems]],
                      ensure_ascii=True, separators=(",", ":"))


def from_entry(text: Any) -> YamlDoc:
    """The YamlDoc `as_entry` kept; ValueError (or TypeError) for anything else: JSON gives
    plain data only, and each position must be a path of keys and indexes with a line and a
    column."""
    path, repo, value, positions, value_positions, duplicates, problems = json.loads(text)
    if not (isinstance(path, str) and isinstance(repo, str)):
        raise ValueError("not a parsed YAML file")
    return YamlDoc(path, repo, value, _unrows(positions), _unrows(value_positions),
                   [Duplicate(_key(p), _at(a), _at(b)) for p, a, b in duplicates],
                   [Problem(_key(p), _at(at), str(m)) for p, at, m in problems])


def _rows(positions: dict) -> list:
    return [[*path, line, col] for path, (line, col) in positions.items()]


def _unrows(rows: list) -> dict:
    out = {tuple(row[:-2]): (row[-2], row[-1]) for row in rows}  # a list in a path: TypeError
    if not ({type(k) for path in out for k in path} <= {str, int}
            and {type(n) for pos in out.values() for n in pos} <= {int}):
        raise ValueError("not a position in a YAML file")
    return out


def _key(path: list) -> tuple:
    if not all(type(p) is str or type(p) is int for p in path):
        raise ValueError("not a path into a YAML file")
    return tuple(path)


def _at(pos: Any) -> Pos:
    line, col = pos
    if type(line) is not int or type(col) is not int:
        raise ValueError("not a position")
    return (line, col)


def load_yaml_text(
    text: str,
    path: str,
    repo: str = "registry",
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_aliases: int = DEFAULT_MAX_ALIASES,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> YamlDoc:
    """Parse one YAML document; UnreadableFile (with line and column) for anything refused."""
    import yaml

    try:  # libyaml: an order of magnitude faster to compose
        from yaml import CSafeLoader as Loader
    except ImportError:  # pragma: no cover - depends on how PyYAML was built
        from yaml import SafeLoader as Loader  # type: ignore[assignment]

    def fail(message: str, line: int = 1, col: int = 1) -> UnreadableFile:
        return UnreadableFile(Location(repo, path, line, col), message)

    if len(text) > max_bytes or (len(text) * 4 > max_bytes and len(text.encode()) > max_bytes):
        raise fail(f"YAML file is over the {max_bytes}-byte limit; refusing to parse it")
    if text.startswith("\ufeff"):
        text = text[1:]

    # PyYAML also ends a line at a bare "\r", \x85, U+2028 and U+2029, git at "\n" only: every
    # position kept or said is git's (drafterlint.gitlines).
    renumber = _renumber(text)
    place = renumber.place if renumber is not None else _as_is

    def failed(message: str, line: int = 1, col: int = 1) -> UnreadableFile:
        return fail(message, *place(line, col))

    doc = YamlDoc(path=path, repo=repo, value=None)
    loader = Loader(text)
    try:
        doc.value = _compose(loader, doc, failed, max_aliases, max_nodes, max_depth)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem and exc.context_mark is not None and mark is not None:
            problem = f"{problem} ({exc.context} at line {place(exc.context_mark.line + 1, 1)[0]})"
        if mark is None:
            raise fail(f"invalid YAML: {problem}") from None
        raise failed(f"invalid YAML: {problem}", mark.line + 1, mark.column + 1) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise fail(f"invalid YAML: character {exc.character!r} is not allowed", line, col) from None
    except RecursionError:
        raise fail(f"YAML is nested too deeply (more than {max_depth} levels)") from None
    except yaml.YAMLError as exc:
        raise fail(f"invalid YAML: {exc}") from None
    finally:
        try:
            loader.dispose()
        except Exception:  # pragma: no cover
            pass
    doc.positions.setdefault((), (1, 1))
    if renumber is not None:
        doc.positions = {k: place(*at) for k, at in doc.positions.items()}
        doc.value_positions = {k: place(*at) for k, at in doc.value_positions.items()}
        doc.duplicates = [Duplicate(d.path, place(*d.first), place(*d.second)) for d in doc.duplicates]
        doc.problems = [Problem(q.path, place(*q.position), q.message) for q in doc.problems]
    return doc


def _renumber(text: str) -> "Renumber | None":
    """What takes PyYAML's line numbers of `text` to git's; None where they are the same."""
    from drafterlint.gitlines import YAML_ONLY, Renumber

    return Renumber(text, YAML_ONLY) if YAML_ONLY.search(text) else None


def _as_is(line: int, column: int) -> Pos:
    return (line, column)


_NOKEY = object()


class _Frame:
    __slots__ = ("is_map", "value", "path", "anchor", "size", "key", "key_pos", "first_seen")

    def __init__(self, is_map: bool, path: tuple, anchor: str | None):
        self.is_map = is_map
        self.value: Any = {} if is_map else []
        self.path = path
        self.anchor = anchor
        self.size = 1
        self.key: Any = _NOKEY
        self.key_pos: Pos = (1, 1)
        self.first_seen: dict = {}


def _pos(event) -> Pos:
    return (event.start_mark.line + 1, event.start_mark.column + 1)


def _compose(loader, doc: YamlDoc, fail, max_aliases: int, max_nodes: int, max_depth: int):
    """Build plain data straight from parser events, bounding aliases as they come.

    An alias re-uses the anchored (already built) object, as PyYAML does, so nothing is ever
    copied; its expanded size is added to a running total that stops the parse the moment it
    passes `max_nodes`, long before a bomb is read to its end.
    """
    import yaml

    E = yaml.events
    scalar = _Scalars()
    loader.get_event()  # StreamStart
    ev = loader.get_event()
    if isinstance(ev, E.StreamEndEvent):
        return None  # an empty file
    # ev is DocumentStart
    stack: list[_Frame] = []
    anchors: dict[str, tuple[Any, int]] = {}
    building: set[str] = set()
    total = 0
    aliases = 0
    root: Any = None

    def place(pos: Pos) -> tuple | None:
        """The path of a node starting now, recording positions; None when it is a key."""
        if not stack:
            doc.positions[()] = pos
            doc.value_positions[()] = pos
            return ()
        top = stack[-1]
        if top.is_map:
            if top.key is _NOKEY:
                return None
            p = top.path + (top.key,)
            doc.positions[p] = top.key_pos  # the last one wins, as in every YAML loader
            doc.value_positions[p] = pos
            return p
        p = top.path + (len(top.value),)
        doc.positions[p] = pos
        doc.value_positions[p] = pos
        return p

    def attach(value: Any, size: int) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        top = stack[-1]
        top.size += size
        if top.is_map:
            key = top.key
            if key in top.first_seen:
                doc.duplicates.append(
                    Duplicate(top.path + (key,), top.first_seen[key], top.key_pos)
                )
            else:
                top.first_seen[key] = top.key_pos
            top.value[key] = value
            top.key = _NOKEY
        else:
            top.value.append(value)

    def set_key(ev) -> None:
        top = stack[-1]
        kpos = _pos(ev)
        if not isinstance(ev, E.ScalarEvent):
            raise fail("a mapping key must be plain text, not a list, a mapping or an alias", *kpos)
        key = scalar(ev, fail)
        if not isinstance(key, str):
            kind = "null" if key is None else type(key).__name__
            doc.problems.append(
                Problem(top.path + (ev.value,), kpos,
                        f"key {quoted(ev.value)} is read as {kind}, not text; quote it")
            )
            key = ev.value
        top.key = key
        top.key_pos = kpos

    while True:
        ev = loader.get_event()
        if isinstance(ev, (E.ScalarEvent, E.SequenceStartEvent, E.MappingStartEvent, E.AliasEvent)):
            pos = _pos(ev)
            tag = getattr(ev, "tag", None)
            if tag is not None:
                raise fail(
                    f"explicit YAML tag {tag!r} is not allowed: only plain YAML (mappings, lists, "
                    "text, numbers, booleans, null) is accepted",
                    *pos,
                )
            path = place(pos)
            if path is None:  # a mapping key
                set_key(ev)
                continue
            if isinstance(ev, E.AliasEvent):
                anchor = ev.anchor
                if anchor in building:
                    raise fail(f"recursive alias *{anchor}: it refers to a node that contains it", *pos)
                if anchor not in anchors:
                    raise fail(f"alias *{anchor} refers to no anchor defined before it", *pos)
                aliases += 1
                doc.shared = True
                if aliases > max_aliases:
                    raise fail(
                        f"more than {max_aliases} aliases (an alias bomb?); refusing to expand them",
                        *pos,
                    )
                value, size = anchors[anchor]
                total += size
                if total > max_nodes:
                    raise fail(
                        f"aliases would expand this YAML to more than {max_nodes} nodes "
                        "(an alias bomb?); refusing to expand it",
                        *pos,
                    )
                attach(value, size)
                continue
            total += 1
            if total > max_nodes:
                raise fail(f"YAML has more than {max_nodes} nodes; refusing to read it", *pos)
            if isinstance(ev, E.ScalarEvent):
                value = scalar(ev, fail)
                if ev.anchor is not None:
                    anchors[ev.anchor] = (value, 1)
                attach(value, 1)
                continue
            if len(stack) >= max_depth:
                raise fail(f"YAML is nested too deeply (more than {max_depth} levels)", *pos)
            frame = _Frame(isinstance(ev, E.MappingStartEvent), path, ev.anchor)
            if ev.anchor is not None:
                building.add(ev.anchor)
            stack.append(frame)
            continue
        if isinstance(ev, (E.SequenceEndEvent, E.MappingEndEvent)):
            frame = stack.pop()
            if frame.anchor is not None:
                building.discard(frame.anchor)
                anchors[frame.anchor] = (frame.value, frame.size)
            attach(frame.value, frame.size)
            continue
        if isinstance(ev, E.DocumentEndEvent):
            nxt = loader.get_event()
            if not isinstance(nxt, E.StreamEndEvent):
                raise fail("more than one YAML document in the file; expected one", *_pos(nxt))
            return root
        raise fail(f"unexpected YAML event {type(ev).__name__}", *_pos(ev))  # pragma: no cover


class _Scalars:
    """A plain scalar's value, as YAML 1.1 resolves it (PyYAML's resolver and safe constructor,
    made once a process, with the first parse)."""

    _made: tuple | None = None

    def __init__(self) -> None:
        if _Scalars._made is None:
            import yaml
            from yaml.nodes import ScalarNode

            _Scalars._made = (yaml.resolver.Resolver(), yaml.constructor.SafeConstructor(), ScalarNode)
        self.resolver, self.constructor, self.node = _Scalars._made

    def __call__(self, ev, fail) -> Any:
        if ev.style not in (None, ""):
            return ev.value  # quoted or block scalars are text
        node, construct = self.node, self.constructor
        tag = self.resolver.resolve(node, ev.value, (True, False))
        if tag == _TAG + "null":
            return None
        if tag == _TAG + "bool":
            return construct.construct_yaml_bool(node(tag, ev.value))
        if tag in (_TAG + "int", _TAG + "float") and _sexagesimal(ev.value):
            return ev.value
        if tag == _TAG + "int":
            try:
                return construct.construct_yaml_int(node(tag, ev.value))
            except ValueError:  # beyond Python's integer-string limit (4300 digits)
                raise fail(f"integer of {len(ev.value)} characters is too large to read", *_pos(ev)) from None
        if tag == _TAG + "float":
            return construct.construct_yaml_float(node(tag, ev.value))
        if tag == _TAG + "merge":
            raise fail("merge keys (<<) are not supported: write the entries out", *_pos(ev))
        return ev.value  # text, timestamps (kept as written), `=`


def _sexagesimal(value: str) -> bool:
    """A YAML 1.1 base-60 number (`1:30`): text, as YAML 1.2 reads it. PyYAML builds one in time
    quadratic in its length (`1:1:1:…`), and no field of the registry or the configuration is
    written so."""
    return ":" in value


_DISABLE = lazyre.compile(r"#\s*drafterlint:\s*disable=([A-Za-z0-9_, -]+)")


def suppressed_lines(text: str) -> dict[int, frozenset[str]]:
    """Line -> the codes `# drafterlint: disable=DL303[,DL304]` silences there.

    The comment silences its own line (`- model: m1  # drafterlint: disable=DL303`), and, on a
    line of its own, the line below it. YAML has no block comments, so there is no range form.
    """
    out: dict[int, set[str]] = {}
    for number, line in enumerate(text.split("\n"), 1):  # git's lines, as the positions are
        m = _DISABLE.search(line)
        if m is None:
            continue
        codes = {c.strip().upper() for c in re.split(r"[,\s]+", m.group(1)) if c.strip()}
        out.setdefault(number, set()).update(codes)
        if line[: m.start()].strip() == "":
            out.setdefault(number + 1, set()).update(codes)
    return {n: frozenset(c) for n, c in out.items()}
