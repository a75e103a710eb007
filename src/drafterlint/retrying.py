"""Retries for the audit's HTTP clients (GitHub issues, model hub): one policy, one loop.

Connection errors wait with exponential backoff; answers the caller calls retryable (429, 5xx,
rate-limit 403s) wait for ``Retry-After`` (seconds or an HTTP date), else for GitHub's
``X-RateLimit-Reset``, else the backoff — always capped, so a hostile or broken server cannot
park the audit. ``requests`` is imported by the callers, not here.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RetryPolicy:
    retries: int = 3
    backoff: float = 1.0
    max_retry_after: float = 60.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    clock: Callable[[], float] = field(default=time.time, repr=False)

    def backoff_delay(self, attempt: int) -> float:
        return min(self.backoff * (2 ** attempt), self.max_retry_after)

    def delay(self, resp, attempt: int) -> float:
        """How long to wait before retrying after the answer `resp`."""
        value = (resp.headers.get("Retry-After") or "").strip()
        if value.isdigit():
            return min(float(value), self.max_retry_after)
        if value:
            try:
                when = email.utils.parsedate_to_datetime(value)
                return min(max(0.0, when.timestamp() - self.clock()), self.max_retry_after)
            except (TypeError, ValueError):
                pass
        reset = resp.headers.get("X-RateLimit-Reset") or ""
        if resp.headers.get("X-RateLimit-Remaining") == "0" and reset.isdigit():
            return min(max(0.0, int(reset) - self.clock()), self.max_retry_after)
        return self.backoff_delay(attempt)

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
            self.sleep(self.delay(resp, attempt))
        raise AssertionError("unreachable")  # pragma: no cover
