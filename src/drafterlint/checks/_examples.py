"""Small repositories the rules' documented examples share (`EXAMPLES`, run by the tests and
shown by `drafterlint explain`): kept here so that no rule imports another rule."""

from __future__ import annotations

import json

# -- the Markdown copy of the list and the catalog it mirrors (DL302, DL504) ----------------

A = "a1" * 20
B = "b2" * 20
CAT = "registry:src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"
README = "registry:examples/10_Agentic_Inference/README.md"


def catalog(*checkpoints: str, heads: str = "") -> str:
    cps = "".join(f"      - repository: orga/m1\n        revision: {r}\n" for r in checkpoints)
    return (
        "version: 2026-11-C0\nrevision: 1\ncatalogs:\n"
        "  approved_spec_decode_heads:\n" + (heads or "    []\n")
        + "  approved_checkpoints:\n    model-one:\n" + cps
        + "enrollment:\n  models: [model-one]\n"
    )


def readme(*checkpoints: str, title: str = "Model One", extra: str = "") -> str:
    bullets = "".join(
        f"- [orga/m1](https://huggingface.co/orga/m1/tree/{r}) (`{r}`)\n" for r in checkpoints
    )
    return (
        "# Example\n\n## Official Submission Rules\n\n"
        "### Approved Checkpoints and Speculative-Decoding Heads\n\n"
        "Only the artifacts below may be used.\n\n"
        f"#### {title}\n\nApproved model checkpoints:\n\n{bullets}{extra}"
    )


# -- the rules' stated lead time and the policy's (DL601, DL602) -----------------------------

RULES_MD = "rules:endpoints_rules.md"
POINT = "registry:src/inference_endpoint/validation/policies/2026-11-C0/point_checks.yaml"


def rules_doc(spec_lead: str = "two", table_lead: str = "two") -> str:
    return (
        "# Rules\n\n## 2. Models\n\n### 2.9 Model Equivalence Rules\n\n"
        "#### 2.9.4 Speculative Decoding\n\n"
        "- A newly approved drafter may first be used in a submission targeting a cohort\n"
        f"  **at least {spec_lead} cohorts after** the cohort in which it was approved.\n"
        "- The approved list is published in the reference repository\n"
        "  ([list](https://github.com/mlcommons/endpoints/tree/main/src/inference_endpoint/validation/policies)).\n\n"
        "## 9. Compliance\n\n### 9.1 Automated Checks\n\n"
        "| Check | Validation | Failure Action |\n|---|---|---|\n"
        "| **Approved drafter** | The drafter is on the approved drafter list. | Reject. |\n"
        f"| **Drafter approval lead time** | Approved at least {table_lead} cohorts before the "
        "target cohort. | Reject. |\n"
    )


def point_checks(minimum: int = 2) -> str:
    return (
        "version: 2026-11-C0\nrevision: 1\nscope: point\nseverity: error\nchecks:\n"
        "  approved-spec-decode-head:\n    kind: spec_decode_head\n    operation: membership\n"
        "  spec-decode-head-approval-lead-time:\n    kind: spec_decode_head\n"
        f"    operation: approval_age\n    minimum_cohorts: {minimum}\n"
    )


# -- a checkpoint said to ship a native head, and the model hub's files of it (DL505, DL506) --

NATIVE_CAT = "registry:src/inference_endpoint/validation/policies/2026-11-C1/catalog.yaml"
NATIVE_REV = "1" * 40
MTP_CONFIG = {"num_hidden_layers": 4, "num_nextn_predict_layers": 1}


def native_catalog(repository: str, method: str) -> str:
    """A catalog with one bundled head of `method` in checkpoint `repository` at NATIVE_REV."""
    return (
        "version: 2026-11-C1\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
        f"    - model: m1\n      repository: {repository}\n      revision: {NATIVE_REV}\n"
        f"      approved_cohort: 2026-09-C1\n      method: {method}\n      bundled: true\n"
        f"  approved_checkpoints:\n    m1:\n      - repository: {repository}\n"
        f"        revision: {NATIVE_REV}\n"
    )


def hub_files(repository: str, config: dict, layers: int) -> dict[str, str]:
    """The two files of `repository` at NATIVE_REV: its config and a weight index of `layers` layers."""
    weights = {f"model.layers.{i}.mlp.down_proj.weight": f"model-{i:05d}.safetensors" for i in range(layers)}
    return {
        f"hub:{repository}@{NATIVE_REV}/config.json": json.dumps(config),
        f"hub:{repository}@{NATIVE_REV}/model.safetensors.index.json": json.dumps({"weight_map": weights}, indent=1),
    }


# -- one head in one policy folder, and the lead time the policy states (DL303-DL305, DL4xx, DL802)

POLICIES = "src/inference_endpoint/validation/policies/"
HEAD_REV = "1" * 40


def catalog_start(version: str) -> str:
    """A catalog's first lines, up to its (non-empty) list of heads."""
    return f"version: {version}\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"


def head_entry(approved: str = "2026-09-C1", *, repository: str = "orga/m1-eagle",
         revision: str = HEAD_REV, method: str = "eagle3") -> str:
    """One head of model m1, as a catalog lists it (an eagle3 drafter unless told otherwise)."""
    return (
        f"    - model: m1\n      repository: {repository}\n"
        f"      revision: {revision}\n"
        f"      approved_cohort: {approved}\n      method: {method}\n"
    )


def head_catalog(version: str, approved: str, *, checkpoints: bool = True) -> str:
    """A catalog of `version` listing one head approved in `approved` (line 8 is its
    approved_cohort) and, unless told not to, an empty map of checkpoints."""
    return catalog_start(version) + head_entry(approved) + ("  approved_checkpoints: {}\n" if checkpoints else "")


def lead_points(version: str, minimum: int = 2) -> str:
    """A point_checks.yaml stating only the heads' lead time."""
    return (
        f"version: {version}\nrevision: 1\nchecks:\n  spec-decode-head-approval-lead-time:\n"
        "    kind: spec_decode_head\n    operation: approval_age\n"
        f"    minimum_cohorts: {minimum}\n"
    )
