"""DL503 third-party-native-head — a head claimed native inside another publisher's checkpoint.

Which heads are native is the rules' to say, and this rule reads it from them: from the sentence
of §2.9.4 (*Native heads*) that makes a head native only when the canonical model's publisher
ships it inside an approved checkpoint — "a head added, replaced or retrained by anyone other than
the model's publisher … is not native", or "a head that the model publisher ships inside an
approved checkpoint is approved with that checkpoint". The patterns that find the sentence are
``rule_options.DL503.native_rule`` (regular expressions, in order of preference); the message
names the sentence's place. A version of the rules with no such sentence (before native heads
were defined) makes no head native or not: the rule then says nothing, in one skipped line; and
without the rules repository it does not run.

So a ``bundled: true`` head whose repository belongs to another organisation than the model's
canonical publisher (configured in ``registry.canonical_publishers``, else the publisher of the
model's first listed approved checkpoint) is reported:

- as an **error** when it has no ``approved_cohort`` of its own: it is counted as approved with
  the checkpoint, which the rules do not allow;
- as a **warning** when it does carry its own ``approved_cohort``: the entry stands as a list
  entry, but ``bundled: true`` claims a native status the rules deny it; drop the flag so that
  nothing downstream treats it as approved with its checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._facts import NATIVE_RULE, Fact
from drafterlint.checks._options import Option
from drafterlint.checks.base import REGISTRY, RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity
from drafterlint.registry import canonical_publisher
from drafterlint.registry.model import same_publisher

RULE = Rule(
    code="DL503",
    name="third-party-native-head",
    severity=Severity.ERROR,
    summary="a native head claimed inside another publisher's checkpoint has no approval of its own",
    needs=frozenset({RULES, REGISTRY}),
)
ADVICE = "approve the head in its own right, or remove the claim"

OPTIONS = (
    # The sentence of §2.9.4 that makes a head native only when the model's own publisher ships
    # it, in order of preference: said outright ("… by anyone other than the canonical model's
    # publisher … is not native"), or as the definition of a native head ("a head that the model
    # publisher ships inside an approved checkpoint is approved with that checkpoint"). Searched
    # case-insensitively in §2.9.4's text.
    Option(RULE.code, "native_rule", {"type": "array", "items": {"type": "string", "minLength": 1, "format": "regex"}},
           default=[
               r"\bother\s+than\s+the\s+(?:canonical\s+)?model[’']?s?\s+(?:own\s+)?publisher\b[^.]*?\bnot\s+native\b",
               r"\bthird[-\s]party\b[^.]*?\bis\s+not\s+native\b",
               r"\bhead\b[^.]*?\bthe\s+model(?:[’']s)?\s+publisher\s+ships\b[^.]*?\bapproved\s+with\b",
           ],
           description="regular expressions, in order of preference, for the sentence of §2.9.4 that makes a head "
                       "native only when the model's own publisher ships it",
           fills=NATIVE_RULE),
)

_CAT = "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml"
_RULES = {"rules:endpoints_rules.md": (
    "# Rules\n\n#### 2.9.4 Speculative Decoding\n\n**Native heads.** A head that the model "
    "publisher ships inside an approved checkpoint is approved with that checkpoint. A head "
    "added by anyone other than the model's publisher is not native.\n")}


def _cat(repository: str, revision: str, approved: str = "") -> str:
    return (
        "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
        f"    - model: m1\n      repository: {repository}\n      revision: {revision}\n"
        + (f"      approved_cohort: {approved}\n" if approved else "")
        + "      method: mtp\n      bundled: true\n"
        "  approved_checkpoints:\n    m1:\n"
        "      - repository: orga/m1\n        revision: 2222222222222222222222222222222222222222\n"
        "      - repository: orgq/m1-fp4\n        revision: 5555555555555555555555555555555555555555\n"
    )


EXAMPLES = (
    Example("the publisher's own checkpoint", {**_RULES, _CAT: _cat("orga/m1", "2" * 40)}),
    Example(
        "a third party's checkpoint, no approval of its own",
        {**_RULES, _CAT: _cat("orgq/m1-fp4", "5" * 40)},
        expect=((_CAT, 6, 19),),
    ),
)


def _rule_stated(ctx: Context, rule: Fact) -> str:
    """Where the rules make a head native only in its publisher's checkpoint, for the message."""
    return f"{_spec_label(ctx)} ({rule.where(ctx)}) counts a head as native only in its model publisher's checkpoint"


def _spec_label(ctx: Context) -> str:
    spec = ctx.facts.spec_section
    return f"§{spec.number}" if spec is not None and spec.number else "the speculative-decoding section"


def check(ctx: Context) -> Iterator[Finding]:
    reg = ctx.loaded_registry
    rule = ctx.facts.native_rule
    for policy in reg.policies.values():
        for head in policy.heads:
            if not head.bundled or head.publisher is None:
                continue
            canonical = canonical_publisher(ctx.config, policy, head.model)
            if canonical is None or same_publisher(canonical, head.publisher):
                continue
            if rule is None:  # this version of the rules defines no native heads
                ctx.skip(RULE.code, f"{_spec_label(ctx)} of this version states no native-head rule"
                         if ctx.facts.spec_section is not None else
                         "no speculative-decoding section to read the native-head rule from (DL101, DL702)")
                return
            stated = _rule_stated(ctx, rule)
            key = f"{policy.folder}:{'/'.join(map(str, head.identity))}"
            if head.cohort is None:
                yield RULE.at(
                    head.field_location("repository"),
                    f"{head.describe()} is claimed native (`bundled: true`), but "
                    f"{head.repository} is published by {head.publisher}, not by {canonical}, "
                    f"the publisher of {head.model}, and {stated}: it needs its own approval; "
                    "give it an approved_cohort and drop `bundled: true`",
                    related=[rule.location],
                    key=key,
                )
            else:
                yield RULE.at(
                    head.field_location("repository"),
                    f"{head.describe()} is claimed native (`bundled: true`), but "
                    f"{head.repository} is published by {head.publisher}, not by {canonical}, "
                    f"the publisher of {head.model}, and {stated}. It is approved on its own "
                    f"(approved_cohort {head.approved_cohort}); drop `bundled: true` so that "
                    "nothing treats it as approved with its checkpoint",
                    severity=Severity.WARNING,
                    related=[rule.location],
                    key=key,
                )
