"""The end of a `match` that the type checker proves complete.

`typing.assert_never` arrives in Python 3.11 and typing_extensions is no dependency of
drafterlint, which supports 3.10: this is the same function. mypy narrows the value a `match`
leaves over case by case; after the last case it must be of no type at all (`Never`), so a type
added to the union the `match` reads, and handled by no case, fails mypy at this call.
"""

from __future__ import annotations

from typing import NoReturn


def assert_never(value: NoReturn) -> NoReturn:
    """Reached only when the type checker was bypassed: a bug, never bad input."""
    raise AssertionError(f"no case handles {type(value).__name__}: {value!r}")
