"""The configuration's defaults and how a file's mapping is laid over them: the standard library
only, so that the command line's front (drafterlint.front) derives a run's key without importing
drafterlint.config (its dataclass, the rule codes, the regular-expression budget)."""

from __future__ import annotations

import copy
from typing import Any

DEFAULTS: dict[str, Any] = {
    "rules": {
        "path": None,
        "github": "mlcommons/endpoints_policies",
        "default_branch": "main",
        # The Markdown files whose links are checked: names (which must exist) or glob patterns
        # (which take only files GitHub renders as Markdown, whatever the case of their names).
        "documents": ["endpoints_rules.md", "endpoints_submission_rules.md", "**/*"],
        "main": "endpoints_rules.md",
        "companion": "endpoints_submission_rules.md",
        "sections": {
            "model-equivalence": {"number": "2.9", "title": "Model Equivalence Rules"},
            "speculative-decoding": {"number": "2.9.4", "title": "Speculative Decoding"},
            "supported-models": {"number": "3.2", "title": "Supported Models"},
            "automated-checks": {"number": "9.1", "title": "Automated Checks"},
        },
        "companion_sections": {
            "basics": {"number": "1", "title": "Basics"},
            "publication-calendar": {"number": "4.2", "title": "Publication"},
            "seed-adoption": {"number": "4.6", "title": "Seed Rotation"},
        },
    },
    "registry": {
        "path": None,
        "github": "mlcommons/endpoints",
        "default_branch": "main",
        "policies": "src/inference_endpoint/validation/policies",
        "markdown_list": "examples/10_Agentic_Inference/README.md",
        "markdown_list_section": "Approved Checkpoints and Speculative-Decoding Heads",
        # Markdown files of the reference repository whose links are checked (none by default:
        # its README links into parts of the repository a partial checkout may not have).
        "documents": [],
        # More method ids a head may take, beside rule_options.DL502.kinds (DL502).
        "head_methods": [],
        # Model key -> the organisation that publishes its canonical checkpoint (DL503).
        "canonical_publishers": {},
        # Other spellings of a model name -> registry model key (DL302, DL504).
        "model_aliases": {},
        "extra_lists": [],
    },
    # Other repositories links may point into; links into ones not configured are DL206 (info).
    # Options of individual rules, by code: what the file sets. Their defaults are the rules'
    # declarations (each rule module's OPTIONS), merged in when an option is read
    # (checks/_options.Option.read), so a default is stated once and loading a configuration
    # imports no rule.
    "rule_options": {},
    "select": [],
    "ignore": [],
    "severity": {},
    "fail_on": "error",
    "cache_dir": None,
    # Findings recorded by `drafterlint baseline`; read by `check` when the file exists.
    # Relative to the configuration file's folder (without one: the repository under change).
    "baseline": ".drafterlint-baseline.json",
}


def deep_merge(base: dict, over: dict) -> dict:
    """`over` laid on `base`: mappings merged key by key, anything else replaced; both copied."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out
