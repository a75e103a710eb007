"""What a rule is, and what it is given.

A rule is a module under drafterlint.checks, listed in drafterlint.checks._RULES: its docstring
says what it reports and why (no examples of its own), it defines RULE (code, name, default
severity, what it needs), EXAMPLES (at least a passing and a failing case: data, shown by
`drafterlint explain CODE` and run through the real engine by tests/test_rule_examples.py) and
`check(ctx)`, which returns or yields Findings and never prints. A rule whose errors need a
decision (the audit's DL4xx-DL8xx) also defines ADVICE: what the audit tells a lead to do.

What a rule reads of a checked document's body (its prose, lists, tables, paragraphs: more than
the outline, `markdown.model.Outline`) it reads in `check_document(ctx, view, doc)`, which the
engine calls on each checked document as it is read, before it keeps only the document's outline
(a large docs tree would otherwise hold every parsed body); `check(ctx)` then sees the checked
documents as outlines (the main and companion documents and the Markdown list stay whole). The
findings of both are the rule's, in that order. `check_document` reads the document it is given
(a `markdown.model.Body`: its body through `doc.read(fn)`, a module's function of the document
alone, whose value a pull request's base reuses for a document the change left alone) and what
the engine prepared before reading the checked ones (the facts, the registry): the other
checked documents are not all read yet, so a `ctx.shared` value computed from them there would
be computed from a part of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol, cast

# The Context lives in its own module, below the helpers that memoise on it and above the data
# it holds; rules import it from here with the rest of what a rule is given, and the Needs its
# typed accessors answer for.
from drafterlint.checks.context import BASE, HISTORY, ONLINE, REGISTRY, RULES, TODAY, Context, Need, Part
from drafterlint.findings import Finding, Location, Severity
from drafterlint.records import dataclass

__all__ = ["BASE", "HISTORY", "ONLINE", "REGISTRY", "RULES", "TODAY", "Context", "Example", "Need", "Part", "Rule",
           "RuleModule", "all_rules", "rule_by_code"]


@dataclass(frozen=True, eq=False, repr=False)
class Rule:
    """What a rule is: its code, name, default severity, summary and what it needs to run."""

    code: str
    name: str
    severity: Severity
    summary: str
    needs: frozenset[Need] = frozenset({RULES})
    # Runs after every other rule, because it reports what they met (DL702: unreadable files).
    last: bool = False
    # The parts of the Context `check` reads (Part): a change's base takes the head's findings
    # of a rule whose parts are the head's own objects there (checks._ran.Ran). None: not
    # declared, always run again; so is a rule with a per-document part (`check_document`: its
    # documents are the base's). tests/test_rule_reads.py records what each rule reads and holds
    # it to this.
    reads: frozenset[Part] | None = None

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


@dataclass(frozen=True, eq=False, repr=False)
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


class RuleModule(Protocol):
    """A rule as its callers see it: a module under drafterlint.checks, listed in `_RULES`, that
    defines these names (checks/_conformance.py has mypy hold every listed module to it; OPTIONS,
    ADVICE, FIX and check_document are optional and read with getattr, FIX through
    checks._fixes.declared)."""

    __name__: str
    __doc__: str | None

    # Read-only members, as a module's constants are to its callers: a module whose EXAMPLES is a
    # tuple then conforms (a settable Sequence member would have to be exactly a Sequence).
    @property
    def RULE(self) -> Rule: ...

    @property
    def EXAMPLES(self) -> Sequence[Example]: ...

    def check(self, ctx: Context) -> Iterator[Finding]: ...


def all_rules() -> list[RuleModule]:
    """Every rule, ordered by code: drafterlint.checks._RULES, each module held to RuleModule by
    mypy (checks/_conformance.py) and to RULE and check(ctx) when it is loaded."""
    from drafterlint.checks import modules

    return cast("list[RuleModule]", modules())


def rule_by_code(code: str) -> RuleModule | None:
    """The rule with this code (DL201) or name (broken-fragment), None for none."""
    code = code.strip().upper()
    for mod in all_rules():
        if mod.RULE.code == code or mod.RULE.name == code.lower():
            return mod
    return None
