"""The rules' numbers and vocabularies as the checks read them: each looks first at what the
rules text says (``ctx.facts``, extracted before the checks run) and then at the policy or the
configuration; none hard-codes a number the rules state.

Here, not in drafterlint.registry: they join the facts of the rules text (a checks concern) to
the registry, which knows nothing of the checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from drafterlint.checks._facts import RulesFacts
    from drafterlint.config import Config
    from drafterlint.findings import Location
    from drafterlint.registry.model import Policy


def _int_param(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def lead_time(facts: "RulesFacts", policy: "Policy | None" = None) -> "tuple[int | None, Location | None]":
    """The approval lead time in cohorts, and where it is stated.

    First what the rules text says (§2.9.4, else the §9.1 table), then the policy's
    ``minimum_cohorts``; (None, None) when neither is known, and the rules that need it stay
    silent. A version of the rules whose §2.9.4 states no lead time requires none: the policy's
    number is then not taken for the rules' (the checks that need it skip, saying so); it is read
    only where no rules text was read (a run on the reference repository alone).
    """
    stated = facts.lead
    if stated is not None and _int_param(stated.value) is not None:
        return _int_param(stated.value), stated.location
    if facts.spec_section is not None:
        return None, None
    if policy is not None:
        param = policy.params.get("lead_cohorts")
        if param is not None:
            value = _int_param(param.value)
            if value is not None:
                return value, param.location
    return None, None


def head_methods(facts: "RulesFacts", config: "Config", configured_kinds: "Mapping[str, object]") -> list[str]:
    """The drafter kinds a head's method may name: those the rules name, then
    `configured_kinds` (method id -> its words; None drops the kind), then
    ``registry.head_methods``.

    The rules name kinds by example ("an MTP, DSpark, or EAGLE-style head … or analogous
    module"), so their list extends the configured one rather than replacing it.
    """
    kinds = list(facts.head_methods)
    configured = [m for m, words in configured_kinds.items() if words is not None]
    for m in [*configured, *(config.registry.get("head_methods") or [])]:
        if str(m) not in kinds:
            kinds.append(str(m))
    return kinds
