"""Retries for the audit's HTTP clients (GitHub issues, model hub): one policy, one loop.

Connection errors wait with exponential backoff; answers the caller calls retryable (429, 5xx,
rate-limit 403s) wait for ``Retry-After`` (seconds or an HTTP date), else for GitHub's
``X-RateLimit-Reset``, else the backoff — always capped, so a hostile or broken server cannot
park the audit. A wait asked for beyond the cap is not waited at all: the answer is returned
for the caller to report (sleeping the cap and asking again would not help a server that said
"come back in 11 days"). A timeout is not retried: the server was reached and did not answer.

``send`` is the one place that reads an answer: streamed, cut off at ``MAX_ANSWER_BYTES``
whatever ``Content-Length`` says (or does not say, for a chunked answer), and given up when it
is not complete within ``DEADLINE_FACTOR`` times the timeout. The timeout alone bounds each
wait for a byte, so a server that sends one byte a second would hold the audit for as long as
it liked. ``requests`` is imported on first use.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import field
from typing import Any

from drafterlint.answers import BadAnswer, retry_after, seconds
from drafterlint.records import dataclass

MAX_ANSWER_BYTES = 64 * 1024 * 1024  # a weight index of the largest public models is ~10 MB
MAX_RETRY_AFTER = 60.0
DEADLINE_FACTOR = 5  # a whole answer may take this many timeouts (a large index on a slow link)
_CHUNK = 64 * 1024


class AnswerCutOff(OSError):
    """The answer was not read to its end; the caller reports it and does not retry."""


class AnswerTooLarge(AnswerCutOff):
    """The answer was longer than the limit."""


class AnswerTooSlow(AnswerCutOff):
    """The answer was not complete by its deadline (it may have been arriving, slowly)."""


def send(session, method: str, url: str, *, timeout: float, max_bytes: int = MAX_ANSWER_BYTES,
         deadline: float | None = None, **kw):
    """`session.request`, its body read in chunks up to `max_bytes` (then AnswerTooLarge), the
    whole of it within `deadline` seconds (default DEADLINE_FACTOR * timeout; then AnswerTooSlow).

    The request runs in a daemon thread that the caller stops waiting for at the deadline: no
    socket option bounds the total time of a read that keeps receiving. The abandoned thread
    stops at its next chunk, or with its connection's per-read timeout; it never outlives the
    process."""
    limit = deadline if deadline is not None else DEADLINE_FACTOR * timeout
    stop = threading.Event()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["answer"] = _read(session, method, url, timeout, max_bytes, stop, kw)
        except BaseException as exc:  # handed to the caller's thread, raised there
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="drafterlint-http", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        stop.set()
        raise AnswerTooSlow(f"the answer was not complete within {limit:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["answer"]


def _read(session, method: str, url: str, timeout: float, max_bytes: int, stop: threading.Event, kw):
    resp = session.request(method, url, timeout=timeout, stream=True, **kw)
    body = bytearray()
    try:
        size = (resp.headers.get("Content-Length") or "").strip()
        # ASCII digits only ("²".isdigit() is true); a length that cannot be read is not
        # trusted either way: the count of bytes read below is the bound.
        if size.isascii() and size.isdigit() and (len(size) > 12 or int(size) > max_bytes):
            raise AnswerTooLarge(f"the answer is larger than {max_bytes // 2**20} MiB")
        for chunk in resp.iter_content(_CHUNK):
            if stop.is_set():
                return None  # the caller has given up on this answer
            body += chunk
            if len(body) > max_bytes:
                raise AnswerTooLarge(f"the answer is larger than {max_bytes // 2**20} MiB")
    finally:
        resp.close()
    resp._content = bytes(body)  # what .json() and .text read, as if requests had read it
    return resp


@dataclass
class RetryPolicy:
    """How often and how long to retry a request that may succeed later."""

    retries: int = 3
    backoff: float = 1.0
    max_retry_after: float = MAX_RETRY_AFTER
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    clock: Callable[[], float] = field(default=time.time, repr=False)

    def backoff_delay(self, attempt: int) -> float:
        return min(self.backoff * (2 ** attempt), self.max_retry_after)

    def delay(self, resp, attempt: int) -> float:
        """How long the answer `resp` asks to wait before retrying (not capped). BadAnswer when
        it asks in a form that cannot be read (``Retry-After: ²``): then it is not retried."""
        wait = retry_after(resp.headers.get("Retry-After"), self.clock())
        if wait is not None:
            return wait
        if resp.headers.get("X-RateLimit-Remaining") == "0":
            reset = seconds(resp.headers.get("X-RateLimit-Reset"), "X-RateLimit-Reset")
            if reset is not None:
                return max(0.0, reset - self.clock())
        return self.backoff_delay(attempt)

    def gave_up(self, resp) -> str:
        """Why the retryable answer `resp` was not retried (a wait asked for beyond the cap, or
        one that cannot be read), else ""."""
        try:
            wait = self.delay(resp, 0)
        except BadAnswer as exc:
            return str(exc)
        if wait <= self.max_retry_after:
            return ""
        return f"asked to wait {wait:.0f} s, more than the {self.max_retry_after:.0f} s the audit waits"

    def run(self, send: Callable[[], Any], retryable: Callable[[Any], bool],
            transient: tuple[type[BaseException], ...]):
        """Call `send` until it answers something not `retryable`, or the retries run out.

        Returns the last answer; re-raises the last `transient` error when every attempt failed.
        """
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                resp = send()
            except transient:
                if last:
                    raise
                self.sleep(self.backoff_delay(attempt))
                continue
            if last or not retryable(resp):
                return resp
            try:
                wait = self.delay(resp, attempt)
            except BadAnswer:  # the caller reports it (gave_up)
                return resp
            if wait > self.max_retry_after:
                return resp
            self.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover
