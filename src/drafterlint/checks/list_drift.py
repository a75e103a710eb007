"""DL302 list-drift — a Markdown copy of the approved list disagrees with the registry.

The reference repository keeps the approved checkpoints and speculative-decoding heads twice: as
data in the newest policy folder's ``catalog.yaml``, and as prose in the Markdown list
(``registry.markdown_list``, section ``registry.markdown_list_section``, one subsection per model).
Reported, each at its own side with the other side as related location:

- a subsection whose model name matches no registry model, and a registry model (one with heads,
  or matched by the list) that has no subsection. Names match after normalisation (case,
  punctuation and spaces ignored; a trailing ``-Instruct``/``-Chat`` may be dropped) or through
  ``registry.model_aliases``; an unmatched name is reported, never guessed;
- a checkpoint or head (repository and pinned revision) on one side only, a bullet without a
  pinned revision, a bullet whose link and backticked revision disagree. A bullet counts as a
  head or a checkpoint by the paragraph ending in ``:`` before its list (“Approved heads:”,
  “Approved model checkpoints:”; option ``list_words``);
- the rules' supported-models table (§3.2) against the models the policy enrolls.
"""

from __future__ import annotations

from drafterlint.checks._examples import CAT, README, A, B, catalog, readme
from drafterlint.checks._mdlist import LIST_WORDS, drifts
from drafterlint.checks._options import Option
from drafterlint.checks.base import REGISTRY, Example, Rule
from drafterlint.findings import Severity

RULE = Rule(
    code="DL302",
    name="list-drift",
    severity=Severity.ERROR,
    summary="a Markdown copy of the list disagrees with the registry",
    needs=frozenset({REGISTRY}),
)

_WORDS = {"type": "array", "items": {"type": "string", "minLength": 1}}
OPTIONS = (
    # In the Markdown list, a paragraph ending in ':' that has one of these words opens a list of
    # heads, or of checkpoints (case-insensitive, whole words).
    Option(RULE.code, "list_words", {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "head": {"description": "words that open a list of heads", **_WORDS},
            "checkpoint": {"description": "words that open a list of checkpoints", **_WORDS},
        },
    }, default={"head": ["head", "heads", "drafter", "drafters"], "checkpoint": ["checkpoint", "checkpoints"]},
        description="words of a paragraph ending in ':' that open a list of heads or of checkpoints",
        fills=LIST_WORDS),
)

EXAMPLES = (
    Example("the list and the catalog agree", {CAT: catalog(A), README: readme(A)}),
    Example(
        "the catalog approves a revision the list lacks",
        {CAT: catalog(A, B), README: readme(A)},
        expect=((CAT, 10, 9),),
    ),
    Example(
        "the list names a model the registry does not know",
        {CAT: catalog(A), README: readme(A, title="M-One Pro")},
        expect=((README, 9, 1),),
    ),
    Example(
        "an alias makes the names meet",
        {CAT: catalog(A), README: readme(A, title="M-One Pro")},
        config={"registry": {"model_aliases": {"M-One Pro": "model-one"}}},
    ),
)


def check(ctx):
    for d in drifts(ctx):
        if d.code == RULE.code:
            yield RULE.at(d.location, d.message, related=d.related, suggestion=d.suggestion,
                          key=d.key)
