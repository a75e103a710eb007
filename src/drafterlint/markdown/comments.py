"""The document's HTML comments outside code blocks: drafterlint's own suppression comments
(`<!-- drafterlint-disable … -->`) and the lines comments cover (no rule reads them as text)."""

from __future__ import annotations

import re
from bisect import bisect_right

from drafterlint import lazyre
from drafterlint.markdown.htmlattrs import comment_spans
from drafterlint.markdown.model import Suppression

_SUPPRESS_RE = lazyre.compile(
    r"<!--\s*drafterlint-(disable-next-line|disable|enable)\b(.*?)-->\Z", re.S | re.I
)
_CODE_RE = lazyre.compile(r"\bDL\d{3}\b", re.I)


def suppressions(text: str, starts: list[int], block_code_lines: set[int],
                 comments: list[tuple[int, int]] | None = None) -> list[Suppression]:
    """The suppressions the comments of `text` (line starts `starts`) declare, in line order; a
    comment that starts in a code block declares none. `comments`: comment_spans(text), where
    the caller has them already (each finding of them scans the whole text)."""
    out: list[Suppression] = []
    open_: list[tuple[frozenset[str], int]] = []
    for start, end in comment_spans(text) if comments is None else comments:
        m = _SUPPRESS_RE.match(text, start, end)
        if m is None:
            continue
        line = bisect_right(starts, start)
        if line in block_code_lines:
            continue
        verb = m.group(1).lower()
        codes = frozenset(c.upper() for c in _CODE_RE.findall(m.group(2)))
        end_line = bisect_right(starts, end - 1)
        if verb == "disable-next-line":
            out.append(Suppression(codes, end_line + 1, end_line + 1))
        elif verb == "disable":
            open_.append((codes, line))
        else:
            keep = []
            for c, start in open_:
                if not codes or not c or codes & c or c == codes:
                    if c and codes and not codes >= c:
                        # partly re-enabled: the rest stays disabled
                        out.append(Suppression(c & codes, start, line))
                        keep.append((c - codes, start))
                    else:
                        out.append(Suppression(c, start, line))
                else:
                    keep.append((c, start))
            open_ = keep
    for c, start in open_:
        out.append(Suppression(c, start, None))
    out.sort(key=lambda s: (s.start_line, s.end_line or 0))
    return out


def comment_lines(text: str, starts: list[int], block_code_lines: set[int],
                  comments: list[tuple[int, int]] | None = None) -> set[int]:
    """The lines an HTML comment of `text` covers, outside code blocks (`comments`: see
    suppressions)."""
    lines: set[int] = set()
    for start, end in comment_spans(text) if comments is None else comments:
        l1 = bisect_right(starts, start)
        if l1 in block_code_lines:
            continue
        l2 = bisect_right(starts, end - 1)
        lines.update(range(l1, l2 + 1))
    return lines
