"""DL503 third-party-native-head — a head claimed native inside another publisher's checkpoint.

Under the rules (§2.9.4, *Native heads*) only a head that the canonical model's publisher ships
inside an approved checkpoint is native, approved with that checkpoint. A head added, replaced or
retrained by anyone else — including the head inside a third-party quantized checkpoint — is not
native and needs an approved-list entry of its own.

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

from drafterlint.checks.base import REGISTRY, Example, Rule
from drafterlint.findings import Severity
from drafterlint.registry import canonical_publisher
from drafterlint.registry.model import same_publisher

RULE = Rule(
    code="DL503",
    name="third-party-native-head",
    severity=Severity.ERROR,
    summary="a native head claimed inside another publisher's checkpoint has no approval of its own",
    needs=frozenset({REGISTRY}),
)

_CAT = "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml"


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
    Example("the publisher's own checkpoint", {_CAT: _cat("orga/m1", "2" * 40)}),
    Example(
        "a third party's checkpoint, no approval of its own",
        {_CAT: _cat("orgq/m1-fp4", "5" * 40)},
        expect=((_CAT, 6, 19),),
    ),
)


def check(ctx):
    reg = ctx.registry
    if reg is None:
        return
    for policy in reg.policies.values():
        for head in policy.heads:
            if not head.bundled or head.publisher is None:
                continue
            canonical = canonical_publisher(ctx, policy, head.model)
            if canonical is None or same_publisher(canonical, head.publisher):
                continue
            key = f"{policy.folder}:{'/'.join(map(str, head.identity))}"
            if head.cohort is None:
                yield RULE.at(
                    head.field_location("repository"),
                    f"{head.describe()} is claimed native (`bundled: true`), but "
                    f"{head.repository} is published by {head.publisher}, not by {canonical}, "
                    f"the publisher of {head.model}: a head in a third-party checkpoint is not "
                    "native and needs its own approval; give it an approved_cohort and drop "
                    "`bundled: true`",
                    key=key,
                )
            else:
                yield RULE.at(
                    head.field_location("repository"),
                    f"{head.describe()} is claimed native (`bundled: true`), but "
                    f"{head.repository} is published by {head.publisher}, not by {canonical}, "
                    f"the publisher of {head.model}: the rules do not count it as native. It is "
                    f"approved on its own (approved_cohort {head.approved_cohort}); drop "
                    "`bundled: true` so that nothing treats it as approved with its checkpoint",
                    severity=Severity.WARNING,
                    key=key,
                )
