"""Which heading a broken numbered fragment meant, when the document alone says so beyond doubt.

Without the earlier version of the document the only evidence is the fragment itself: a
section number (the digits of `#83-withdrawal`) and a title (`withdrawal`). Two rules, and
nothing looser:

1. *Renumbered* — exactly one numbered heading has the fragment's title, word for word, under
   another number in the same chapter: the fragment's digits begin with the heading's first
   number, and the two differ by at most one digit in length (`#83-withdrawal` -> `§8.2
   Withdrawal`, `#810-scope` -> `§8.9 Scope`). An identical title is the strongest sign there is;
   a second heading with that title makes it a guess, and so does one in another chapter (a
   generic title such as "Scope" or "Status" may be another section altogether): nothing is
   changed. A heading with the fragment's title anywhere also rules out rule 2.
2. *Reworded* — no heading has that title, exactly one heading carries the fragment's number,
   and more than half of the words of the longer of the two titles are shared
   (`#75-open-question-custom-sku` -> `§7.5 Custom SKU`, `#61-…-week-1` -> `§6.1 …-week-0`).
   A section that was deleted and whose number was taken by another (`#81-pareto-updates`,
   now `§8.1 Corrections`) shares no words and is left alone.

If the two rules point at different headings, nothing is changed. A fragment without a leading
section number is never guessed at: with `--base-ref` the earlier version tells.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote

from drafterlint import lazyre
from drafterlint.markdown.slug import github_slug
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.markdown.model import Document, Heading

_NUMBERED_FRAGMENT = lazyre.compile(r"^([0-9]+)-(.+)$")


@dataclass(frozen=True)
class Mapped:
    """The heading a stale fragment meant."""

    heading: "Heading"
    why: str


@dataclass(frozen=True)
class NotMapped:
    """Why no heading can be told to be the one a stale fragment meant."""

    why: str


# Anything that maps (target document, fragment) to the heading meant, or says why not.
HeadingFinder = Callable[["Document", str], "Mapped | NotMapped"]


def _digits(number: str | None) -> str | None:
    if number is None or not re.fullmatch(r"[0-9]+(?:\.[0-9]+)*", number):
        return None
    return number.replace(".", "")


def _same_chapter(digits: str, number: str | None) -> bool:
    chapter = (number or "").split(".")[0]
    return digits.startswith(chapter) and abs(len(digits) - len(_digits(number) or "")) <= 1


def _words(slug: str) -> set[str]:
    return {w for w in slug.split("-") if w}


def _similar(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    return 2 * len(wa & wb) > max(len(wa), len(wb), 1)


def renamed_heading(doc: "Document", fragment: str) -> Mapped | NotMapped:
    frag = unquote(fragment).lower()
    m = _NUMBERED_FRAGMENT.match(frag)
    if m is None:
        return NotMapped("the fragment carries no section number to go by")
    digits, title = m.groups()
    numbered = [h for h in doc.headings if _digits(h.number) is not None]
    titled = [h for h in numbered if github_slug(h.title) == title]
    same_number = [h for h in numbered if _digits(h.number) == digits]
    by_title = titled[0] if len(titled) == 1 and _same_chapter(digits, titled[0].number) else None
    by_number = (same_number[0] if len(same_number) == 1 and not titled
                 and _similar(title, github_slug(same_number[0].title)) else None)
    if len(titled) > 1:
        listed = ", ".join(f"§{h.number}" for h in titled)
        return NotMapped(f"{len(titled)} headings have that title ({listed})")
    if by_title is not None:
        rival = [h for h in same_number if h is not by_title and _similar(title, github_slug(h.title))]
        if rival:
            return NotMapped(f"§{by_title.number} has that title but §{rival[0].number} has its number")
        return Mapped(by_title, f"same title, renumbered to §{by_title.number}")
    if by_number is not None:
        return Mapped(by_number, f"same number, title now “{by_number.title}”")
    if titled:
        return NotMapped(f"§{titled[0].number} has that title, but in another chapter (moved, or another section?)")
    if len(same_number) == 1:
        h = same_number[0]
        return NotMapped(f"no heading has that title, and §{h.number} is now “{h.title}”, another section")
    if same_number:
        return NotMapped("no heading has that title, and several headings have that number")
    return NotMapped("no heading has that title or number (deleted?)")
