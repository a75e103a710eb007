"""When each approved head becomes usable: a fact about the registry, computed by the engine
before any check runs (``ctx.eligibility``) from the registry and the lead time the rules
state (``ctx.facts``). DL802 reports the heads that become usable soon; the audit draws every
head on its cohort timeline. Both read this, so neither depends on the other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drafterlint.checks._options import OptionSlot
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks._facts import RulesFacts
    from drafterlint.cohorts import Cohort
    from drafterlint.config import Config
    from drafterlint.registry.model import Head, Policy, Registry

# How many publications ahead to look: an option of the rule that reports upcoming heads.
HORIZON = OptionSlot[int]("horizon")


@dataclass(frozen=True, eq=False, repr=False)
class Eligible:
    """A head (as the newest policy listing it has it) and its first eligible cohort."""

    head: "Head"
    policy: "Policy"
    approved: "Cohort"
    usable: "Cohort"  # approved + the lead time


@dataclass(frozen=True, eq=False, repr=False)
class Eligibility:
    """When each approved head becomes usable, as far ahead as the audit looks."""

    heads: tuple[Eligible, ...] = ()  # every head with a known approval cohort and lead time
    horizon: int = 4  # publications ahead the audit looks (HORIZON)


def horizon(config: "Config") -> int:
    return int(HORIZON.read(config))


def eligibility(registry: "Registry | None", facts: "RulesFacts", config: "Config") -> Eligibility:
    from drafterlint.checks._stated import lead_time
    from drafterlint.registry.model import latest_heads

    heads = []
    for head, policy in latest_heads(registry):
        approved = head.cohort
        if approved is None:
            continue
        lead, _ = lead_time(facts, policy)
        if lead is None:
            continue
        heads.append(Eligible(head, policy, approved, approved + lead))
    return Eligibility(tuple(heads), horizon(config))
