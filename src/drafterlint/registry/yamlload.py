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

from dataclasses import dataclass, field
from typing import Any, Iterable

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from drafterlint.findings import Location, UnreadableFile

try:  # libyaml: an order of magnitude faster to compose
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_ALIASES = 10_000
DEFAULT_MAX_NODES = 1_000_000
DEFAULT_MAX_DEPTH = 200

Path = tuple  # a path into the document: keys (str) and item indexes (int)
Pos = tuple  # (line, column), both 1-based

_TAG = "tag:yaml.org,2002:"
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


@dataclass(frozen=True)
class Duplicate:
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
    path: str
    repo: str
    value: Any
    positions: dict = field(default_factory=dict)  # path -> (line, col) of the key / the item
    value_positions: dict = field(default_factory=dict)  # path -> (line, col) of the value
    duplicates: list = field(default_factory=list)  # [Duplicate]
    problems: list = field(default_factory=list)  # [Problem]

    def position(self, path: Iterable) -> Pos | None:
        """(line, col) of the key (in a mapping) or the item (in a sequence) at `path`."""
        return self.positions.get(tuple(path))

    def value_position(self, path: Iterable) -> Pos | None:
        return self.value_positions.get(tuple(path))

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
        cur = self.value
        for part in path:
            if isinstance(cur, dict) and isinstance(part, str) and part in cur:
                cur = cur[part]
            elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
                cur = cur[part]
            else:
                return default
        return cur


def _pos(node: Node) -> Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


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

    def fail(message: str, line: int = 1, col: int = 1) -> UnreadableFile:
        return UnreadableFile(Location(repo, path, line, col), message)

    if len(text) > max_bytes or (len(text) * 4 > max_bytes and len(text.encode()) > max_bytes):
        raise fail(f"YAML file is over the {max_bytes}-byte limit; refusing to parse it")
    if text.startswith("\ufeff"):
        text = text[1:]

    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem and exc.context_mark is not None and mark is not None:
            problem = f"{problem} ({exc.context} at line {exc.context_mark.line + 1})"
        if mark is None:
            raise fail(f"invalid YAML: {problem}") from None
        raise fail(f"invalid YAML: {problem}", mark.line + 1, mark.column + 1) from None
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

    doc = YamlDoc(path=path, repo=repo, value=None)
    if root is None:  # an empty file
        doc.positions[()] = (1, 1)
        return doc
    _check_bounds(root, fail, max_aliases=max_aliases, max_nodes=max_nodes, max_depth=max_depth)
    doc.positions[()] = _pos(root)
    doc.value_positions[()] = _pos(root)
    doc.value = _build(root, (), doc, fail)
    return doc


def _check_bounds(root: Node, fail, *, max_aliases: int, max_nodes: int, max_depth: int) -> None:
    """Refuse alias bombs, recursive aliases and deep nesting before expanding anything.

    Works on the node graph, where an alias is a second reference to an already composed node:
    the expanded size of each node is computed once (memoized), so the check is linear in the
    file however large the expansion would be.
    """
    size: dict[int, int] = {}
    depth_of: dict[int, int] = {}
    seen: set[int] = set()
    aliases = 0
    # Iterative post-order walk: (node, depth, children_done)
    stack: list[tuple[Node, int, bool]] = [(root, 1, False)]
    on_path: set[int] = set()
    while stack:
        node, depth, done = stack.pop()
        nid = id(node)
        if done:
            on_path.discard(nid)
            total = 1
            sub_depth = 0
            for child in _children(node):
                total += size[id(child)]
                sub_depth = max(sub_depth, depth_of[id(child)])
            size[nid] = total
            depth_of[nid] = sub_depth + 1
            if total > max_nodes:
                line, col = _pos(node)
                raise fail(
                    f"aliases would expand this YAML to more than {max_nodes} nodes "
                    "(an alias bomb?); refusing to expand it",
                    line,
                    col,
                )
            continue
        if nid in on_path:
            line, col = _pos(node)
            raise fail("recursive alias: a node contains an alias to itself", line, col)
        if nid in seen:
            aliases += 1
            if aliases > max_aliases:
                line, col = _pos(node)
                raise fail(
                    f"more than {max_aliases} alias references (an alias bomb?); "
                    f"refusing to expand them (this anchor at line {line})",
                    line,
                    col,
                )
            if nid in size:
                if depth - 1 + depth_of[nid] > max_depth:
                    line, col = _pos(node)
                    raise fail(f"YAML is nested too deeply (more than {max_depth} levels)", line, col)
                continue
            # Seen but not finished and not on the path cannot happen in a tree walk.
        seen.add(nid)
        if depth > max_depth:
            line, col = _pos(node)
            raise fail(f"YAML is nested too deeply (more than {max_depth} levels)", line, col)
        on_path.add(nid)
        stack.append((node, depth, True))
        for child in _children(node):
            stack.append((child, depth + 1, False))


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        out: list[Node] = []
        for k, v in node.value:
            out.append(k)
            out.append(v)
        return out
    if isinstance(node, SequenceNode):
        return node.value
    return []


def _check_tag(node: Node, fail) -> None:
    if isinstance(node, MappingNode):
        expected = _TAG + "map"
    elif isinstance(node, SequenceNode):
        expected = _TAG + "seq"
    elif node.style in (None, ""):
        expected = _RESOLVER.resolve(ScalarNode, node.value, (True, False))
    else:
        expected = _TAG + "str"
    if node.tag != expected:
        line, col = _pos(node)
        raise fail(
            f"explicit YAML tag {node.tag!r} is not allowed: only plain YAML (mappings, lists, "
            "text, numbers, booleans, null) is accepted",
            line,
            col,
        )


def _scalar(node: ScalarNode, fail) -> Any:
    tag = node.tag
    if tag == _TAG + "str" or tag == _TAG + "timestamp" or tag == _TAG + "value":
        return node.value
    if tag == _TAG + "null":
        return None
    if tag == _TAG + "bool":
        return _CONSTRUCTOR.construct_yaml_bool(node)
    if tag == _TAG + "int":
        return _CONSTRUCTOR.construct_yaml_int(node)
    if tag == _TAG + "float":
        return _CONSTRUCTOR.construct_yaml_float(node)
    if tag == _TAG + "merge":
        line, col = _pos(node)
        raise fail("merge keys (<<) are not supported: write the entries out", line, col)
    return node.value  # pragma: no cover - every implicit tag is handled above


def _build(node: Node, path: tuple, doc: YamlDoc, fail) -> Any:
    _check_tag(node, fail)
    if isinstance(node, ScalarNode):
        return _scalar(node, fail)
    if isinstance(node, SequenceNode):
        out_list = []
        for i, item in enumerate(node.value):
            p = path + (i,)
            pos = _pos(item)
            doc.positions[p] = pos
            doc.value_positions[p] = pos
            out_list.append(_build(item, p, doc, fail))
        return out_list
    out: dict = {}
    first_seen: dict = {}
    for knode, vnode in node.value:
        _check_tag(knode, fail)
        kpos = _pos(knode)
        if not isinstance(knode, ScalarNode):
            raise fail(
                "a mapping key must be plain text, not a list or a mapping", kpos[0], kpos[1]
            )
        key = _scalar(knode, fail)
        if not isinstance(key, str):
            doc.problems.append(
                Problem(
                    path + (knode.value,),
                    kpos,
                    f"key `{knode.value}` is read as {type(key).__name__ if key is not None else 'null'}, "
                    "not text; quote it",
                )
            )
            key = knode.value
        p = path + (key,)
        if key in first_seen:
            doc.duplicates.append(Duplicate(p, first_seen[key], kpos))
        else:
            first_seen[key] = kpos
        doc.positions[p] = kpos  # the last one wins, as in every YAML loader
        doc.value_positions[p] = _pos(vnode)
        out[key] = _build(vnode, p, doc, fail)
    return out
