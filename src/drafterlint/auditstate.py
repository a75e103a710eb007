"""What one audit leaves in its tracking issue for the next: the findings it saw, small.

The issue's body is for people: the report. The state rides along as one HTML comment (not
rendered) holding, per finding, its fingerprint, rule, file, line and the start of its message,
as compact JSON, zlib-compressed, base64. It is given a budget (``budget``: a tenth of the
visible report at most, and a few KB): when the findings do not fit, the messages go first,
then the findings of lowest severity (the state says how many it holds of how many). The next
audit then still tells new from still open from fixed by fingerprint, and names a fixed finding
by rule and place.

The comment is read back from an issue anyone with write access may have edited: it is
decoded within bounds (``MAX_DECODED`` bytes inflated) and checked for shape, and anything else
is "no previous state", with the reason.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass

from drafterlint import answers
from drafterlint.answers import BadAnswer

PREFIX = "<!-- drafterlint-audit-state:2 "
_V2 = re.compile(r"<!-- drafterlint-audit-state:2 ([A-Za-z0-9+/=]{1,200000}) -->")
# The first format (base64 JSON, uncompressed, with long messages) is still read.
_V1 = re.compile(r"<!-- drafterlint-audit-state ([A-Za-z0-9+/=]{1,200000}) -->")
MAX_CHARS = 6000  # the state's budget in an issue body of at most 65,000 characters
SHARE = 0.10  # of the body, at most
MESSAGE_CHARS = 100
MAX_DECODED = 4 * 1024 * 1024


@dataclass(frozen=True)
class State:
    items: list[dict]  # fingerprint, code, path, line, message ("" when not kept)
    total: int  # findings the audit had; more than len(items) when the budget cut some

    @property
    def partial(self) -> bool:
        return self.total > len(self.items)


def budget(visible_chars: int) -> int:
    """The most characters the state comment may take beside a report of `visible_chars`."""
    return max(200, min(MAX_CHARS, int(visible_chars * SHARE / (1 - SHARE))))


def _encode(paths: list[str], rows: list[list], total: int) -> str:
    raw = json.dumps({"v": 2, "n": total, "p": paths, "f": rows}, separators=(",", ":"),
                     ensure_ascii=False).encode("utf-8", "surrogatepass")
    return f"{PREFIX}{base64.b64encode(zlib.compress(raw, 9)).decode()} -->"


def comment(findings, limit: int) -> str:
    """The state comment for `findings` (a run's, in the order they should be kept: most
    important first), within `limit` characters."""
    paths: dict[str, int] = {}
    full = []
    for f in findings:
        index = paths.setdefault(f.location.path, len(paths))
        message = f.message if len(f.message) <= MESSAGE_CHARS else f.message[: MESSAGE_CHARS - 1] + "…"
        full.append([f.fingerprint, f.code, index, f.location.line, message])
    names = list(paths)
    text = _encode(names, full, len(full))
    if len(text) <= limit:
        return text
    bare = [row[:4] for row in full]  # without messages: a fixed finding is named by rule and place
    lo, hi = 0, len(bare)
    while lo < hi:  # the most findings that fit (the size grows with the count)
        mid = (lo + hi + 1) // 2
        if len(_encode(names, bare[:mid], len(full))) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return _encode(names, bare[:lo], len(full))


def read(body: object) -> tuple[State | None, str]:
    """(the state an issue body holds, "") or (None, why there is none to compare with)."""
    if not isinstance(body, str):
        return None, "the tracking issue has no body"
    m = _V2.search(body)
    try:
        if m:
            return _decode_v2(m.group(1)), ""
        m = _V1.search(body)
        if m:
            return _decode_v1(m.group(1)), ""
    except BadAnswer as exc:
        return None, f"the state in the tracking issue cannot be read ({exc}): nothing to compare with"
    return None, "the tracking issue holds no audit state: nothing to compare with"


def _inflate(blob: str) -> bytes:
    try:
        data = base64.b64decode(blob, validate=True)
        z = zlib.decompressobj()
        raw = z.decompress(data, MAX_DECODED)
    except (binascii.Error, zlib.error) as exc:
        raise BadAnswer(f"not compressed base64: {exc}") from None
    if z.unconsumed_tail:
        raise BadAnswer(f"larger than {MAX_DECODED // 2**20} MiB inflated")
    return raw


def _decode_v2(blob: str) -> State:
    data = answers.expect(answers.json_of(_inflate(blob), "the state"), dict, "the state")
    paths = answers.field(data, "p", list, "the state")
    rows = answers.field(data, "f", list, "the state")
    total = answers.field(data, "n", int, "the state")
    items = []
    for row in rows:
        answers.expect(row, list, "a finding of the state")
        if len(row) not in (4, 5):
            raise BadAnswer("a finding of the state has the wrong number of fields")
        fp = answers.expect(row[0], str, "a fingerprint")
        code = answers.expect(row[1], str, "a rule code")
        index = answers.expect(row[2], int, "a path index")
        line = answers.expect(row[3], int, "a line")
        message = answers.expect(row[4], str, "a message") if len(row) == 5 else ""
        if not 0 <= index < len(paths):
            raise BadAnswer("a path index is out of range")
        path = answers.expect(paths[index], str, "a path")
        items.append({"fingerprint": fp, "code": code, "path": path, "line": line, "message": message})
    return State(items, max(total, len(items)))


def _decode_v1(blob: str) -> State:
    try:
        raw = base64.b64decode(blob, validate=True)
    except binascii.Error as exc:
        raise BadAnswer(f"not base64: {exc}") from None
    items = answers.expect(answers.json_of(raw, "the state"), list, "the state")
    for item in items:
        answers.expect(item, dict, "a finding of the state")
        answers.field(item, "fingerprint", str, "a finding of the state")
    return State(items, len(items))
