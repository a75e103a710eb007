"""DL602 missing-check — §2.9.4 requires a check that §9.1 or the policy does not carry.

When §2.9.4 defines an approved-drafter list and an approval lead time, each needs a row in the
§9.1 check table (“Approved drafter”, “Drafter approval lead time”) and a check in the policy
(``approved-spec-decode-head``: a ``spec_decode_head`` check with ``operation: membership``;
``spec-decode-head-approval-lead-time``: ``operation: approval_age``). Rows are recognised by
name, or by what they say; policy checks by name, or by kind and operation. The finding says
which row or check is missing; a §9.1 without a check table is reported too. A version of the
rules whose §2.9.4 defines neither (a placeholder, or one drafter the benchmark designates)
requires no check: one skipped line says so. A check file of the policy that cannot be read is
DL702's; no check is called missing on its account.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from drafterlint.checks._examples import POINT, RULES_MD, point_checks, rules_doc
from drafterlint.checks._facts import section_label, unstated_requirement
from drafterlint.checks._mdlist import reference_policy
from drafterlint.checks.base import Context, Example, Rule
from drafterlint.findings import Finding, Location, Severity, quoted

if TYPE_CHECKING:
    from drafterlint.registry.model import Policy

RULE = Rule(
    code="DL602",
    name="missing-check",
    severity=Severity.ERROR,
    summary="§2.9.4 requires a check that §9.1 or the policy does not carry",
)
ADVICE = "add the required check to §9.1 and the policy, or drop the requirement"

_NO_LEAD_ROW = rules_doc().rsplit("| **Drafter approval lead time**", 1)[0]
_NO_LEAD_CHECK = point_checks().split("  spec-decode-head-approval-lead-time:")[0]

EXAMPLES = (
    Example("rows and checks present", {RULES_MD: rules_doc(), POINT: point_checks()}),
    Example("§9.1 lost its lead-time row", {RULES_MD: _NO_LEAD_ROW, POINT: point_checks()},
            expect=((RULES_MD, 18, 1),)),
    Example("the policy lost its lead-time check", {RULES_MD: rules_doc(), POINT: _NO_LEAD_CHECK},
            expect=((POINT, 5, 1),)),
)

# (what §2.9.4 defines, §9.1 row name, how a row says it, policy check name, operation)
_REQUIRED = (
    ("list", "Approved drafter", r"approved[-\s]drafter\s+list|approved\s+list",
     "approved-spec-decode-head", "membership"),
    ("lead", "Drafter approval lead time", r"approved\s+at\s+least\s+\S+\s+cohorts?",
     "spec-decode-head-approval-lead-time", "approval_age"),
)
_CHECK_FILES = ("point_checks.yaml", "curve_checks.yaml", "submission_checks.yaml",
                "system_checks.yaml")


def _policy_checks(policy: "Policy") -> dict:
    out: dict = {}
    for name in _CHECK_FILES:
        doc = policy.docs.get(name)
        checks = doc.get(("checks",)) if doc is not None else None
        if isinstance(checks, dict):
            for k, v in checks.items():
                out.setdefault(k, v if isinstance(v, dict) else {})
    return out


def _checks_location(policy: "Policy") -> Location:
    doc = policy.docs.get("point_checks.yaml")
    if doc is not None and doc.position(("checks",)) is not None:
        return doc.location(("checks",))
    return policy.location()


def check(ctx: Context) -> Iterator[Finding]:
    facts = ctx.facts
    defines = facts.list_defined or facts.spec_lead
    for m in facts.missing:
        if m.name == "check_table" and defines is not None:
            spec = facts.spec_section
            yield RULE.at(
                m.location,
                f"{section_label(m.section)} has no check table, but "
                f"{section_label(spec) if spec else '§2.9.4'} ({defines.where(ctx)}) defines "
                f"{'an approved-drafter list' if facts.list_defined else 'an approval lead time'}: "
                "expected a table with columns “Check | Validation | Failure Action”",
                key=f"missing:{m.name}",
            )
    spec = facts.spec_section
    if spec is None:
        return  # DL101 says the section is missing
    label = f"§{spec.number}" if spec.number else "the speculative-decoding section"
    requires = {
        "list": facts.list_defined.location if facts.list_defined else None,
        "lead": facts.spec_lead.location if facts.spec_lead else None,
    }
    if requires["list"] is None and requires["lead"] is None:
        ctx.skip(RULE.code, unstated_requirement(facts) or f"{label} requires no check")
        return  # this version of the rules requires neither check
    chk = facts.checks_section
    policy = reference_policy(ctx)
    if policy is not None and policy.unreadable.intersection(_CHECK_FILES):
        policy = None  # the check may be in the file that could not be read (DL702 says so)
    pchecks = _policy_checks(policy) if policy is not None else {}
    for what, row_name, says, check_name, operation in _REQUIRED:
        source = requires[what]
        if source is None:
            continue
        if chk is not None and facts.check_rows:
            found = facts.row(row_name) or next(
                (r for r in facts.check_rows
                 if re.search(says, r.validation, re.I) and "drafter" in r.validation.lower()),
                None,
            )
            if found is None:
                yield RULE.at(
                    facts.check_table or facts.check_rows[0].location,
                    f"{label} ({source.path}:{ctx.said_line(source)}) defines "
                    f"{'an approved drafter list' if what == 'list' else 'an approval lead time'}, "
                    f"but the §{chk.number} check table has no “{row_name}” row; add it",
                    related=[source],
                    key=f"row:{row_name}",
                )
        if policy is not None:
            present = check_name in pchecks or any(
                c.get("kind") == "spec_decode_head" and c.get("operation") == operation
                for c in pchecks.values()
            )
            if not present:
                yield RULE.at(
                    _checks_location(policy),
                    f"{label} ({source.path}:{ctx.said_line(source)}) requires the "
                    f"{'approved-drafter membership' if what == 'list' else 'approval lead-time'} "
                    f"check, but policy {policy.folder} has no {quoted(check_name)} check "
                    f"(kind spec_decode_head, operation {operation}); add it",
                    related=[source],
                    key=f"check:{policy.folder}:{check_name}",
                )
