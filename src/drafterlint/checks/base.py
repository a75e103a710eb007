"""What a rule is, and what it is given.

A rule is a module under drafterlint.checks, listed in drafterlint.checks._RULES: its docstring
says what it reports and why (no examples of its own), it defines RULE (code, name, default
severity, what it needs), EXAMPLES (at least a passing and a failing case: data, shown by
`drafterlint explain CODE` and run through the real engine by tests/test_rule_examples.py) and
`check(ctx)`, which returns or yields Findings and never prints. A rule whose errors need a
decision (the audit's DL4xx-DL8xx) also defines ADVICE: what the audit tells a lead to do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# The Context lives in its own module, below the helpers that memoise on it and above the data
# it holds; rules import it from here with the rest of what a rule is given.
from drafterlint.checks.context import Context
from drafterlint.findings import Finding, Location, Severity

__all__ = ["BASE", "HISTORY", "ONLINE", "REGISTRY", "RULES", "TODAY", "Context", "Example", "Rule"]


# What a rule needs in order to run. A rule whose needs are not met is skipped (said once).
RULES = "rules"  # the rules repository
REGISTRY = "registry"  # the reference repository's policy folders
HISTORY = "history"  # git history of the repositories (audit)
TODAY = "today"  # a date to compare with (audit)
ONLINE = "online"  # the network (audit --online)
# The base of a change whose configuration differs (check --base-ref, the hooks, the Action):
# a rule that needs it runs only there, and is never listed as skipped elsewhere.
BASE = "base"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    needs: frozenset[str] = frozenset({RULES})
    # Runs after every other rule, because it reports what they met (DL702: unreadable files).
    last: bool = False

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
