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

Native heads are the rules text's (§2.9.4: a head the publisher ships inside an approved
checkpoint is approved with it): a version of the rules that has none skips the rule with one
line.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._drift import UnbackedClaim, UnclaimedHead, claim_drifts
from drafterlint.checks._examples import CAT, README, A, catalog, readme
from drafterlint.checks._facts import unstated_native_heads
from drafterlint.checks._mdlist import short
from drafterlint.checks.base import REGISTRY, Context, Example, Rule
from drafterlint.exhaustive import assert_never
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL504",
    name="native-claim-drift",
    severity=Severity.ERROR,
    summary="the Markdown list says a checkpoint ships a native head; the registry disagrees",
    needs=frozenset({REGISTRY}),
)
ADVICE = "decide whether the Markdown list or the catalog is right, and correct the other"

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


def check(ctx: Context) -> Iterator[Finding]:
    unstated = unstated_native_heads(ctx.facts)
    if unstated is not None:
        ctx.skip(RULE.code, unstated)
        return
    for d in claim_drifts(ctx):
        match d:
            case UnbackedClaim():
                yield _unbacked(d)
            case UnclaimedHead():
                h = d.head
                yield RULE.at(d.location,
                              f"policy {d.policy} records a bundled {h.method} head in {h.repository}@{short(h.revision)}, "
                              f"but the Markdown list (“{d.section.title}”) does not say that checkpoint ships one",
                              related=d.related, key=f"unclaimed:{h.repository}@{h.revision}:{h.method}")
            case _:
                assert_never(d)


def _unbacked(d: UnbackedClaim) -> Finding:
    method = d.claim.method
    names = ", ".join(f"{e.repository}@{short(e.revision)}" for e in d.unbacked)
    msg = (f"the Markdown list says {names} ship(s) a bundled {method} head, but "
           f"policy {d.policy} has no bundled {method} head for "
           f"{'it' if len(d.unbacked) == 1 else 'them'}")
    if d.other:
        msg += " (it records " + ", ".join(f"{h.repository}@{short(h.revision)} as {h.method}" for h in d.other) + ")"
    elif d.same_method:
        msg += (" (its bundled " + method + " heads: "
                + ", ".join(f"{h.repository}@{short(h.revision)}" for h in d.same_method) + ")")
    return RULE.at(d.location, msg, related=d.related, key=f"claim:{d.claim.model}:{method}:{names}")
