"""The rules: one module each, listed in `_RULES`.

The list is explicit so that a rule cannot go missing without notice: every name in it must be a
module defining RULE and check(ctx) (anything else is an error, not a rule skipped), and
tests/test_rule_registry.py fails on a module under checks/ that defines a rule and is not listed.
Adding a rule means adding its module and its line here.

The rules are read typed, as `base.RuleModule`s, through `base.all_rules()` and
`base.rule_by_code()` (checks/_conformance.py holds every listed module to that Protocol).
`modules()` here is the untyped list beneath them, for the two readers that sit below the
Context a typed rule takes and so cannot import `base`: the configuration (which codes and
names exist) and `_options` (every rule's OPTIONS)."""

from __future__ import annotations

import importlib
from types import ModuleType

# Imported on first use, not with the package: a module that needs only `base` or a helper
# (the fixer, the audit, the configuration) does not pay for every rule.
_RULES = (
    "section_missing",  # DL101
    "section_moved",  # DL102
    "duplicate_section_number",  # DL103
    "toc_incomplete",  # DL104
    "broken_fragment",  # DL201
    "broken_file_link",  # DL202
    "broken_cross_doc_fragment",  # DL203
    "broken_cross_repo_link",  # DL204
    "section_ref_mismatch",  # DL205
    "unverifiable_link",  # DL206
    "duplicated_list",  # DL301
    "list_drift",  # DL302
    "duplicate_entry",  # DL303
    "duplicate_key",  # DL304
    "approval_rewritten",  # DL305
    "lead_time",  # DL401
    "model_list_lead_time",  # DL402
    "backdated_approval",  # DL403
    "bad_cohort",  # DL404
    "policy_version",  # DL405
    "unrecognized_native_head",  # DL501
    "unknown_head_method",  # DL502
    "third_party_native_head",  # DL503
    "native_claim_drift",  # DL504
    "native_head_absent",  # DL505
    "native_head_unclaimed",  # DL506
    "parameter_mismatch",  # DL601
    "missing_check",  # DL602
    "missing_list_link",  # DL603
    "schema",  # DL701
    "unreadable",  # DL702
    "stale_tentative",  # DL801
    "upcoming_eligibility",  # DL802
    "missing_revision",  # DL803
    "weakened_check",  # DL901
)
_cache: list[ModuleType] | None = None


def _load(name: str) -> ModuleType:
    mod = importlib.import_module(f"{__name__}.{name}")
    if not hasattr(mod, "RULE") or not callable(getattr(mod, "check", None)):
        raise TypeError(f"drafterlint.checks.{name} is registered as a rule but lacks RULE or check(ctx)")
    return mod


def module(name: str) -> ModuleType:
    """The rule module `name` of `_RULES`, loaded alone: for code outside the checks that treats
    one rule's findings apart (unchecked.py: the unreadable files), so that it restates no code
    and a warm run loads no other rule."""
    if name not in _RULES:
        raise KeyError(f"{name} is not a module of checks._RULES")
    return _load(name)


def modules() -> list[ModuleType]:
    """Every rule module, ordered by code (typed: base.all_rules)."""
    global _cache
    if _cache is None:
        _cache = sorted((_load(name) for name in _RULES), key=lambda m: m.RULE.code)
    return _cache

