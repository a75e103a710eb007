"""DL402 model-list-lead-time — a checkpoint entered the model list too late before its round.

§3.2 of the rules says the model list for a submission round is published in the reference
repository at least N weeks before the round opens, and the companion's §1 says when the round
opens. Each approved checkpoint of the current model list (the newest policy's
``catalogs.approved_checkpoints``) must therefore have first appeared on the default branch no
later than the round's opening date minus N weeks. Both numbers are read from the rules text;
when either is not stated the rule says nothing (DL601 reports a missing statement).

Audit only: needs the git history of the policy catalogs (``drafterlint audit``). A checkpoint
already present in the oldest commit of a shallow or truncated history is not judged.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from drafterlint.checks.base import HISTORY, REGISTRY, RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL402",
    name="model-list-lead-time",
    severity=Severity.ERROR,
    summary="a checkpoint entered the model list later than §3.2 allows before its round",
    needs=frozenset({RULES, REGISTRY, HISTORY}),
)
ADVICE = "decide whether the checkpoint stays in this round as an exception or moves to the next round"

_RULES = """\
# Bench Rules

## 3. Models

### 3.2 Supported Models

The model list for each submission round is published in the reference repository at least 6
weeks before the submission round opens.
"""
_COMPANION = """\
# Submission Rules

## 1. Basics

The first submission round opens on **2026-12-16**.
"""
_P = "src/inference_endpoint/validation/policies/2026-12-C1/"
_EMPTY = "version: 2026-12-C1\nrevision: 1\ncatalogs:\n  approved_checkpoints: {}\n"
_CAT = """\
version: 2026-12-C1
revision: 1
catalogs:
  approved_checkpoints:
    m1:
      - repository: orga/m1
        revision: 2222222222222222222222222222222222222222
"""


def _example(day: str) -> dict:
    return {
        "rules:endpoints_rules.md": _RULES,
        "rules:endpoints_submission_rules.md": _COMPANION,
        f"registry@2026-09-01:{_P}catalog.yaml": _EMPTY,
        f"registry@{day}:{_P}catalog.yaml": _CAT,
        f"registry:{_P}catalog.yaml": _CAT,
    }


EXAMPLES = (
    Example("listed seven weeks before the round opens", _example("2026-10-20")),
    Example("listed four weeks before the round opens", _example("2026-11-20"),
            expect=(("registry:" + _P + "catalog.yaml", 6, 9),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    from drafterlint.registry.model import latest_checkpoints

    hist = ctx.git_history
    facts = ctx.facts
    if facts.round_opens is None or facts.model_list_weeks is None:
        return
    opens: datetime.date = facts.round_opens.value
    weeks = facts.model_list_weeks.value
    if not isinstance(weeks, int):
        return
    deadline = opens - datetime.timedelta(weeks=weeks)
    for cp, _policy in latest_checkpoints(ctx.loaded_registry):
        commit = hist.checkpoint_first_seen(cp.identity)
        if commit is None or commit.day <= deadline:
            continue
        late = (commit.day - deadline).days
        yield RULE.at(
            cp.location,
            f"checkpoint {cp.model}: {cp.repository}@{cp.revision} first appeared in the model "
            f"list by commit {commit.short} on {commit.day.isoformat()}, {late} day"
            f"{'' if late == 1 else 's'} after {deadline.isoformat()}: the round opens on "
            f"{opens.isoformat()} ({facts.round_opens.where(ctx)}) and the model list must be "
            f"published at least {weeks} weeks before ({facts.model_list_weeks.where(ctx)}); "
            "approve it for a later round, or record why the rules allow it",
            related=(facts.round_opens.location, facts.model_list_weeks.location),
            key=f"{cp.model}/{cp.repository}/{cp.revision}",
        )
