"""What one audit leaves in its tracking issue for the next: the findings it saw, small.

The issue's body is for people: the report. The state rides along as one HTML comment (not
rendered) holding, per finding, its fingerprint, rule, file, line and the start of its message,
as compact JSON, zlib-compressed, base64. It is given a budget (``budget``: a tenth of the
visible report at most, and a few KB): when the findings do not fit, the messages go first,
then the findings of lowest severity (the state says how many it holds of how many). The next
audit then still tells new from still open from fixed by fingerprint, and names a fixed finding
by rule and place.

The comment is read back only from the audit's own tracking issue (githubapi.Candidates), only
where the audit writes it: the whole line after the marker that opens the body (a state comment
anywhere else, as quoted text would put it, is not read). Anyone with write access may still have
edited it, so it is decoded within bounds (``MAX_DECODED`` bytes inflated) and checked for
shape, and anything else is "no previous state", with the reason; then each finding it lists
must be one the audit could have written (a known rule code, a fingerprint of 16 hex digits, a
path, line and message within the sizes it writes), and one that is not is left out, with one
line saying how many.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from drafterlint import answers, lazyre
from drafterlint.answers import BadAnswer
from drafterlint.records import dataclass

PREFIX = "<!-- drafterlint-audit-state:2 "
_V2 = lazyre.compile(r"<!-- drafterlint-audit-state:2 ([A-Za-z0-9+/=]{1,200000}) -->")
# The first format (base64 JSON, uncompressed, with long messages) is still read.
_V1 = lazyre.compile(r"<!-- drafterlint-audit-state ([A-Za-z0-9+/=]{1,200000}) -->")
MAX_CHARS = 6000  # the state's budget in an issue body of at most 65,000 characters
SHARE = 0.10  # of the body, at most
MESSAGE_CHARS = 100
V1_MESSAGE_CHARS = 300  # the first format kept longer messages
MAX_DECODED = 4 * 1024 * 1024
# What the audit writes of a finding, at most: a fingerprint (findings._digest), a path a file
# system takes, a line of a document drafterlint reads.
_FINGERPRINT = lazyre.compile(r"[0-9a-f]{16}")
MAX_PATH = 4096
MAX_LINE = 10_000_000


@dataclass(frozen=True)
class State:
    """What an audit kept of its findings for the next one (in the tracking issue)."""

    items: list[dict]  # fingerprint, code, path, line, message ("" when not kept)
    total: int  # findings the audit had; more than len(items) when the budget cut some
    left_out: str = ""  # why some findings it lists were not kept: none the audit could write

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


def read(body: object, marker: str) -> tuple[State | None, str]:
    """(the state an issue body holds where the audit writes it, "") or (None, why there is none
    to compare with). The body must open with `marker`, the state be the line after it."""
    if not isinstance(body, str):
        return None, "the tracking issue has no body"
    first, _, rest = body.partition("\n")
    line = rest.partition("\n")[0].rstrip("\r")
    try:
        if first.rstrip("\r") == marker and (m := _V2.fullmatch(line)):
            return _checked(_decode_v2(m.group(1)), MESSAGE_CHARS), ""
        if first.rstrip("\r") == marker and (m := _V1.fullmatch(line)):
            return _checked(_decode_v1(m.group(1)), V1_MESSAGE_CHARS), ""
    except BadAnswer as exc:
        return None, f"the state in the tracking issue cannot be read ({exc}): nothing to compare with"
    if _V2.search(body) or _V1.search(body):
        return None, ("the tracking issue holds a state only where the audit does not write it (the line after "
                      "the marker that opens the body): not read, nothing to compare with")
    return None, "the tracking issue holds no audit state: nothing to compare with"


def _checked(state: State, message_chars: int) -> State:
    """The state without the findings the audit could not have written, saying how many."""
    from drafterlint.config import rule_codes

    codes = set(rule_codes())
    kept = [item for item in state.items if _plausible(item, codes, message_chars)]
    if len(kept) == len(state.items):
        return state
    left = len(state.items) - len(kept)
    return State(kept, state.total, f"{left} of the {len(state.items)} findings the previous audit's state lists "
                                    "are none the audit writes (an unknown rule code, a fingerprint not of 16 hex "
                                    "digits, or a path, line or message past its sizes): left out")


def _plausible(item: dict, codes: set[str], message_chars: int) -> bool:
    fp, code, path, line, message = (item.get(k) for k in ("fingerprint", "code", "path", "line", "message"))
    return (isinstance(fp, str) and bool(_FINGERPRINT.fullmatch(fp)) and code in codes
            and isinstance(path, str) and len(path) <= MAX_PATH
            and isinstance(line, int) and not isinstance(line, bool) and 0 <= line <= MAX_LINE
            and isinstance(message if message is not None else "", str) and len(message or "") <= message_chars)


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
    if not 0 <= total <= MAX_LINE:
        raise BadAnswer(f"the state counts {total} findings")
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
