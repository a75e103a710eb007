"""Regular expressions compiled where first used.

A module's `re.compile(...)` runs when the module is imported, by every run that imports it,
whether or not the run uses the pattern: a run with one document changed parses one section of
it and never uses most of the block parser's patterns, the rule that reads section references
finds none in most documents, and a large alternation such as the HTML block starts costs as
much to compile as a small document costs to parse. `lazyre.compile` is written where
`re.compile` was and compiles on the first use of the pattern; from then on its methods are the
compiled pattern's own, found as quickly as on a compiled pattern. A module-level pattern is made
with it (tests/test_code_shape.py holds this, tests/test_plain_check_imports.py counts what a
plain check compiles as it imports).

Pass its methods, not the object, where `re` wants a pattern (`re.sub(p, ...)` wants a string
or a compiled pattern).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, AnyStr, Generic

# The compiled pattern's methods that a first use copies onto the object.
_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split")


class Lazy(Generic[AnyStr]):
    """A pattern and its flags, compiled on the first use of a method (`pattern` is the source,
    as re.Pattern's)."""

    def __init__(self, pattern: AnyStr, flags: int = 0) -> None:
        self.pattern: AnyStr = pattern
        self._flags = flags

    if TYPE_CHECKING:  # what the first use makes: re.Pattern's methods, typed as re.Pattern's
        def match(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[AnyStr] | None: ...
        def fullmatch(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[AnyStr] | None: ...
        def search(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[AnyStr] | None: ...
        def finditer(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[AnyStr]]: ...
        def findall(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]: ...
        def sub(self, repl: AnyStr | Callable[[re.Match[AnyStr]], AnyStr], string: AnyStr, count: int = 0) -> AnyStr: ...
        def subn(self, repl: AnyStr | Callable[[re.Match[AnyStr]], AnyStr], string: AnyStr,
                 count: int = 0) -> tuple[AnyStr, int]: ...
        def split(self, string: AnyStr, maxsplit: int = 0) -> list[AnyStr | Any]: ...
    else:
        def __getattr__(self, name: str) -> Any:
            # Only reached while a method is not yet an attribute of the object: the first use.
            if name not in _METHODS:
                raise AttributeError(name)
            compiled = re.compile(self.pattern, self._flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
            return getattr(compiled, name)


def compile(pattern: AnyStr, flags: int = 0) -> Lazy[AnyStr]:
    """`re.compile(pattern, flags)`, compiled when first used."""
    return Lazy(pattern, flags)
