"""Text as CommonMark decodes it: backslash escapes and entity references."""

from __future__ import annotations

import html
import html.entities
import re

_DECODE_RE = re.compile(
    r"\\([!-/:-@\[-`{-~])|&(#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)"
)


def _decode_one(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return m.group(1)
    ref = m.group(2)
    if ref[0] == "#":
        return html.unescape("&" + ref)
    return html.entities.html5.get(ref, "&" + ref)


def decode(s: str) -> str:
    """CommonMark's backslash escapes and entity references, in one pass: an entity needs its
    `;` (`&amp` stays as written, unlike in HTML) and an escaped `\\&` starts none."""
    if "&" not in s and "\\" not in s:
        return s
    return _DECODE_RE.sub(_decode_one, s)


def decode_entities(s: str) -> str:
    """Entity references only (text whose escapes are already resolved)."""
    if "&" not in s:
        return s
    return _DECODE_RE.sub(lambda m: m.group(0) if m.group(1) is not None else _decode_one(m), s)
