"""What a rule is, and what it is given.

A rule is a module under drafterlint.checks: its docstring is its documentation (shown by
`drafterlint explain CODE`), it defines RULE (code, name, default severity, what it needs),
EXAMPLES (a passing and a failing case, run by the tests) and `check(ctx)`, which returns or
yields Findings and never prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:  # imported for annotations only: a pre-commit hook pays for every import
    import datetime

    from drafterlint.config import Config
    from drafterlint.sources import RepoView


# What a rule needs in order to run. A rule whose needs are not met is skipped (said once).
RULES = "rules"  # the rules repository
REGISTRY = "registry"  # the reference repository's policy folders
HISTORY = "history"  # git history of the repositories (audit)
TODAY = "today"  # a date to compare with (audit)
ONLINE = "online"  # the network (audit --online)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    needs: frozenset[str] = frozenset({RULES})

    def at(
        self,
        location: Location,
        message: str,
        *,
        suggestion: str | None = None,
        related: Iterable[Location] = (),
        key: str = "",
        severity: Severity | None = None,
    ) -> Finding:
        return Finding(
            code=self.code,
            name=self.name,
            severity=self.severity if severity is None else severity,
            location=location,
            message=message,
            suggestion=suggestion,
            related=tuple(related),
            key=key,
        )


@dataclass(frozen=True)
class Example:
    """A tiny pair of repositories and the findings the rule must report on them.

    `files` maps "rules:<path>" or "registry:<path>" to file content. `expect` lists the
    findings of this rule as ("<repo>:<path>", line, column); empty means the example passes.
    `config` is merged into the configuration (e.g. extra aliases).
    """

    title: str
    files: Mapping[str, str]
    expect: tuple[tuple[str, int, int], ...] = ()
    config: Mapping[str, Any] = field(default_factory=dict)

    @property
    def passing(self) -> bool:
        return not self.expect


@dataclass
class Context:
    """Everything a check may look at: parsed documents and registry, never raw paths."""

    config: "Config"
    rules: "RepoView | None" = None
    registry_repo: "RepoView | None" = None
    registry: Any = None  # drafterlint.registry.model.Registry, when the registry was loaded
    today: "datetime.date | None" = None
    history: Any = None  # audit only
    online: Any = None  # audit --online only
    # Facts extracted from the rules text, computed once and shared by the rules that need them.
    memo: dict[str, Any] = field(default_factory=dict)

    def unreadable(self, error) -> None:
        """Record a file that could not be read (DL702) without stopping the check that met it."""
        self.memo.setdefault("_unreadable", []).append(error)

    def skip(self, code: str, reason: str) -> None:
        """Say once that part of a check could not run (never a failure)."""
        self.memo.setdefault("_skipped", {}).setdefault(reason, set()).add(code)

    def remember(self, key: str, compute):
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]
