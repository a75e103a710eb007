"""DL505 native-head-absent — (online) the checkpoint itself shows no head of the claimed method.

A head marked ``bundled: true`` in a catalog, or a sentence of the Markdown list (“the approved
checkpoints include their native MTP heads”), says the checkpoint ships a native head. With
``drafterlint audit --online`` (never in ``check``) each such checkpoint's ``config.json`` and
weight index (``model.safetensors.index.json``) are fetched from the model hub at the pinned
revision — a full 40-hex commit; a branch, tag or short hash is not fetched ("revision not
pinned") — and held against the *evidence table*. Reported, at the head's ``bundled`` line (or
at the list's sentence when only the list claims it), when the config declares no head
(``num_nextn_predict_layers: 0``, or none of the keys) or the weights carry none of its tensors
(a quantized re-publication that dropped the MTP layers: no tensor past layer
``num_hidden_layers - 1``). A repository without a weight index (one ``model.safetensors``) is
judged by its config alone, and the message says so.

A method the table has no evidence for (``dspark`` by default: no public convention yet) is an
info, “cannot verify”, never an error. A hub that does not answer definitely — a timeout, 5xx
or 429 after the retries, 401/403 (a gated or private repository), a missing ``config.json`` —
is never DL505: the audit lists the checkpoint under “could not check” with the reason (a skip
entry, not a finding, so that a flaky hub does not open and close findings from week to week).
Files are cached for a day; the hub URL is ``--hub-api-url``.

Options: ``rule_options.DL505`` in ``.drafterlint.yaml`` (DL506 reads the same table); the
defaults are printed below.

``config_keys``: a positive value of any of them (in ``config.json`` or a nested configuration
listed in ``nested_configs``) declares the head. ``tensor_patterns``: regular expressions
searched in each tensor name of the weight index; one with a ``layer`` group counts only when
that number is ≥ ``num_hidden_layers``. These defaults cover DeepSeek V3/R1 and GLM-4.5
(``num_nextn_predict_layers``, ``model.layers.<N>.`` past the last layer) and Qwen3-Next and
Qwen3.5/3.6 (``mtp_num_hidden_layers`` in ``text_config``, ``mtp.`` tensors). To extend it, add
a method or keys: the configuration is merged key by key with the defaults, so
``evidence: {dspark: {config_keys: [dspark_block_size]}}`` keeps ``mtp`` as it is; a list given
replaces the default list.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._claims import native_claims
from drafterlint.checks._examples import MTP_CONFIG, NATIVE_CAT, hub_files, native_catalog
from drafterlint.checks._native import ABSENT, EVIDENCE, NESTED_CONFIGS, NO_CONVENTION, UNKNOWN
from drafterlint.checks._options import Option
from drafterlint.checks.base import ONLINE, REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL505",
    name="native-head-absent",
    severity=Severity.ERROR,
    summary="the checkpoint's config and weights show no native head of the claimed method (audit --online)",
    needs=frozenset({REGISTRY, ONLINE}),
)
ADVICE = "correct the native-head claim, or pin a checkpoint revision that ships the head"

_NAMES = {"type": "array", "items": {"type": "string", "minLength": 1}}
_PATTERNS = {"type": "array", "items": {"type": "string", "minLength": 1, "format": "regex"}}

# Per head method: the config.json keys whose positive value declares the head, and regular
# expressions (searched in each tensor name of model.safetensors.index.json) that show its
# weights; a `layer` group counts only at an index >= num_hidden_layers. A method with neither
# (or not listed) cannot be verified: an info, never an error.
TABLE: Option[dict[str, dict[str, list[str]]]] = Option(
    RULE.code, "evidence",
    {
        "type": "object",
        "propertyNames": {"pattern": "^[a-z0-9_]+$"},
        "additionalProperties": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "config_keys": {"description": "config.json keys whose positive value declares the head", **_NAMES},
                "tensor_patterns": {"description": "regular expressions searched in each tensor name; a `layer` group "
                                                   "counts only at an index >= num_hidden_layers", **_PATTERNS},
            },
        },
    },
    default={
        "mtp": {
            # DeepSeek V3/R1, GLM-4.5; Qwen3-Next, Qwen3.5/3.6.
            "config_keys": ["num_nextn_predict_layers", "mtp_num_hidden_layers"],
            "tensor_patterns": [
                r"^(?:model\.)?(?:language_model\.)?mtp\.",
                r"^(?:model\.)?(?:language_model\.)?layers\.(?P<layer>\d+)\.",
            ],
        },
        "dspark": {"config_keys": [], "tensor_patterns": []},  # no public convention yet
    },
    description="head method -> the config.json keys whose positive value declares the head, and regular "
                "expressions matched against the weight index's tensor names",
    fills=EVIDENCE)
OPTIONS = (
    TABLE,
    # Nested configurations searched for the keys and num_hidden_layers as well.
    Option(RULE.code, "nested_configs", _NAMES, default=["text_config"],
           description="nested configurations of config.json searched for the keys and num_hidden_layers too",
           fills=NESTED_CONFIGS),
)

EXAMPLES = (
    Example("the checkpoint declares the MTP layer and carries its weights",
            {NATIVE_CAT: native_catalog("orga/m1", "mtp"), **hub_files("orga/m1", MTP_CONFIG, 5)}),
    Example("the config says num_nextn_predict_layers: 0",
            {NATIVE_CAT: native_catalog("orga/m1", "mtp"), **hub_files("orga/m1", {**MTP_CONFIG, "num_nextn_predict_layers": 0}, 4)},
            expect=((NATIVE_CAT, 10, 16),)),
    Example("a quantized copy kept the config but dropped the MTP layer's tensors",
            {NATIVE_CAT: native_catalog("orgq/m1-int4", "mtp"), **hub_files("orgq/m1-int4", MTP_CONFIG, 4)},
            expect=((NATIVE_CAT, 10, 16),)),
    Example("a DSpark head cannot be verified with the default table (info)",
            {NATIVE_CAT: native_catalog("orga/m1", "dspark"), **hub_files("orga/m1", MTP_CONFIG, 5)},
            expect=((NATIVE_CAT, 10, 16),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    for claim in native_claims(ctx):
        v = ctx.native.verdict(claim.repository, claim.revision, claim.method)
        what = f"{v.ident} ({claim.model or '?'})"
        if v.state == UNKNOWN:
            ctx.skip(RULE.code, f"could not verify on the model hub that {what} ships its native "
                                f"{claim.method} head: {v.found}", need=ONLINE)
        elif v.state == NO_CONVENTION:
            yield RULE.at(
                claim.location,
                f"cannot verify that {what} ships a native {claim.method} head: the evidence "
                f"table (rule_options.{RULE.code}.evidence) has no config keys or tensor patterns "
                f"for {claim.method}; add them once the method has a public convention",
                related=claim.related, key=f"unverifiable:{claim.method}:{v.ident}",
                severity=Severity.INFO,
            )
        elif v.state == ABSENT:
            yield RULE.at(
                claim.location,
                f"{claim.source} says {what} ships a native {claim.method} head, but the "
                f"checkpoint shows none: looked for {v.looked_for}; found {v.found}. Correct the "
                "claim, or pin a revision of a checkpoint that ships the head",
                related=claim.related, key=f"absent:{claim.method}:{v.ident}",
            )
