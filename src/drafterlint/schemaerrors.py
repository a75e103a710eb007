"""JSON Schema validation errors, located in the YAML source and explained for people.

jsonschema reports a path (`$.catalogs`); a person needs the line of the offending key and, for
a misspelled key, the name it should have had.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from drafterlint.findings import did_you_mean, quoted
from drafterlint.records import dataclass


@dataclass(frozen=True)
class LocatedError:
    """A schema error at the line and column of the key or item it is about."""

    path: tuple  # the offending key or item
    line: int
    column: int
    message: str
    suggestion: str | None = None


def _allowed(schema: dict) -> list[str]:
    return sorted(schema.get("properties", {}))


def located_errors(validator, value: Any, doc) -> Iterator[LocatedError]:
    """Every error of `validator` on `value`, at the position of `doc` (a YamlDoc) it concerns."""
    for err in sorted(validator.iter_errors(value), key=lambda e: [str(p) for p in e.absolute_path]):
        base = tuple(err.absolute_path)
        if err.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(err.instance, dict):
            allowed = _allowed(err.schema)
            for key in sorted(k for k in err.instance if k not in allowed):
                close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                path = (*base, key)
                line, col = doc.nearest(path) or (1, 1)
                where = "/".join(str(p) for p in base) or "the top level"
                yield LocatedError(
                    path, line, col,
                    f"unknown key {quoted(key)} in {where}" + (f"; did you mean {quoted(close[0])}?" if close else ""),
                    did_you_mean(close[0] if close else None),
                )
            continue
        line, col = doc.nearest(base) or (1, 1)
        where = "/".join(str(p) for p in base) or "the top level"
        message = err.message
        if err.validator == "format" and err.cause is not None:  # say why, not only that it is not one
            message = f"{err.message}: {err.cause}"
        yield LocatedError(base, line, col, f"{where}: {message}")
