"""DL504 native-claim-drift — the Markdown list says checkpoints ship a native head; the
registry disagrees.

A native head (one the publisher ships inside an approved checkpoint) is recorded in the policy's
catalog as a head with ``bundled: true`` at the checkpoint's repository and revision, with its
``method``. The Markdown list says the same in prose (“the approved checkpoints include their
native MTP heads”). Reported:

- at the sentence: a claimed checkpoint has no bundled head of that kind in the catalog (the
  related locations are the catalog's bundled heads of that kind, or of another kind for the
  same checkpoint);
- at the catalog head: a bundled head whose checkpoint the list names, without a sentence saying
  it ships one of that kind.

A claim names its checkpoints (``org/name``) or, when it names none, covers every checkpoint of
its subsection. Checkpoints missing from one side altogether are DL302's.
"""

from __future__ import annotations

from drafterlint.checks._examples import CAT, README, A, catalog, readme
from drafterlint.checks._mdlist import drifts
from drafterlint.checks.base import REGISTRY, Example, Rule
from drafterlint.findings import Severity

RULE = Rule(
    code="DL504",
    name="native-claim-drift",
    severity=Severity.ERROR,
    summary="the Markdown list says a checkpoint ships a native head; the registry disagrees",
    needs=frozenset({REGISTRY}),
)

_BUNDLED = (
    "    - model: model-one\n      repository: orga/m1\n"
    f"      revision: {A}\n      approved_cohort: 2026-09-C1\n      method: mtp\n"
    "      bundled: true\n"
)
_CLAIM = "\nThe approved checkpoint includes its native {} speculative-decoding head.\n"

EXAMPLES = (
    Example("claim and catalog agree",
            {CAT: catalog(A, heads=_BUNDLED), README: readme(A, extra=_CLAIM.format("MTP"))}),
    Example("the list claims another kind",
            {CAT: catalog(A, heads=_BUNDLED), README: readme(A, extra=_CLAIM.format("DSpark"))},
            expect=((README, 15, 1),)),
    Example("a bundled head the list does not mention",
            {CAT: catalog(A, heads=_BUNDLED), README: readme(A)},
            expect=((CAT, 10, 16),)),
)


def check(ctx):
    for d in drifts(ctx):
        if d.code == RULE.code:
            yield RULE.at(d.location, d.message, related=d.related, suggestion=d.suggestion,
                          key=d.key)
