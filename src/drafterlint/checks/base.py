"""What a rule is, and what it is given.

A rule is a module under drafterlint.checks, listed in drafterlint.checks._RULES: its docstring
says what it reports and why (no examples of its own), it defines RULE (code, name, default
severity, what it needs), EXAMPLES (at least a passing and a failing case: data, shown by
`drafterlint explain CODE` and run through the real engine by tests/test_rule_examples.py) and
`check(ctx)`, which returns or yields Findings and never prints. A rule whose errors need a
decision (the audit's DL4xx-DL8xx) also defines ADVICE: what the audit tells a lead to do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from drafterlint.checks._eligibility import Eligibility
from drafterlint.checks._facts import RulesFacts
from drafterlint.checks._native import NativeEvidence
from drafterlint.documents import Documents
from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:  # imported for annotations only: a pre-commit hook pays for every import
    import datetime

    from drafterlint.checks._sections import Located
    from drafterlint.config import Config
    from drafterlint.findings import UnreadableFile
    from drafterlint.markdown.model import Document
    from drafterlint.sources import RepoView

_T = TypeVar("_T")


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


@dataclass
class Context:
    """Everything a check may look at: parsed documents and registry, never raw paths.

    Before any check runs the engine fills `documents` (the one resolved list of documents),
    `sections` (the configured sections, located), `facts` (what the rules text states),
    `registry`, `eligibility` (when each head becomes usable) and `native` (what the
    checkpoints show of their native heads, asked of the hub on demand): every check, and the
    audit after them, reads the same ones, whichever runs first.
    """

    config: "Config"
    rules: "RepoView | None" = None
    registry_repo: "RepoView | None" = None
    registry: Any = None  # drafterlint.registry.model.Registry, when the registry was loaded
    today: "datetime.date | None" = None
    history: Any = None  # audit only
    online: Any = None  # audit --online only
    prepared: bool = False
    documents: Documents = field(default_factory=Documents)
    sections: "list[tuple[Document, Located]]" = field(default_factory=list)
    facts: RulesFacts = field(default_factory=RulesFacts)
    eligibility: Eligibility = field(default_factory=Eligibility)
    native: NativeEvidence = field(default_factory=NativeEvidence)
    # What checks met on the way: files that could not be read (reported by DL702) and parts of
    # checks that could not run (reason -> codes, said once).
    unreadable_files: "list[UnreadableFile]" = field(default_factory=list)
    skipped: dict[str, set[str]] = field(default_factory=dict)
    # Results one check computes and others reuse (resolved links, the parsed Markdown list),
    # each under the function that computes it (see `shared`).
    memo: "dict[Callable[[Context], Any], Any]" = field(default_factory=dict)

    def unreadable(self, error) -> None:
        """Record a file that could not be read (DL702) without stopping the check that met it."""
        self.unreadable_files.append(error)

    def skip(self, code: str, reason: str) -> None:
        """Say once that part of a check could not run (never a failure)."""
        self.skipped.setdefault(reason, set()).add(code)

    def shared(self, compute: "Callable[[Context], _T]") -> _T:
        """`compute(self)`, computed once per context and then reused by every check that asks.

        Keyed by the function itself, not by a name: two helpers cannot collide on a key or
        read each other's result, and the result keeps the function's type."""
        if compute not in self.memo:
            self.memo[compute] = compute(self)
        return self.memo[compute]
