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

from collections.abc import Iterator

from drafterlint.checks._drift import (
    AbsentModel,
    CatalogOnly,
    ExtraCohort,
    ExtraMissing,
    ExtraUnapproved,
    ListDrift,
    ListOnly,
    RevisionConflict,
    TableMissing,
    TableUnmatched,
    UnmatchedModel,
    Unpinned,
    list_drifts,
)
from drafterlint.checks._examples import CAT, README, A, B, catalog, readme
from drafterlint.checks._mdlist import LIST_WORDS, MarkdownList, short
from drafterlint.checks._options import Option
from drafterlint.checks.base import REGISTRY, Context, Example, Rule
from drafterlint.exhaustive import assert_never
from drafterlint.findings import Finding, Severity, quoted

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


def check(ctx: Context) -> Iterator[Finding]:
    for reason in ctx.loaded_registry.missing_extra_lists:
        ctx.skip(RULE.code, reason)
    for drift in list_drifts(ctx):
        message, suggestion, key = _word(drift)
        yield RULE.at(drift.location, message, related=drift.related, suggestion=suggestion, key=key)


def _word(drift: ListDrift) -> tuple[str, str | None, str]:
    """The message, suggestion and key of a drift."""
    where = f"policy {drift.policy}"
    match drift:
        case ExtraUnapproved():
            x, name = drift.entry, drift.extra.name
            detail = (f"{where} lists {x.model_id} only at "
                      + ", ".join(f"{_pin(h.repository, h.revision)} ({h.model})" for h in drift.same_repo)
                      if drift.same_repo else f"{where} has no such head for {x.benchmark}")
            return (f"drafter {_pin(x.model_id, x.revision)} of {x.benchmark} in the list “{name}” is not an "
                    f"approved head: {detail}", None, f"extra-only:{name}:{x.benchmark}:{x.model_id}@{x.revision}")
        case ExtraCohort():
            x, name = drift.entry, drift.extra.name
            return (f"drafter {_pin(x.model_id, x.revision)} is approved in {x.approved_cohort} in the list "
                    f"“{name}” but in {drift.head.approved_cohort} in {where}",
                    None, f"extra-cohort:{name}:{x.model_id}@{x.revision}")
        case ExtraMissing():
            h, extra = drift.head, drift.extra
            return (f"approved head {_pin(h.repository, h.revision)} of {h.model} is missing from the list "
                    f"“{extra.name}” ({extra.path})", None, f"catalog-only-extra:{extra.name}:{h.repository}@{h.revision}")
        case UnmatchedModel():
            ms = drift.section
            listed = ", ".join(e.repository for e in ms.checkpoints) or "none"
            others = f"; models of the registry missing from the list: {', '.join(drift.absent)}" if drift.absent else ""
            return (f"model “{ms.title}” of the Markdown list (checkpoints: {listed}) matches no model of "
                    f"{where}{others}. If it is the same model, add it to registry.model_aliases; "
                    "otherwise the list and the catalog disagree",
                    f"add {quoted(f'{ms.title}: {drift.owner}')} to registry.model_aliases" if drift.owner else None,
                    f"model:{ms.title}")
        case AbsentModel():
            cps = ", ".join(_pin(c.repository, c.revision) for c in drift.checkpoints)
            return (f"model {drift.model} of {where} (checkpoints: {cps or 'none'}) has no subsection in "
                    f"the Markdown list {_list_name(drift.markdown)}", None, f"absent-model:{drift.model}")
        case RevisionConflict():
            e = drift.entry
            return (f"{e.repository}: the link pins revision {short(e.revision)} but the text says "
                    f"{quoted(e.conflict)}; make them the same", None, f"conflict:{e.repository}")
        case Unpinned():
            e = drift.entry
            return (f"{e.repository} is listed without a pinned revision; link to "
                    f"huggingface.co/{e.repository}/tree/<revision>", None, f"unpinned:{e.repository}")
        case ListOnly():
            e, k = drift.entry, drift.model
            if drift.same_repo:
                revs = ", ".join(short(i.revision) for i in drift.same_repo)
                detail = f"{where} pins {e.repository} for {k} at {revs} only"
            else:
                detail = f"{where} has no such {e.kind} for {k}"
            return (f"{e.kind} {_pin(e.repository, e.revision)} (“{drift.section.title}”) is in the Markdown "
                    f"list but not in the catalog: {detail}", None, f"md-only:{e.kind}:{e.repository}@{e.revision}")
        case CatalogOnly():
            i, title = drift.item, drift.section.title
            return (f"approved {drift.kind} {_pin(i.repository, i.revision)} of {drift.model} is missing from the "
                    f"Markdown list {_list_name(drift.markdown)} (subsection “{title}”)", None,
                    f"catalog-only:{drift.kind}:{i.repository}@{i.revision}")
        case TableUnmatched():
            f = drift.fact
            return (f"supported model “{f.value}” matches no model {where} enrolls"
                    + (f" (enrolled but not in this table: {', '.join(drift.missing)})" if drift.missing else "")
                    + "; add it to registry.model_aliases if it is the same model", None, f"table:{f.value}")
        case TableMissing():
            return (f"{where} enrolls model {drift.model}, which the supported-models table of the rules "
                    "does not list", None, f"enrolled:{drift.model}")
        case _:
            assert_never(drift)


def _pin(repository: str | None, revision: str | None) -> str:
    return f"{repository}@{short(revision)}"


def _list_name(ml: MarkdownList) -> str:
    return f"{ml.path} “{ml.section.title if ml.section else ''}”"
