"""Text as CommonMark decodes it: backslash escapes and entity references."""

from __future__ import annotations

import html.entities
import re

from drafterlint import lazyre

_ENTITY = r"&(#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)"
_DECODE_RE = lazyre.compile(r"\\([!-/:-@\[-`{-~])|" + _ENTITY)
_ENTITY_RE = lazyre.compile(_ENTITY)


def _entity(ref: str) -> str:
    if ref[0] == "#":
        # cmark-gfm's: the code point as it is (`&#5;` is U+0005, `&#128;` U+0080, where HTML
        # maps or drops them), U+FFFD for 0, a surrogate or one past Unicode
        n = int(ref[2:-1], 16) if ref[1] in "xX" else int(ref[1:-1])
        return "\ufffd" if n == 0 or n > 0x10FFFF or 0xD800 <= n < 0xE000 else chr(n)
    return html.entities.html5.get(ref, "&" + ref)


def _decode_one(m: re.Match[str]) -> str:
    return m.group(1) if m.group(1) is not None else _entity(m.group(2))


def decode(s: str) -> str:
    """CommonMark's backslash escapes and entity references, in one pass: an entity needs its
    `;` (`&amp` stays as written, unlike in HTML) and an escaped `\\&` starts none."""
    if "&" not in s and "\\" not in s:
        return s
    return _DECODE_RE.sub(_decode_one, s)


def decode_entities(s: str) -> str:
    """Entity references only, in text whose escapes are already resolved: a backslash there is
    a character, so an escaped backslash before an entity (`\\\\&amp;`) leaves `\\&`."""
    if "&" not in s:
        return s
    return _ENTITY_RE.sub(lambda m: _entity(m.group(1)), s)
