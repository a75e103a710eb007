"""Regular expressions that a configuration supplies (DL503's `native_rule`, DL505's
`tensor_patterns`), searched without letting them hang the run.

A repository's configuration is untrusted input (a fork's pull request, a clone), and Python's
`re` backtracks without bound: `(a+)+b` over forty `a`s, or `\\s*\\s*\\s*\\s*!` over a few hundred
spaces, runs for minutes. Two guards:

- `unsafe`, at validation (the schema's `format: regex`): a repetition inside a repetition, the
  classic exponential case, is refused with the file and line of the pattern.
- `Budget`, around every search of a configured pattern: on POSIX, in the main thread, a CPU-time
  timer (ITIMER_PROF: CPU, not wall time, so a busy machine does not trip it) ends a search that
  backtracks for seconds with `TooSlow`, which the caller turns into bad input (exit 2). Where no
  such timer exists (Windows, another thread) only the first guard holds.
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from drafterlint.findings import InputError

if TYPE_CHECKING:
    from pathlib import Path

try:  # the parser `re` compiles with: public as sre_parse up to 3.10, re._parser since 3.11
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

# CPU seconds one search of a configured pattern may take. A pattern that reads a sentence or a
# tensor name takes microseconds; a thousand times that is still no hang.
CPU_SECONDS = 5.0

_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT}


class TooSlow(Exception):
    """A configured pattern's search used up its CPU budget."""


def unsafe(pattern: str) -> str | None:
    """Why the pattern may backtrack exponentially (a repetition inside a repetition), or None.
    The pattern must compile (`re.error` otherwise)."""
    re.compile(pattern)
    return _nested(_sre_parse.parse(pattern), inside=False)


def _nested(items: object, *, inside: bool) -> str | None:
    for op, av in items:  # type: ignore[attr-defined]
        if op in _REPEATS:
            low, high, body = av
            repeats = high > 1
            if repeats and inside:
                return "a repetition inside a repetition (as in `(a+)+`) can take exponential time"
            found = _nested(body, inside=inside or repeats)
        elif op is _sre.SUBPATTERN:
            found = _nested(av[-1], inside=inside)
        elif op is _sre.BRANCH:
            found = next((why for branch in av[1] if (why := _nested(branch, inside=inside))), None)
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            found = _nested(av[1], inside=inside)
        else:  # literals, sets, anchors, group references: nothing repeats inside them
            found = None
        if found:
            return found
    return None


class Budget:
    """CPU time for the searches of one configured option's patterns (`what`: the option's path,
    `rule_options.DL503.native_rule`; `source`: the configuration file it came from)."""

    def __init__(self, what: str, source: "Path | None" = None, seconds: float | None = None):
        self.what = what
        self.source = source
        self.seconds = CPU_SECONDS if seconds is None else seconds

    @contextmanager
    def running(self, on: str) -> Iterator[None]:
        """The block's searches (of `on`, as a reader names it), ended as bad input (InputError,
        exit 2) once they have used `seconds` of CPU time."""
        timer = getattr(signal, "ITIMER_PROF", None)
        if timer is None or threading.current_thread() is not threading.main_thread():
            yield
            return

        def expired(signum: int, frame: object) -> None:
            raise TooSlow(self.what)

        previous = signal.signal(signal.SIGPROF, expired)
        signal.setitimer(timer, self.seconds)
        try:
            # Disarmed inside the handled region: a tick that lands as the block ends, or while
            # the timer is stopped, is still turned into the one-line error, never a traceback.
            try:
                yield
            finally:
                signal.setitimer(timer, 0)
        except TooSlow:
            raise InputError(f"{self.what}: a pattern searched {on} for {self.seconds:g} s of CPU without an "
                             "answer (it backtracks without bound); simplify it",
                             str(self.source) if self.source else None) from None
        finally:
            signal.signal(signal.SIGPROF, previous)
