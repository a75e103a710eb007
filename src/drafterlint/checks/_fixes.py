"""What a rule declares about fixing its findings: whether `drafterlint fix` rewrites them
(never, sometimes, always), with the function that proposes the edits, or why a person decides.

A rule module declares `FIX` next to `RULE` (a rule that declares none is never fixed);
`drafterlint fix` and the rule's page read the declaration, and nothing else lists which codes
are fixable. The rule says it, as a ruff violation states its fix availability and a
markdownlint rule hands its fix with each error; but here the edits are proposed after every
check has run, by `fix/`, and proved by running every check on the edited files. A check
stays free of writing: the function a rule names imports its `fix/` module when it is called,
so a run of `check` loads none of the fixers.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING

from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks.base import RuleModule
    from drafterlint.checks.context import Context
    from drafterlint.fix.edits import Proposes
    from drafterlint.fix.renamed import HeadingFinder


class Availability(enum.Enum):
    NONE = "none"
    SOMETIMES = "sometimes"  # when the proposer finds an edit it can stand by, else why not
    ALWAYS = "always"


# Makes a rule's fix for one run (fix.edits.Proposes) from the run's context and the way the
# run finds the heading a broken fragment meant (the document alone, or the base of a change).
Proposer = Callable[["Context", "HeadingFinder"], "Proposes"]

# What the rules' pages say of every fix made only when it is sure.
BEYOND_DOUBT = "the right target is beyond doubt"


@dataclass(frozen=True, eq=False, repr=False)
class Fix:
    """A rule's fix: whether `fix` makes it, with what proposer, or why a person decides."""

    availability: Availability
    proposer: Proposer | None = None
    # SOMETIMES: when the findings are rewritten; NONE: why a person must decide, when `fix`
    # lists the findings as needing one ("": not listed).
    why: str = ""

    def __post_init__(self) -> None:
        if (self.proposer is None) != (self.availability is Availability.NONE):
            raise TypeError(f"a fix available {self.availability.value} "
                            f"{'needs' if self.proposer is None else 'takes no'} proposer")

    @classmethod
    def sometimes(cls, proposer: Proposer, when: str) -> Fix:
        return cls(Availability.SOMETIMES, proposer, when)

    @classmethod
    def always(cls, proposer: Proposer) -> Fix:
        return cls(Availability.ALWAYS, proposer)

    @classmethod
    def for_a_human(cls, why: str) -> Fix:
        """Never rewritten, and listed by `fix` as needing a person, saying why."""
        return cls(Availability.NONE, None, why)


NOT_FIXED = Fix(Availability.NONE)


def declared(rule: "RuleModule") -> Fix:
    """The rule module's declaration; NOT_FIXED when it declares none."""
    fix = getattr(rule, "FIX", NOT_FIXED)
    if not isinstance(fix, Fix):
        raise TypeError(f"{rule.__name__}.FIX is a {type(fix).__name__}, not a checks._fixes.Fix")
    return fix


def repointing(outcome: str) -> Proposer:
    """The proposer of a rule that reports the broken links of one `_links` outcome: each link
    repointed at the heading it meant (fix/links.py)."""

    def proposer(ctx: "Context", finder: "HeadingFinder") -> Proposes:
        from drafterlint.fix.links import repointer

        return repointer(ctx, outcome, finder)

    return proposer
