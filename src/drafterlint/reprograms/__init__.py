"""Regular-expression programs compiled ahead of time, as pip compiles modules to bytecode.

`re.compile` turns a pattern into a program for the C matcher (`_sre`) in pure Python
(`re._parser`, `re._compiler`): some 150 patterns a cold run meets (mistune's block and inline
scanners, its list-break scanners, PyYAML's reader and resolver, the facts' phrases, the rules'
own) cost about a tenth of the run's CPU, the same every run, to make the same programs.
This package ships those programs, made by `tools/regex_programs.py` on each supported
interpreter, and `install` puts them in `re`'s own cache before a full run imports anything that
compiles: `re.compile` then returns them as it returns a pattern it compiled earlier in the run.

A program is only as right as the compiler that made it, so a table is used only by an
interpreter whose compiler is the one that made it, byte for byte: its file is named by
`fingerprint()`, checksums of the compiler's and parser's sources, the matcher's format (MAGIC,
CODESIZE, MAXREPEAT, MAXGROUPS), the Python version and the widest character. Any other
interpreter (another patch release that changed the compiler, PyPy, a Python without the sources)
finds no file and compiles as before; so does a pattern the table lacks (a configuration's own
`pattern:`, a dependency's new release). The programs are package data, trusted as its code is;
nothing is read from the user's cache. tests/test_reprograms.py compiles every entry again on the
running interpreter and requires the same program, and requires that checking the bundled
examples compiles nothing.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # (typeshed has no stub of the matcher)
import marshal
import os
import re
import sys
import zlib
from typing import Any

# The modules whose code makes a program (3.10 names them sre_*).
_COMPILER_MODULES = ("_compiler", "_parser", "_constants") if sys.version_info >= (3, 11) else (
    "sre_compile", "sre_parse", "sre_constants")
# marshal's version 2 writes no back-references, so the same table is written as the same bytes.
MARSHAL_VERSION = 2

_INSTALLED = False


def _compiler_module(name: str) -> Any:
    if sys.version_info >= (3, 11):
        return sys.modules.get(f"re.{name}") or __import__(f"re.{name}", fromlist=["_"])
    return __import__(name)


def fingerprint() -> str | None:
    """The name of the table this interpreter may use (None: it compiles every pattern)."""
    if sys.implementation.name != "cpython":
        return None
    # (zlib's two checksums, 64 bits: it is loaded for the table anyway, where hashlib would
    # load OpenSSL; the name tells apart the few interpreters a table is made for, and an
    # attacker who can write the package's files can write its code)
    data = [repr((sys.version_info[:2], _sre.MAGIC, _sre.CODESIZE, _sre.MAXREPEAT, _sre.MAXGROUPS,
                  sys.maxunicode)).encode()]
    for name in _COMPILER_MODULES:
        source = getattr(_compiler_module(name), "__file__", None)
        if not source or not source.endswith(".py"):
            return None
        try:
            with open(source, "rb") as f:
                data.append(f.read())
        except OSError:
            return None
    joined = b"\0".join(data)
    return f"cpython{sys.version_info[0]}{sys.version_info[1]}-{zlib.crc32(joined):08x}{zlib.adler32(joined):08x}"


def table_path(name: str, directory: str | None = None) -> str:
    return os.path.join(directory or os.path.dirname(__file__), f"{name}.bin")


def read(directory: str | None = None) -> dict | None:
    """This interpreter's table (None where there is none or it cannot be read): its
    `programs` are (pattern, flags asked, flags, code, groups, group names) rows."""
    name = fingerprint()
    if name is None:
        return None
    try:
        with open(table_path(name, directory), "rb") as f:
            table = marshal.loads(zlib.decompress(f.read()))
    except (OSError, ValueError, EOFError, TypeError, zlib.error):
        return None
    if not isinstance(table, dict) or table.get("fingerprint") != name or not isinstance(table.get("programs"), list):
        return None
    return table


def pattern_of(row: tuple) -> re.Pattern:
    """The compiled pattern of a table's row, as `re.compile` would return it."""
    pattern, _asked, flags, code, groups, names = row
    indexgroup: list[str | None] = [None] * (groups + 1)
    for group_name, index in names.items():
        indexgroup[index] = group_name
    return _sre.compile(pattern, flags, code, groups, names, tuple(indexgroup))


def install(directory: str | None = None) -> int:
    """Put this interpreter's programs in `re`'s cache (once a process); how many were put."""
    global _INSTALLED
    if _INSTALLED and directory is None:
        return 0
    _INSTALLED = True
    cache = getattr(re, "_cache", None)
    table = read(directory) if isinstance(cache, dict) else None
    if table is None:
        return 0
    rows = table["programs"]
    put = 0
    for row in rows:
        try:
            key = (type(row[0]), row[0], row[1])
            if key in cache:  # type: ignore[operator]
                continue
            cache[key] = pattern_of(row)  # type: ignore[index]
        except (TypeError, ValueError, RuntimeError, OverflowError, AttributeError, IndexError):
            continue  # a row the matcher refuses is compiled when asked for, as without a table
        put += 1
    return put


def program(pattern: str | bytes, flags: int) -> tuple:
    """A table's row for `pattern` compiled with `flags` by this interpreter's own compiler: the
    arguments it gives the matcher (used by tools/regex_programs.py and the tests)."""
    compiler = _compiler_module(_COMPILER_MODULES[0])
    made: list[tuple] = []

    class _Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(_sre, name)

        @staticmethod
        def compile(*args: Any) -> Any:
            made.append(args)
            return _sre.compile(*args)

    real = compiler._sre
    compiler._sre = _Recording()
    try:
        compiler.compile(pattern, flags)
    finally:
        compiler._sre = real
    (source, final_flags, code, groups, names, _indexgroup), = made
    return (source, int(flags), int(final_flags), [int(c) for c in code], int(groups), dict(names))


def encode(rows: list[tuple], dependencies: dict[str, str]) -> bytes:
    """This interpreter's table of `rows`, as a file (sorted, so the same rows make the same
    bytes), naming the `dependencies` (distribution: version) whose patterns it was made with."""
    name = fingerprint()
    if name is None:
        raise RuntimeError("this interpreter has no compiler sources to name a table by")
    ordered = sorted(rows, key=lambda r: (type(r[0]).__name__, r[0].encode("utf-8", "surrogatepass")
                                          if isinstance(r[0], str) else r[0], r[1]))
    return zlib.compress(marshal.dumps({"fingerprint": name, "python": sys.version.split()[0],
                                        "dependencies": dependencies, "programs": ordered}, MARSHAL_VERSION), 9)
