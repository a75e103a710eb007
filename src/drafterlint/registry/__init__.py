"""The approved-drafter registry: safe YAML with positions, the schema, the model.

Kept light on purpose (``drafterlint.config`` imports ``registry.yamlload``): the model and the
loader are imported when called.

The small look-ups below are where the rules' numbers and vocabularies come from. Each looks
first at what the rules text says (``ctx.facts``, extracted before the checks run) and then at
the policy or the configuration; none hard-codes a number the rules state.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from drafterlint.checks.base import Context
    from drafterlint.cohorts import Calendar
    from drafterlint.config import Config
    from drafterlint.findings import Location
    from drafterlint.registry.model import Policy, Registry
    from drafterlint.sources import RepoView


def load_registry(repo: "RepoView", config: "Config", calendar: "Calendar | None" = None) -> "Registry":
    from drafterlint.cohorts import DEFAULT_CALENDAR
    from drafterlint.registry.load import load_registry as _load

    return _load(repo, config, calendar or DEFAULT_CALENDAR)


def _int_param(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def lead_time(ctx: "Context", policy: "Policy | None" = None) -> "tuple[int | None, Location | None]":
    """The approval lead time in cohorts, and where it is stated.

    First what the rules text says (§2.9.4, else the §9.1 table), then the policy's
    ``minimum_cohorts``; (None, None) when neither is known, and the rules that need it stay
    silent.
    """
    stated = ctx.facts.lead
    if stated is not None and _int_param(stated.value) is not None:
        return _int_param(stated.value), stated.location
    if policy is not None:
        param = policy.params.get("lead_cohorts")
        if param is not None:
            value = _int_param(param.value)
            if value is not None:
                return value, param.location
    return None, None


def head_methods(ctx: "Context", configured_kinds: "Mapping[str, object]") -> list[str]:
    """The drafter kinds a head's method may name: those the rules name, then
    `configured_kinds` (method id -> its words; None drops the kind), then
    ``registry.head_methods``.

    The rules name kinds by example ("an MTP, DSpark, or EAGLE-style head … or analogous
    module"), so their list extends the configured one rather than replacing it.
    """
    kinds = list(ctx.facts.head_methods)
    configured = [m for m, words in configured_kinds.items() if words is not None]
    for m in [*configured, *(ctx.config.registry.get("head_methods") or [])]:
        if str(m) not in kinds:
            kinds.append(str(m))
    return kinds


def method_family(method: str) -> str:
    """`eagle3`, `EAGLE-2` and `eagle_v2` are all EAGLE-style: compare kinds without versions."""
    return re.sub(r"[-_]?v?\d+$", "", method.strip().casefold())


def canonical_publisher(ctx: "Context", policy: "Policy", model: str | None) -> str | None:
    """The organisation that publishes the model's canonical checkpoint.

    Configured (``registry.canonical_publishers``), else the publisher of the model's first
    listed approved checkpoint in that policy; None when neither says.
    """
    if model is None:
        return None
    configured = (ctx.config.registry.get("canonical_publishers") or {}).get(model)
    if configured:
        return str(configured)
    for cp in policy.checkpoints_of(model):
        if cp.publisher:
            return cp.publisher
    return None
