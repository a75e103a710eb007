"""What each rule's `check` reads of the Context, recorded while the real engine runs it: the
parts a rule declares in RULE.reads are what a change's base compares to take the head's
findings of it (checks._ran.Ran), so a part read but not declared would let the base take
findings computed from something that differs. Used by tests/test_rule_reads.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from drafterlint.checks.context import Context, Part

PARTS = frozenset(p.value for p in Part)
# What no declaration covers: every file met unreadable, which the other rules add to as they
# run (DL702 reports them). A rule that asks for them declares nothing (reads None).
EVERYTHING = "unreadable_met"


class ReadRecorder:
    """Install with `install(monkeypatch, rule_modules)`; then every run of the engine records,
    by rule code, the Context parts its `check` reads (`reads`), what a `ctx.shared`
    computation read counted for every rule that asks for it, and how often it ran (`calls`)."""

    def __init__(self) -> None:
        self.reads: dict[str, set[str]] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[set[str]] = []
        self._shared: dict[tuple[int, Any], set[str]] = {}

    def _note(self, part: str) -> None:
        if self._stack:
            self._stack[-1].add(part)

    @contextmanager
    def _scope(self) -> Iterator[set[str]]:
        seen: set[str] = set()
        self._stack.append(seen)
        try:
            yield seen
        finally:
            self._stack.pop()
            if self._stack:
                self._stack[-1].update(seen)

    def install(self, monkeypatch: Any, modules: list[Any]) -> None:
        recorder = self
        plain_get = object.__getattribute__

        def getattribute(ctx: Context, name: str) -> Any:
            if name in PARTS or name == EVERYTHING:
                recorder._note(name)
            return plain_get(ctx, name)

        def shared(ctx: Context, compute: Callable[[Context], Any]) -> Any:
            memo = plain_get(ctx, "memo")
            key = (id(ctx), compute)
            if compute not in memo:
                with recorder._scope() as seen:
                    memo[compute] = compute(ctx)
                recorder._shared[key] = seen
            else:
                for part in recorder._shared.get(key, ()):
                    recorder._note(part)
            return memo[compute]

        monkeypatch.setattr(Context, "__getattribute__", getattribute)
        monkeypatch.setattr(Context, "shared", shared)
        for mod in modules:
            self.reads.setdefault(mod.RULE.code, set())
            monkeypatch.setattr(mod, "check", self._recorded(mod.RULE.code, mod.check))

    def _recorded(self, code: str, check: Callable[[Context], Any]) -> Callable[[Context], list[Any]]:
        def run(ctx: Context) -> list[Any]:
            self.calls[code] = self.calls.get(code, 0) + 1
            with self._scope() as seen:
                found = list(check(ctx) or ())
            self.reads[code].update(seen)
            return found

        return run


def undeclared(recorder: ReadRecorder, modules: list[Any]) -> list[str]:
    """One line for each rule whose `check` read a part of the Context it does not declare (a
    rule that declares nothing, reads None, may read anything)."""
    out = []
    for mod in modules:
        declared = mod.RULE.reads
        if declared is None:
            continue
        beyond = sorted(recorder.reads.get(mod.RULE.code, set()) - {p.value for p in declared})
        if beyond:
            out.append(f"{mod.RULE.code} reads {', '.join(beyond)} and declares "
                       f"{', '.join(sorted(p.value for p in declared)) or 'nothing'}")
    return out
