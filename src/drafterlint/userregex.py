"""Regular expressions that a configuration supplies (DL503's `native_rule`, DL505's
`tensor_patterns`), searched without letting them hang the run.

A repository's configuration is untrusted input (a fork's pull request, a clone), and Python's
`re` backtracks without bound: `(a+)+b` over forty `a`s, `(?:.?){22}.{22}!` over forty
characters, or `\\s*\\s*\\s*\\s*!` over a few hundred spaces, runs for minutes. Two guards:

- `unsafe`, at validation (the schema's `format: regex`): a repetition inside a repetition, the
  classic exponential case, is refused with the file and line of the pattern. Inside something
  that matches more than once (`x+`, `x{22}`), a repetition is anything that may match more than
  once or a varying number of times (`x?`, `x*`, `x{2}`, `x{2,5}`, possessive or not, and an
  alternation with a branch that may match nothing, `(?:x|)`); it is looked for inside every
  group (atomic ones, both branches of a conditional, lookarounds), and a construct the check
  does not know is refused rather than passed unjudged.
- `Budget`, one per run (`Config.patterns`), around every search of a configured pattern: on
  POSIX, in the main thread, a CPU-time timer (ITIMER_PROF: CPU, not wall time, so a busy
  machine does not trip it) ends the searches once all of them together have backtracked for
  `CPU_SECONDS`, with `TooSlow`, which the caller turns into bad input (exit 2). One budget for
  the run, not one per search: a pattern slow on each of a thousand checkpoints would otherwise
  take a thousand budgets. Where no such timer exists (Windows, another thread) only the first
  guard holds.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from drafterlint.findings import InputError

if TYPE_CHECKING:
    from pathlib import Path

try:  # the parser `re` compiles with: public as sre_parse up to 3.10, re._parser since 3.11
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

# CPU seconds the searches of a configuration's patterns may take together in one run. A pattern
# that reads a sentence or a tensor name takes microseconds; a million times that is still no hang.
CPU_SECONDS = 5.0

# Python 3.11 added atomic groups and possessive repeats; 3.10 refuses their syntax (re.error).
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT} | ({_sre.POSSESSIVE_REPEAT} if hasattr(_sre, "POSSESSIVE_REPEAT") else set())
_GROUPS = {_sre.ATOMIC_GROUP} if hasattr(_sre, "ATOMIC_GROUP") else set()
# What holds no pattern of its own: a character, a set, an anchor, a back-reference.
_LEAVES = {_sre.LITERAL, _sre.NOT_LITERAL, _sre.ANY, _sre.IN, _sre.AT, _sre.GROUPREF}

NESTED = "a repetition inside a repetition (as in `(a+)+` or `(?:a?){20}`) can take exponential time"


class TooSlow(Exception):
    """A configured pattern's search used up the run's CPU budget."""


def unsafe(pattern: str) -> str | None:
    """Why the pattern may backtrack exponentially (a repetition inside a repetition, or a
    construct the check cannot judge), or None. The pattern must compile (`re.error` otherwise;
    on Python 3.10 atomic groups and possessive repeats do not)."""
    re.compile(pattern)
    return _nested(_sre_parse.parse(pattern), inside=False)


def _nested(items: Any, *, inside: bool) -> str | None:
    """`inside`: within something that matches more than once, where whatever may match a
    varying number of times gives the engine more ways to split the text at each step."""
    for op, av in items:
        if op in _REPEATS:
            low, high, body = av
            if inside and (high > 1 or low != high):
                return NESTED
            found = _nested(body, inside=inside or high > 1)
        elif op is _sre.SUBPATTERN:
            found = _nested(av[-1], inside=inside)
        elif op in _GROUPS:
            found = _nested(av, inside=inside)
        elif op is _sre.BRANCH:
            if inside and any(branch.getwidth()[0] == 0 for branch in av[1]):
                return NESTED  # (?:x|) is x? written another way
            found = next((why for branch in av[1] if (why := _nested(branch, inside=inside))), None)
        elif op is _sre.GROUPREF_EXISTS:  # (?(1)yes|no): either may be taken
            _group, yes, no = av
            found = _nested(yes, inside=inside) or (_nested(no, inside=inside) if no is not None else None)
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            found = _nested(av[1], inside=inside)
        elif op in _LEAVES:
            found = None
        else:
            return f"a construct the check of nested repetitions cannot judge ({str(op).lower()})"
        if found:
            return found
    return None


class Budget:
    """The CPU time that every search of one configuration's patterns may take together, over the
    whole run: each configuration read holds one (`Config.patterns`), and every reader of a
    configured pattern searches inside `running`."""

    def __init__(self, seconds: float | None = None):
        self.seconds = CPU_SECONDS if seconds is None else seconds
        self.spent = 0.0
        self._armed = False

    @contextmanager
    def running(self, what: str, on: str, source: "Path | None" = None) -> Iterator[None]:
        """The block's searches (of the option `what`, `rule_options.DL503.native_rule`, over
        `on`, as a reader names it), ended as bad input (InputError, exit 2, naming `source`, the
        configuration file) once the run's searches have used `seconds` of CPU time in all."""
        timer = getattr(signal, "ITIMER_PROF", None)
        if timer is None or self._armed:
            yield  # no timer here, or a block inside a block that already counts
            return

        def expired(signum: int, frame: object) -> None:
            raise TooSlow(what)

        def too_slow() -> InputError:
            return InputError(f"{what}: a pattern searching {on} used up the {self.seconds:g} s of CPU that the "
                              "configuration's patterns have in one run (it backtracks without bound); simplify it",
                              str(source) if source else None)

        left = self.seconds - self.spent
        # Signals are the main thread's alone: in another, signal.signal refuses and there is no
        # timer (asking `threading` which thread this is imported it: 0.3 % of a run with one
        # document changed).
        try:
            previous = signal.signal(signal.SIGPROF, expired)
        except ValueError:
            main = False
        else:
            main = True
        if not main:
            yield
            return
        if left <= 0:
            signal.signal(signal.SIGPROF, previous)
            raise too_slow()
        self._armed = True
        signal.setitimer(timer, left)
        try:
            # Disarmed inside the handled region: a tick that lands as the block ends, or while
            # the timer is stopped, is still turned into the one-line error, never a traceback.
            try:
                yield
            finally:
                unspent = signal.setitimer(timer, 0)[0]
                self.spent += left - unspent
        except TooSlow:
            self.spent = self.seconds
            raise too_slow() from None
        finally:
            self._armed = False
            signal.signal(signal.SIGPROF, previous)
