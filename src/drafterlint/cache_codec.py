"""The cache's codec (drafterlint.cache): the tool's fingerprint, which every key holds, and the
JSON form of what is stored, decoded only into the model's own classes (never pickle: a cache
directory may be writable by someone else, and loading must not run code)."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from itertools import islice, repeat
from operator import add, attrgetter
from typing import Any

from drafterlint.inputs import FORMAT, digest, fingerprint, key

# The fingerprint and the keys are derived in drafterlint.inputs, which the front shares.
__all__ = ["FORMAT", "Pools", "decode", "decode_columns", "digest", "encode", "encode_columns",
           "fingerprint", "key", "pools_of"]


# -- encoding: JSON, decoded only into known classes ----------------------------------------

_CLASSES: dict[str, type] | None = None


def _class(name: str) -> type | None:
    """The class a cache entry may name: a finding's, or a dataclass the Markdown model defines
    (read from the module, so a class added to the model is cacheable with no list to update).
    The model is imported only for documents: a whole-run hit decodes findings alone, and a warm
    run should not pay for the rest."""
    global _CLASSES
    import dataclasses  # not at the top: the command line's front decodes entries without it

    if _CLASSES is None:
        from drafterlint.findings import Finding, Location, Skipped

        _CLASSES = {"Finding": Finding, "Location": Location, "Skipped": Skipped}
    if name not in _CLASSES and "Document" not in _CLASSES:  # the model's classes, once
        from drafterlint.markdown import model

        _CLASSES.update({n: c for n, c in vars(model).items()
                         if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == model.__name__})
    return _CLASSES.get(name)


# Per class: the fields its constructor takes, in order (None for a class the cache does not
# hold). Looked up once per class, not once per object: a parsed document is about 200,000
# objects, and writing the rules document cost more than a third of parsing it.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _init_fields(t: type) -> tuple[str, ...] | None:
    if t not in _FIELDS:
        import dataclasses

        ours = dataclasses.is_dataclass(t) and _class(t.__name__) is t
        _FIELDS[t] = tuple(f.name for f in dataclasses.fields(t) if f.init) if ours else None
    return _FIELDS[t]


def encode(obj: Any) -> Any:
    t = type(obj)
    if obj is None or t is str or t is int or t is float or t is bool:
        return obj
    if t is list or t is tuple:
        rows = _rows(obj)
        if rows is not None:
            return {"L" if t is list else "T": type(obj[0]).__name__, "v": rows}
        return [encode(x) for x in obj] if t is list else {"t": [encode(x) for x in obj]}
    if t is frozenset or t is set:
        return {"s": [encode(x) for x in obj]}
    if t is dict:
        return {"d": [[encode(k), encode(v)] for k, v in obj.items()]}
    names = _init_fields(t)
    if names is not None:
        return {"c": t.__name__, "v": [encode(getattr(obj, n)) for n in names]}
    from drafterlint.findings import Severity

    if t is Severity:
        return {"e": int(obj)}
    raise TypeError(f"cannot cache a {t.__name__}")


def _rows(items: list | tuple) -> list | None:
    """`items`, when all are objects of one of the cache's classes, as the rows of their fields
    (one tag for the list, not one for each: a parsed document is mostly lists of one class, and
    a tag each, a dict for the JSON decoder to build and a hook to call, was half of decoding it);
    None otherwise."""
    if not items:
        return None
    t = type(items[0])
    names = _FIELDS[t] if t in _FIELDS else _init_fields(t)
    if names is None or any(type(x) is not t for x in items):
        return None
    return [[encode(getattr(x, n)) for n in names] for x in items]


# Per class: how a row of its fields becomes an object (_maker).
_MAKERS: dict[type, Callable[[list], Any]] = {}


def _maker(cls: type) -> Callable[[list], Any]:
    """How a row of `cls`'s fields becomes an object: its constructor, or for a slotted class
    whose every field is its constructor's and that has no __post_init__, its slots set directly
    (what a frozen class's __init__ does through object.__setattr__, at half the cost: a parsed
    document is some 20,000 such objects). A row of another length is refused, as by __init__."""
    make = _MAKERS.get(cls)
    if make is None:
        import dataclasses

        names = _init_fields(cls)
        if (names and "__slots__" in vars(cls) and not hasattr(cls, "__post_init__")
                and names == tuple(f.name for f in dataclasses.fields(cls))):
            held = ", ".join(f"_{i}" for i in range(len(names)))
            # (the code holds indices only, never a name or a value an entry gave)
            code = f"def make(v):\n    o = new(cls)\n    {held}, = v\n" \
                + "".join(f"    set_{i}(o, _{i})\n" for i in range(len(names))) + "    return o\n"
            scope = {"new": object.__new__, "cls": cls, **{f"set_{i}": getattr(cls, n).__set__ for i, n in enumerate(names)}}
            exec(code, scope)
            make = _MAKERS[cls] = scope["make"]
        else:
            make = _MAKERS[cls] = lambda v: cls(*v)
    return make


def _hook(d: dict) -> Any:
    if "v" in d:
        name = d.get("c")
        cls = _class(name if name is not None else d.get("L") or d["T"])
        if cls is None:
            raise KeyError(d.get("c"))  # not ours: the entry is rejected
        make = _maker(cls)
        if name is not None:
            return make(d["v"])
        rows = [make(r) for r in d["v"]]
        return rows if "L" in d else tuple(rows)
    if "t" in d:
        return tuple(d["t"])
    if "s" in d:
        return frozenset(d["s"])
    if "d" in d:
        return dict(d["d"])
    if "e" in d:
        from drafterlint.findings import Severity

        return Severity(d["e"])
    raise ValueError("unknown cache object")


def decode(text: str) -> Any:
    return json.loads(text, object_hook=_hook)


# -- columns: many objects of one class (a section's model, markdown/sections.py) ----------------
# A section's model is some thousands of small objects (the rules document's 84 sections: 17,000,
# half of them pieces of prose). Written a row per object, reading them back was a Python call
# per object and a hook call per list (a sixth of a run with one document changed, on the real
# snapshot). Written a column per field, every object of a class is made, and each field set, by
# loops that run in C (map over the columns): the calls are per class, not per object.


# Objects a model holds twice (a list item's links and prose, a table cell's links: also in the
# model's own lists of links and prose) are written once, in that list, and where held again as
# their places in it: the pools, per class, of encode_columns (each object's place, by its id)
# and of decode_columns (the objects, made already), so that decoding makes each object once,
# and the objects are shared again as the parse shares them.
Pools = dict[type, dict[int, int]]


def pools_of(**lists: list) -> Pools:
    """The pools (see Pools) of lists of one class each, for encode_columns."""
    return {type(objects[0]): {id(x): i for i, x in enumerate(objects)} for objects in lists.values() if objects}


def encode_columns(cls: type, objects: list | tuple, pools: Pools | None = None) -> list:
    """`objects` (all of class `cls`, a class the cache holds) as one column per field of its
    constructor: see _column."""
    names = _init_fields(cls)
    if names is None or any(type(x) is not cls for x in objects):
        raise TypeError(f"cannot cache a {cls.__name__} column")
    return [_column(list(map(attrgetter(n), objects)), pools) for n in names]


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _column(values: list, pools: Pools | None = None) -> Any:
    """One field of many objects: the values themselves where each is text, a number or None;
    for tuples, {"k": their lengths, "v": their items as one column} (frozensets: "f" for "k"),
    or where every item is in a pool, {"k": their lengths, "p": their class, "i": their places
    in it}; for objects of one of the cache's classes, {"c": the class, "t": their columns, "m":
    which are there, where some are None}."""
    kinds = set(map(type, values))
    if kinds <= _PLAIN:
        return values
    if kinds == {tuple} or kinds == {frozenset}:
        tag = "k" if kinds == {tuple} else "f"
        items = [x for v in values for x in v]
        pool = pools.get(type(items[0])) if pools and items and tag == "k" else None
        if pool is not None:
            places = [pool.get(id(x), -1) for x in items]
            if -1 not in places:
                return {tag: list(map(len, values)), "p": type(items[0]).__name__, "i": places}
        return {tag: list(map(len, values)), "v": _column(items, pools)}
    kinds.discard(type(None))
    (t,) = kinds if len(kinds) == 1 else (None,)
    if t is None or _init_fields(t) is None:
        raise TypeError(f"cannot cache a column of {sorted(k.__name__ for k in kinds)}")
    there = [v for v in values if v is not None]
    out: dict[str, Any] = {"c": t.__name__, "t": encode_columns(t, there, pools)}
    if len(there) < len(values):
        out["m"] = [0 if v is None else 1 for v in values]
    return out


def decode_columns(cls: type, columns: Any, n: int, shift: int = 0, pools: dict[type, list] | None = None) -> list:
    """The `n` objects of class `cls` that encode_columns wrote as `columns`, every line number
    (a `line` or `end_line` field) moved by `shift`; `pools`: per class, the objects decoded
    already that a column may name by their places (see Pools). Anything not of that shape
    raises (ValueError, TypeError, KeyError): the entry is not used."""
    plan = _PLANS.get(cls) or _plan(cls)
    if type(columns) is not list or len(columns) != len(plan) or type(n) is not int:
        raise ValueError("not the columns of " + cls.__name__)
    if not n:
        return []  # (a section without a table: nothing to make, nor of the classes inside)
    values = [_values(c, n, shift if moved else 0, shift, pools) for c, (moved, _, _) in zip(columns, plan)]
    if plan[0][1] is None:
        return list(map(cls, *values))
    made: list[Any] = list(map(object.__new__, repeat(cls, n)))
    for (_, set_field, name), column in zip(plan, values):
        assert set_field is not None
        deque(map(set_field, made, column) if name is None else map(set_field, made, repeat(name), column), 0)
    return made


def _values(column: Any, n: int, by: int, shift: int, pools: dict[type, list] | None = None) -> list:
    """The `n` values `column` (see _column) holds, moved by `by` (numbers) or `shift` (the
    line numbers of the objects it holds; those of a pool are moved already)."""
    if type(column) is list:
        if len(column) != n:
            raise ValueError("a column of another length")
        return list(map(add, column, repeat(by))) if by else column
    if type(column) is not dict:
        raise ValueError("not a column")
    if "k" in column or "f" in column:
        lengths = column.get("k", column.get("f"))
        if type(lengths) is not list or len(lengths) != n:
            raise ValueError("a column of another length")
        if "p" in column:
            items = iter(_pooled(column, sum(lengths), pools))
        else:
            items = iter(_values(column["v"], sum(lengths), by, shift, pools))  # (a length below 0: islice raises)
        return list(map(tuple if "k" in column else frozenset, map(islice, repeat(items), lengths)))
    cls = _class(column["c"])
    if cls is None:
        raise KeyError(column["c"])  # not ours: the entry is rejected
    there = column.get("m")
    if there is None:
        return decode_columns(cls, column["t"], n, shift, pools)
    if type(there) is not list or len(there) != n or not set(there) <= {0, 1}:
        raise ValueError("not a column's mask")
    made = iter(decode_columns(cls, column["t"], sum(there), shift, pools))
    return [next(made) if x else None for x in there]


def _pooled(column: dict, n: int, pools: dict[type, list] | None) -> list:
    """The `n` objects of a pool a column names by their places (see _column)."""
    cls = _class(column["p"])
    pool = pools.get(cls) if pools is not None and cls is not None else None
    places = column["i"]
    if pool is None or type(places) is not list or len(places) != n:
        raise ValueError("not a column of a pool's objects")
    if places and (min(places) < 0 or max(places) >= len(pool)):  # (not numbers: TypeError)
        raise ValueError("a place outside the pool")
    return list(map(pool.__getitem__, places))


# Per class, per field of its constructor: whether it is a line number, and how a made object's
# field is set (decode_columns; None where the constructor must run).
_PLANS: dict[type, list[tuple[bool, Callable[..., Any] | None, str | None]]] = {}


def _plan(cls: type) -> list[tuple[bool, Callable[..., Any] | None, str | None]]:
    """For a class whose every field is its constructor's and that has no __post_init__ (what
    its __init__ does is set them), each field's setter: the slot's own, called (object, value),
    or for a class without slots object.__setattr__ and the name, called (object, name, value)
    (what a frozen class's __init__ calls)."""
    import dataclasses

    names = _init_fields(cls)
    if not names:
        raise ValueError(f"{cls.__name__} is not a class the cache holds")
    direct = not hasattr(cls, "__post_init__") and names == tuple(f.name for f in dataclasses.fields(cls))
    slotted = "__slots__" in vars(cls)
    plan: list[tuple[bool, Callable[..., Any] | None, str | None]] = [
        (n in ("line", "end_line"),
         (getattr(cls, n).__set__ if slotted else object.__setattr__) if direct else None,
         None if slotted else n)
        for n in names]
    _PLANS[cls] = plan
    return plan
