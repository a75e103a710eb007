"""Every rule listed in `checks._RULES`, held by mypy to `base.RuleModule` (its RULE, EXAMPLES
and `check(ctx)` typed): no module imports this one, which is read by mypy only, so that the
registry can import each rule on first use. tests/test_rule_registry.py fails when the two lists
differ."""

from __future__ import annotations

from drafterlint.checks import (
    approval_rewritten,
    backdated_approval,
    bad_cohort,
    broken_cross_doc_fragment,
    broken_cross_repo_link,
    broken_file_link,
    broken_fragment,
    duplicate_entry,
    duplicate_key,
    duplicate_section_number,
    duplicated_list,
    lead_time,
    list_drift,
    missing_check,
    missing_list_link,
    missing_revision,
    model_list_lead_time,
    native_claim_drift,
    native_head_absent,
    native_head_unclaimed,
    parameter_mismatch,
    policy_version,
    schema,
    section_missing,
    section_moved,
    section_ref_mismatch,
    stale_tentative,
    third_party_native_head,
    toc_incomplete,
    unknown_head_method,
    unreadable,
    unrecognized_native_head,
    unverifiable_link,
    upcoming_eligibility,
    weakened_check,
)
from drafterlint.checks.base import RuleModule

RULES: tuple[RuleModule, ...] = (
    section_missing,  # DL101
    section_moved,  # DL102
    duplicate_section_number,  # DL103
    toc_incomplete,  # DL104
    broken_fragment,  # DL201
    broken_file_link,  # DL202
    broken_cross_doc_fragment,  # DL203
    broken_cross_repo_link,  # DL204
    section_ref_mismatch,  # DL205
    unverifiable_link,  # DL206
    duplicated_list,  # DL301
    list_drift,  # DL302
    duplicate_entry,  # DL303
    duplicate_key,  # DL304
    approval_rewritten,  # DL305
    lead_time,  # DL401
    model_list_lead_time,  # DL402
    backdated_approval,  # DL403
    bad_cohort,  # DL404
    policy_version,  # DL405
    unrecognized_native_head,  # DL501
    unknown_head_method,  # DL502
    third_party_native_head,  # DL503
    native_claim_drift,  # DL504
    native_head_absent,  # DL505
    native_head_unclaimed,  # DL506
    parameter_mismatch,  # DL601
    missing_check,  # DL602
    missing_list_link,  # DL603
    schema,  # DL701
    unreadable,  # DL702
    stale_tentative,  # DL801
    upcoming_eligibility,  # DL802
    missing_revision,  # DL803
    weakened_check,  # DL901
)
