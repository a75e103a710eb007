"""The approved-drafter registry: safe YAML with positions, the schema, the model.

Kept light on purpose (``drafterlint.config`` imports ``registry.yamlload``): the model and the
loader are imported when called.

The registry knows nothing of the checks: the look-ups that join it to what the rules text
states live in drafterlint.checks._stated.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drafterlint.cohorts import Calendar
    from drafterlint.config import Config
    from drafterlint.registry.model import Policy, Registry
    from drafterlint.sources import RepoView


def load_registry(repo: "RepoView", config: "Config", calendar: "Calendar | None" = None) -> "Registry":
    from drafterlint.cohorts import DEFAULT_CALENDAR
    from drafterlint.registry.load import load_registry as _load

    return _load(repo, config, calendar or DEFAULT_CALENDAR)


def method_family(method: str) -> str:
    """`eagle3`, `EAGLE-2` and `eagle_v2` are all EAGLE-style: compare kinds without versions."""
    return re.sub(r"[-_]?v?\d+$", "", method.strip().casefold())


def canonical_publisher(config: "Config", policy: "Policy", model: str | None) -> str | None:
    """The organisation that publishes the model's canonical checkpoint.

    Configured (``registry.canonical_publishers``), else the publisher of the model's first
    listed approved checkpoint in that policy; None when neither says.
    """
    if model is None:
        return None
    configured = (config.registry.get("canonical_publishers") or {}).get(model)
    if configured:
        return str(configured)
    for cp in policy.checkpoints_of(model):
        if cp.publisher:
            return cp.publisher
    return None
