"""The cache's codec (drafterlint.cache): the tool's fingerprint, which every key holds, and the
JSON form of what is stored, decoded only into the model's own classes (never pickle: a cache
directory may be writable by someone else, and loading must not run code)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from drafterlint.inputs import FORMAT, digest, fingerprint, key

# The fingerprint and the keys are derived in drafterlint.inputs, which the front shares.
__all__ = ["FORMAT", "decode", "decode_shifted", "digest", "encode", "fingerprint", "key"]


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


# Per class: the indices of its constructor's fields that are line numbers.
_LINE_FIELDS: dict[type, tuple[int, ...]] = {}


def decode_shifted(text: str, shift: int) -> Any:
    """`decode`, every line number the model's objects hold moved by `shift`: a section of a
    document kept where it started at another line (markdown/sections.py)."""
    if not shift:
        return decode(text)
    import dataclasses  # (only for documents' sections, as in _class)

    def hook(d: dict) -> Any:
        if "v" in d:
            name = d.get("c")
            cls = _class(name if name is not None else d.get("L") or d["T"])
            if cls is None:
                raise KeyError(name)  # not ours: the entry is rejected
            at = _LINE_FIELDS.get(cls)
            if at is None:
                at = _LINE_FIELDS[cls] = tuple(i for i, f in enumerate(f for f in dataclasses.fields(cls) if f.init)
                                               if f.name in ("line", "end_line"))
            make = _maker(cls)
            if name is not None:
                v = d["v"]
                for i in at:
                    v[i] += shift
                return make(v)
            rows = d["v"]
            for v in rows:
                for i in at:
                    v[i] += shift
            made = [make(v) for v in rows]
            return made if "L" in d else tuple(made)
        return _hook(d)

    return json.loads(text, object_hook=hook)
