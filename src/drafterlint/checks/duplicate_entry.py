"""DL303 duplicate-entry — one head or checkpoint appears twice in one catalog.

A head is identified by its model, repository and revision; a checkpoint by its model,
repository and revision. Listing one twice is at best noise and at worst hides an edit that
was meant for the other copy (a changed approved_cohort, a changed method). The finding is at
the second entry, and points back at the first.
"""

from __future__ import annotations

from drafterlint.checks.base import REGISTRY, Example, Rule
from drafterlint.findings import Severity

RULE = Rule(
    code="DL303",
    name="duplicate-entry",
    severity=Severity.ERROR,
    summary="one head or checkpoint appears twice in one registry file",
    needs=frozenset({REGISTRY}),
)

_CAT = "registry:src/inference_endpoint/validation/policies/2026-10-C1/catalog.yaml"
_HEAD = """\
    - model: m1
      repository: orga/m1-eagle
      revision: 1111111111111111111111111111111111111111
      approved_cohort: 2026-09-C1
      method: eagle3
"""
_TAIL = """\
  approved_checkpoints:
    m1:
      - repository: orgb/m1
        revision: 2222222222222222222222222222222222222222
"""
EXAMPLES = (
    Example(
        "each head and checkpoint once",
        {_CAT: "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
         + _HEAD + _TAIL},
    ),
    Example(
        "the same head twice",
        {_CAT: "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
         + _HEAD + _HEAD + _TAIL},
        expect=((_CAT, 10, 7),),
    ),
    Example(
        "the same checkpoint twice",
        {_CAT: "version: 2026-10-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
         + _HEAD + _TAIL + "      - repository: orgb/m1\n"
         "        revision: 2222222222222222222222222222222222222222\n"},
        expect=((_CAT, 14, 9),),
    ),
)


def check(ctx):
    reg = ctx.registry
    if reg is None:
        return
    for policy in reg.policies.values():
        for kind, items in (("head", policy.heads), ("checkpoint", policy.checkpoints)):
            first: dict = {}
            for item in items:
                ident = item.identity
                if None in ident[1:]:
                    continue  # incomplete entries are DL701's business
                if ident in first:
                    prev = first[ident]
                    yield RULE.at(
                        item.location,
                        f"{kind} {ident[0]}: {ident[1]}@{ident[2]} is listed twice "
                        f"(first at line {prev.location.line}); remove one copy",
                        related=(prev.location,),
                        key=f"{policy.folder}:{kind}:{'/'.join(map(str, ident))}",
                    )
                else:
                    first[ident] = item
