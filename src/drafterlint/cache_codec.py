"""The cache's codec (drafterlint.cache): the tool's fingerprint, which every key holds, and the
JSON form of what is stored, decoded only into the model's own classes (never pickle: a cache
directory may be writable by someone else, and loading must not run code)."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from drafterlint import __version__

FORMAT = 2  # 2: each entry starts with the digest of its body
_DEPENDENCIES = ("mistune", "yaml", "jsonschema")


# -- the tool's fingerprint ------------------------------------------------------------------

_FINGERPRINT: str | None = None


def fingerprint() -> str:
    """Changes whenever the code that computes findings may have changed."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        h = hashlib.sha256()
        h.update(f"{FORMAT}\0{__version__}\0{sys.version}\0".encode())
        package = Path(__file__).resolve().parent
        _stat_tree(h, package)
        import importlib.util

        for name in _DEPENDENCIES:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            origin = getattr(spec, "origin", None)
            h.update(f"{name}\0".encode())
            if origin:
                _stat_tree(h, Path(origin).parent)
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def _stat_tree(h: Any, top: Path) -> None:
    stack = [str(top)]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name == "__pycache__":
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                elif e.name.endswith((".py", ".json", ".so", ".pyd")):
                    st = e.stat()
                    h.update(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
            except OSError:
                continue


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- encoding: JSON, decoded only into known classes ----------------------------------------

_CLASSES: dict[str, type] | None = None


def _class(name: str) -> type | None:
    """The class a cache entry may name: a finding's, or a dataclass the Markdown model defines
    (read from the module, so a class added to the model is cacheable with no list to update).
    The model is imported only for documents: a whole-run hit decodes findings alone, and a warm
    run should not pay for the rest."""
    global _CLASSES
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
        ours = dataclasses.is_dataclass(t) and _class(t.__name__) is t
        _FIELDS[t] = tuple(f.name for f in dataclasses.fields(t) if f.init) if ours else None
    return _FIELDS[t]


def encode(obj: Any) -> Any:
    t = type(obj)
    if obj is None or t is str or t is int or t is float or t is bool:
        return obj
    if t is list:
        return [encode(x) for x in obj]
    if t is tuple:
        return {"t": [encode(x) for x in obj]}
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


def _hook(d: dict) -> Any:
    if "c" in d:
        cls = _class(d["c"])
        if cls is None:
            raise KeyError(d["c"])  # not ours: the entry is rejected
        return cls(*d["v"])
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


def canonical(value: Any) -> Any:
    """A JSON-able, order-independent form of an engine input:
    dataclasses (the configuration) field by field, paths and dates as text. Anything else is
    refused, so a new kind of input cannot silently be keyed by its repr. A field left out of
    the dataclass's equality is the run's state, not its value (`Config.patterns`), and left out."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare}}
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"no canonical form for {type(value).__name__}")


def key(*parts: Any) -> str:
    text = json.dumps(canonical([fingerprint(), *parts]), sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
