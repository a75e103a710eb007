"""What a network answer (the GitHub API, the model hub) must look like before anything uses it.

Every value the audit takes from an answer goes through here: its JSON, the type of each field
it reads, the header values it acts on. An answer that is not what the client expects raises
``BadAnswer`` with a reason a person can act on; the client turns that into "could not check",
exactly as it does a refused connection. Nothing an answer holds can then reach a rule or the
report as an unexpected type (a number for an issue's body, ``"abc"`` for its number), and no
parser error escapes as a traceback.

The sizes of an answer (bytes, nesting, item counts) are bounded where it is read
(``drafterlint.retrying.send`` and ``json_of`` below); this module owns the shapes.
"""

from __future__ import annotations

import email.utils
import json
from typing import Any

from drafterlint import lazyre

# A header holding a number of seconds: ASCII digits only. str.isdigit() also accepts "²" or
# "¹²", which int() and float() then refuse; and a few digits are enough for any real wait
# (int() of over 4300 digits raises too).
_SECONDS = lazyre.compile(r"[0-9]{1,12}")
_SHOWN = 40  # characters of a refused value quoted in a reason


class BadAnswer(ValueError):
    """An answer that is not of the shape, type or value the client expects."""


# -- the size of an answer's structure ---------------------------------------------------------
# The byte limit on an answer (retrying.MAX_ANSWER_BYTES) does not bound what parsing it costs:
# 64 MiB of `[{},{},…]` is 22 million objects and gigabytes. So before parsing, an answer's values
# are counted (an upper bound: every `,` `{` `[` of the raw answer, those inside strings too, at
# the speed of bytes.count), and after parsing its nesting; over either it is refused. The
# largest real answers (a weight index of the largest public models, ~10 MB and ~200 000
# values; a page of 100 issues) are far below both.
MAX_ITEMS = 1_000_000
MAX_DEPTH = 64


class AnswerTooComplex(BadAnswer):
    """More values, or deeper nesting, than any real answer holds: refused, not parsed."""


def _count_values(content: bytes | str, what: str) -> None:
    raw = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
    if raw.count(b",") + raw.count(b"{") + raw.count(b"[") > MAX_ITEMS:
        raise AnswerTooComplex(f"{what} holds more than {MAX_ITEMS} values; not read")


def _deeper_than(data: Any, limit: int) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            continue
        if depth > limit:
            return True
        stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return False


def shown(value: object) -> str:
    """A refused value as a reason quotes it: repr (escapes control characters), short."""
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def json_of(content: bytes | str, what: str) -> Any:
    """The parsed JSON of an answer's body, or BadAnswer saying why it is not JSON
    (AnswerTooComplex when it holds more values or deeper nesting than any real answer)."""
    _count_values(content, what)
    try:
        if isinstance(content, bytes):
            content = content.decode("utf-8-sig")
        data = json.loads(content)
    except RecursionError:  # the parser recurses once per level: deep nesting ends here
        raise AnswerTooComplex(f"{what} is nested too deeply to be read") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadAnswer(f"{what} is not JSON ({type(exc).__name__})") from None
    if _deeper_than(data, MAX_DEPTH):
        raise AnswerTooComplex(f"{what} is nested more than {MAX_DEPTH} levels deep; not read")
    return data


_TYPE_NAMES = {dict: "a JSON object", list: "a JSON list", str: "a string", int: "an integer",
               bool: "true or false", float: "a number", type(None): "null"}


def kind(value: object) -> str:
    """The JSON name of a value's type, for a reason ("a number", "a list")."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def expect(value: object, types: type | tuple[type, ...], what: str) -> Any:
    """`value` when it is of `types` (a bool is never an int here), else BadAnswer."""
    wanted = types if isinstance(types, tuple) else (types,)
    if isinstance(value, bool) and bool not in wanted:
        ok = False
    else:
        ok = isinstance(value, wanted)
    if not ok:
        names = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in wanted)
        raise BadAnswer(f"{what} is {kind(value)}, not {names}")
    return value


def field(obj: dict, key: str, types: type | tuple[type, ...], what: str, *, required: bool = True) -> Any:
    """`obj[key]` checked against `types`; a missing key is BadAnswer when `required`, else None."""
    if key not in obj:
        if required:
            raise BadAnswer(f"{what} has no {key!r}")
        return None
    return expect(obj[key], types, f"{what}: {key!r}")


def positive_int(obj: dict, key: str, what: str) -> int:
    """A required positive integer field (an issue's number)."""
    value = field(obj, key, int, what)
    if value < 1:
        raise BadAnswer(f"{what}: {key!r} is {value}, not a positive integer")
    return value


def seconds(value: str | None, header: str) -> int | None:
    """A header that holds whole seconds (``Retry-After``, ``X-RateLimit-Reset``): None when it
    is absent or empty, BadAnswer when it is something else."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if not _SECONDS.fullmatch(text):
        raise BadAnswer(f"its {header} {shown(value)} is not a number of seconds")
    return int(text)


def retry_after(value: str | None, now: float) -> float | None:
    """The wait a ``Retry-After`` asks for: whole seconds or an HTTP date (RFC 9110); None when
    absent, BadAnswer when it is neither."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if _SECONDS.fullmatch(text):
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
        return max(0.0, when.timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        raise BadAnswer(f"its Retry-After {shown(value)} is neither a number of seconds nor a date") from None
