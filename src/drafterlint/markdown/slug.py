"""GitHub's heading anchors, exactly as github-slugger 2.0 computes them.

``github_slug(text)`` takes a heading's *rendered* text (markup removed, code-span contents kept,
escapes and entities resolved, inline HTML tags dropped) and:

1. lowercases it the JavaScript way (``String.prototype.toLowerCase``: full Unicode lowercasing,
   including the final-sigma rule and ``İ`` → ``i̇``; Python's ``str.lower`` does the same);
2. removes every character whose General Category is No, Ps/Pe/Pi/Pf/Po, Pd (except ``-``),
   Sm/Sc/Sk/So, Cc, Co, Cf, Cn, or Zs/Zl/Zp (except U+0020) -- unless the character has the
   Unicode Alphabetic property (e.g. Ⓖ, which is So);
3. turns each U+0020 into ``-``.  No trimming, no collapsing of runs.

Kept: letters (L*), marks (M*, including the U+FE0F variation selector), Nd, Nl, connector
punctuation (Pc: ``_``, ``‿``, ``＿``), ``-`` and space.

Python has no accessor for the Alphabetic property.  Alphabetic = Lu+Ll+Lt+Lm+Lo+Nl +
Other_Alphabetic; of these, only Other_Alphabetic characters can fall in a removed category,
and the only ones that do are the enclosed letters of category So: circled Latin letters
U+24B6–U+24E9 and the squared / negative circled / negative squared Latin capitals
U+1F130–U+1F149, U+1F150–U+1F169, U+1F170–U+1F189.  Those are kept explicitly below.

Known gaps: github-slugger's tables are Unicode 13.0 while Python's ``unicodedata`` is newer, so
code points assigned after Unicode 13 are kept here (github-slugger drops them as unassigned).
"""

from __future__ import annotations

import unicodedata

__all__ = ["github_slug", "Slugger"]

_REMOVED = frozenset(
    {"No", "Ps", "Pe", "Pi", "Pf", "Po", "Pd", "Sm", "Sc", "Sk", "So",
     "Cc", "Co", "Cf", "Cn", "Cs", "Zs", "Zl", "Zp"}
)

# Other_Alphabetic characters whose General Category would otherwise remove them.
_ALPHABETIC_SYMBOL_RANGES = (
    (0x24B6, 0x24E9),  # Ⓐ..ⓩ circled Latin letters
    (0x1F130, 0x1F149),  # 🄰..🅉 squared Latin capitals
    (0x1F150, 0x1F169),  # 🅐..🅩 negative circled Latin capitals
    (0x1F170, 0x1F189),  # 🅰..🆉 negative squared Latin capitals
)


def _is_alphabetic_symbol(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _ALPHABETIC_SYMBOL_RANGES)


class _Table(dict[int, "str | None"]):
    """A lazily filled ``str.translate`` table: code point -> replacement (None = delete)."""

    def __missing__(self, cp: int) -> str | None:
        if cp == 0x20:
            value: str | None = "-"
        elif cp == 0x2D:  # '-' is Pd but kept
            value = "-"
        elif unicodedata.category(chr(cp)) in _REMOVED and not _is_alphabetic_symbol(cp):
            value = None
        else:
            value = chr(cp)
        self[cp] = value
        return value


_TABLE = _Table()
# ASCII is by far the common case: fill it eagerly.
for _cp in range(128):
    _TABLE[_cp]
del _cp


def github_slug(text: str) -> str:
    """github-slugger's ``slug(text)``: the anchor for one heading's rendered text."""
    if not isinstance(text, str):
        return ""
    return text.lower().translate(_TABLE)


class Slugger:
    """github-slugger's BananaSlug: slugs unique within one document, in document order."""

    def __init__(self) -> None:
        self.occurrences: dict[str, int] = {}

    def slug(self, text: str) -> str:
        original = github_slug(text)
        result = original
        while result in self.occurrences:
            self.occurrences[original] += 1
            result = f"{original}-{self.occurrences[original]}"
        self.occurrences[result] = 0
        return result

    def reset(self) -> None:
        self.occurrences.clear()
