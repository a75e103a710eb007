"""DL502 unknown-head-method — a head's method is not a drafter kind the rules recognize.

The method says what kind of drafter the head is (an MTP head, an EAGLE-style head, DSpark, a
draft model, ...); the validator and the reviewers rely on it, and the rules forbid using a head
as a different kind of drafter than documented. The known kinds are those the rules text names
(found by their words) and those of the option ``kinds`` (method id -> the words the rules write
for it; ``registry.head_methods`` adds ids without words). A near miss gets a did-you-mean.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from drafterlint.checks._examples import POLICIES, catalog_start, head_entry
from drafterlint.checks._facts import DRAFTER_KINDS
from drafterlint.checks._options import Option
from drafterlint.checks._stated import head_methods
from drafterlint.checks.base import REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity, did_you_mean, quoted
from drafterlint.registry import method_family

RULE = Rule(
    code="DL502",
    name="unknown-head-method",
    severity=Severity.ERROR,
    summary="a head's method is not a drafter kind the rules recognize",
    needs=frozenset({REGISTRY}),
)
ADVICE = "correct the method, or amend the rules to recognise the drafter kind"

# The drafter kinds: a head's `method` id -> the words the rules write for it (case-sensitive,
# whole words). The rules' §2.9.4 names kinds by example; every kind listed here is accepted,
# and the words find the kinds the rules name. In .drafterlint.yaml, `eagle: null` drops a kind.
KINDS: Option[dict[str, list[str] | None]] = Option(RULE.code, "kinds", {
    "type": "object",
    "propertyNames": {"pattern": "^[a-z0-9_]+$"},
    "additionalProperties": {"type": ["array", "null"], "items": {"type": "string", "minLength": 1}},
}, default={
    "mtp": ["MTP"],
    "dspark": ["DSpark"],
    "eagle3": ["EAGLE-3", "EAGLE3"],
    "eagle": ["EAGLE"],
    "medusa": ["Medusa"],
    "draft_model": [],
    "ngram": [],
}, description="a head's method id -> the words the rules write for that drafter kind", fills=DRAFTER_KINDS)
OPTIONS = (KINDS,)

_CAT = "registry:" + POLICIES + "2026-10-C1/catalog.yaml"


def _cat(method: str) -> str:
    return catalog_start("2026-10-C1") + head_entry(method=method) + "  approved_checkpoints: {}\n"


EXAMPLES = (
    Example("a known kind", {_CAT: _cat("eagle3")}),
    Example("a misspelled kind", {_CAT: _cat("eagel3")}, expect=((_CAT, 9, 15),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    known = head_methods(ctx.facts, ctx.config, KINDS.read(ctx.config))
    if not known:
        return
    folded = {k.casefold(): k for k in known}
    families = {method_family(k) for k in known}
    for policy in reg.policies.values():
        for head in policy.heads:
            if head.method is None or head.method.casefold() in folded or method_family(head.method) in families:
                continue
            close = difflib.get_close_matches(head.method.casefold(), list(folded), n=1, cutoff=0.6)
            suggestion = did_you_mean(folded[close[0]] if close else None)
            yield RULE.at(
                head.field_location("method"),
                f"method {quoted(head.method)} of {head.describe()} is not a drafter kind the rules "
                f"recognize (known: {', '.join(known)})",
                suggestion=suggestion,
                key=f"{policy.folder}:{'/'.join(map(str, head.identity))}:{head.method}",
            )
