"""Where the copies of the approved list disagree with the newest policy: the Markdown list, the
configured extra lists and the rules' supported-models table, each held against the catalog.

Computed once per run as typed records, one class per kind of disagreement, each at its own
side with the other side's places as `related`. Each rule that reports them asks for its own
union of kinds and words each (DL302 `list_drifts`, the entries and models; DL504 `claim_drifts`,
the native-head claims) in a `match` the type checker proves complete: a kind added to a union
and worded by no case fails mypy, and a generator typed for one union cannot yield another's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol, TypeVar

from drafterlint.checks._mdlist import MarkdownList, ModelSection, markdown_list, match_model, reference_policy
from drafterlint.findings import Location
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks._facts import Fact
    from drafterlint.checks._mdlist import Claim, Entry
    from drafterlint.checks.base import Context
    from drafterlint.registry.model import Checkpoint, ExtraEntry, ExtraList, Head, Policy


@dataclass(frozen=True, eq=False, repr=False)
class Drift:
    """Where two copies of the approved list disagree (the kinds below say how)."""

    location: Location  # this side
    related: tuple[Location, ...]  # the other side
    policy: str  # the folder of the policy the copies are held against


# -- an extra list (the `drafters:` shape) against the policy's heads


@dataclass(frozen=True, eq=False, repr=False)
class ExtraUnapproved(Drift):
    """A weight-identified drafter of the extra list that is no approved head of its benchmark."""

    extra: "ExtraList"
    entry: "ExtraEntry"
    same_repo: "tuple[Head, ...]"  # the policy's heads of that repository (other models, revisions)


@dataclass(frozen=True, eq=False, repr=False)
class ExtraCohort(Drift):
    """The extra list and the policy approve the same head in different cohorts."""

    extra: "ExtraList"
    entry: "ExtraEntry"
    head: "Head"


@dataclass(frozen=True, eq=False, repr=False)
class ExtraMissing(Drift):
    """An approved head the extra list lacks."""

    extra: "ExtraList"
    head: "Head"


# -- the Markdown list against the catalog


@dataclass(frozen=True, eq=False, repr=False)
class UnmatchedModel(Drift):
    """A subsection whose title matches no model of the policy."""

    section: ModelSection
    absent: tuple[str, ...]  # the policy's models that have no subsection
    owner: str | None  # the one model of the policy its checkpoints belong to, if one


@dataclass(frozen=True, eq=False, repr=False)
class AbsentModel(Drift):
    """A model of the policy that has no subsection."""

    markdown: MarkdownList
    model: str
    checkpoints: "tuple[Checkpoint, ...]"


@dataclass(frozen=True, eq=False, repr=False)
class RevisionConflict(Drift):
    """A bullet whose link and backticked revision disagree."""

    entry: "Entry"


@dataclass(frozen=True, eq=False, repr=False)
class Unpinned(Drift):
    """A bullet without a revision."""

    entry: "Entry"


@dataclass(frozen=True, eq=False, repr=False)
class ListOnly(Drift):
    """A checkpoint or head of the Markdown list that the catalog lacks."""

    entry: "Entry"
    section: ModelSection
    model: str
    same_repo: "tuple[Checkpoint | Head, ...]"  # the catalog's pins of that repository


@dataclass(frozen=True, eq=False, repr=False)
class CatalogOnly(Drift):
    """An approved checkpoint or head (`kind`) that the Markdown list lacks."""

    kind: str  # "checkpoint" | "head"
    item: "Checkpoint | Head"
    model: str
    markdown: MarkdownList
    section: ModelSection


@dataclass(frozen=True, eq=False, repr=False)
class UnbackedClaim(Drift):
    """A sentence claiming bundled heads of a kind that the catalog does not record."""

    claim: "Claim"
    unbacked: "tuple[Entry, ...]"  # the claimed checkpoints without such a bundled head
    other: "tuple[Head, ...]"  # their bundled heads of another kind
    same_method: "tuple[Head, ...]"  # the model's bundled heads of the claimed kind


@dataclass(frozen=True, eq=False, repr=False)
class UnclaimedHead(Drift):
    """A bundled head of a listed checkpoint that no sentence of the subsection claims."""

    head: "Head"
    section: ModelSection


# -- the rules' supported-models table against the policy's enrolment


@dataclass(frozen=True, eq=False, repr=False)
class TableUnmatched(Drift):
    """A model of the table that matches no model the policy enrolls."""

    fact: "Fact"
    missing: tuple[str, ...]  # the enrolled models the table does not list


@dataclass(frozen=True, eq=False, repr=False)
class TableMissing(Drift):
    """A model the policy enrolls that the table does not list."""

    model: str


# DL302's records: the copies of the list, its entries and models, against the policy.
ListDrift = (ExtraUnapproved | ExtraCohort | ExtraMissing | UnmatchedModel | AbsentModel | RevisionConflict
             | Unpinned | ListOnly | CatalogOnly | TableUnmatched | TableMissing)
# DL504's records: what the Markdown list says of native heads against the catalog's bundled heads.
ClaimDrift = UnbackedClaim | UnclaimedHead


@dataclass(frozen=True, eq=False, repr=False)
class _Drifts:
    """Every drift found, once a run: DL302's and DL504's."""

    lists: "tuple[ListDrift, ...]"
    claims: "tuple[ClaimDrift, ...]"


def list_drifts(ctx: "Context") -> "tuple[ListDrift, ...]":
    return ctx.shared(_all_drifts).lists


def claim_drifts(ctx: "Context") -> "tuple[ClaimDrift, ...]":
    return ctx.shared(_all_drifts).claims


def _all_drifts(ctx: "Context") -> _Drifts:
    ml = markdown_list(ctx)
    policy = reference_policy(ctx)
    if policy is None or "catalog.yaml" in policy.unreadable:
        # An unreadable catalog is DL702's: the lists cannot disagree with what no one read.
        return _Drifts((), ())
    lists: list[ListDrift] = []
    claims: list[ClaimDrift] = []
    if ml is not None and ml.section is not None:
        matched, unmatched = _sections(ctx, ml, policy)
        lists += _list_drifts(ml, policy, matched, unmatched)
        claims += _claim_drifts(ml, policy, {id(ms): k for k, ms in matched.items()})
    lists += _table_drifts(ctx, policy)
    for extra in getattr(ctx.registry, "extra_lists", ()):
        lists += _extra_drifts(extra, policy)
    return _Drifts(tuple(lists), tuple(claims))


def _model_location(policy: "Policy", model: str) -> Location | None:
    for cp in policy.checkpoints:
        if cp.model == model:
            return cp.location
    for h in policy.heads:
        if h.model == model:
            return h.location
    for name, loc in policy.enrolled_models:
        if name == model:
            return loc
    return None


def _same_rev(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return a == b
    a, b = a.lower(), b.lower()
    return a.startswith(b) or b.startswith(a) if min(len(a), len(b)) >= 7 else a == b


class _Pinned(Protocol):
    """A checkpoint or head as the catalog or the Markdown list pins it."""

    @property
    def repository(self) -> str | None: ...

    @property
    def revision(self) -> str | None: ...


_P = TypeVar("_P", bound=_Pinned)


def _find(items: Iterable[_P], repository: str | None, revision: str | None) -> list[_P]:
    return [i for i in items
            if (i.repository or "").lower() == (repository or "").lower()
            and _same_rev(i.revision, revision)]


def _extra_drifts(extra: "ExtraList", policy: "Policy") -> "Iterator[ListDrift]":
    """A configured extra copy of the list (the `drafters:` shape) against the policy's heads.

    Weight-identified entries name a repository and, as `git-sha1:<revision>`, its revision;
    configuration-identified entries have no counterpart in the catalog's shape and are left out.
    """
    weight = [e for e in extra.entries if e.model_id]
    for e in weight:
        heads = [h for h in policy.heads if h.model == e.benchmark]
        found = _find(heads, e.model_id, e.revision) if e.revision else [
            h for h in heads if (h.repository or "").lower() == (e.model_id or "").lower()]
        if not found:
            same_repo = tuple(h for h in policy.heads if (h.repository or "").lower() == (e.model_id or "").lower())
            related = tuple(h.location for h in same_repo) or tuple(
                x for x in (_model_location(policy, e.benchmark or ""),) if x)
            yield ExtraUnapproved(e.location, related, policy.folder, extra, e, same_repo)
            continue
        head = found[0]
        if e.approved_cohort and head.approved_cohort and e.approved_cohort != head.approved_cohort:
            yield ExtraCohort(e.field_location("approved_cohort"), (head.field_location("approved_cohort"),),
                              policy.folder, extra, e, head)
    if extra.doc is None:
        return
    for h in policy.heads:
        listed = [e for e in weight if e.benchmark == h.model and (e.model_id or "").lower() == (h.repository or "").lower()
                  and (not e.revision or _same_rev(e.revision, h.revision))]
        if not listed:
            yield ExtraMissing(h.location, (Location(extra.name, extra.path, 1, 1),), policy.folder, extra, h)


def _sections(ctx: "Context", ml: MarkdownList,
              policy: "Policy") -> tuple[dict[str, ModelSection], list[ModelSection]]:
    """The list's subsections by the policy's model each matches (the first, when several do),
    and those that match none."""
    keys = sorted({c.model for c in policy.checkpoints} | {h.model for h in policy.heads if h.model}
                  | {m for m, _ in policy.enrolled_models})
    matched: dict[str, ModelSection] = {}
    unmatched: list[ModelSection] = []
    for ms in ml.models:
        k = match_model(ctx, ms.title, keys)
        if k is None:
            unmatched.append(ms)
        else:
            matched.setdefault(k, ms)
    return matched, unmatched


def _list_drifts(ml: MarkdownList, policy: "Policy", matched: dict[str, ModelSection],
                 unmatched: list[ModelSection]) -> "Iterator[ListDrift]":
    scope = set(matched) | {h.model for h in policy.heads if h.model}
    absent = [k for k in sorted(scope) if k not in matched]
    absent_locs = tuple(loc for loc in (_model_location(policy, k) for k in absent) if loc)

    for ms in unmatched:
        owners = sorted({cp.model for e in ms.checkpoints for cp in policy.checkpoints
                         if (cp.repository or "").lower() == e.repository.lower()})
        owner = owners[0] if len(owners) == 1 else None  # its checkpoints say which
        yield UnmatchedModel(ms.location, absent_locs, policy.folder, ms, tuple(absent), owner)
    for k in absent:
        loc = _model_location(policy, k)
        if loc is None:
            continue
        yield AbsentModel(loc, tuple(ms.location for ms in unmatched) or (_list_location(ml),), policy.folder,
                          ml, k, tuple(policy.checkpoints_of(k)))

    for k, ms in matched.items():
        yield from _entry_drifts(ml, policy, k, ms)


def _entry_drifts(ml: MarkdownList, policy: "Policy", k: str, ms: ModelSection) -> "Iterator[ListDrift]":
    """One matched model: its entries against the catalog's, both ways."""
    cps = policy.checkpoints_of(k)
    heads = [h for h in policy.heads if h.model == k]
    for e in ms.entries:
        if e.conflict:
            yield RevisionConflict(e.location, (), policy.folder, e)
        if not e.revision:
            yield Unpinned(e.location, (), policy.folder, e)
            continue
        pool = cps if e.kind == "checkpoint" else heads
        if _find(pool, e.repository, e.revision):
            continue
        same_repo = tuple(i for i in pool if (i.repository or "").lower() == e.repository.lower())
        related = tuple(i.location for i in same_repo) or tuple(x for x in (_model_location(policy, k),) if x)
        yield ListOnly(e.location, related, policy.folder, e, ms, k, same_repo)
    for cp in cps:
        if not _find(ms.checkpoints, cp.repository, cp.revision):
            same = [e.location for e in ms.checkpoints
                    if e.repository.lower() == (cp.repository or "").lower()]
            yield CatalogOnly(cp.location, tuple(same) or (ms.location,), policy.folder, "checkpoint", cp, k, ml, ms)
    for h in heads:
        if h.bundled:
            continue
        if not _find(ms.heads, h.repository, h.revision):
            yield CatalogOnly(h.location, (ms.location,), policy.folder, "head", h, k, ml, ms)


def _claim_drifts(ml: MarkdownList, policy: "Policy", model_of: dict[int, str]) -> "Iterator[ClaimDrift]":
    """Claims of native/bundled heads against the catalog's bundled heads, both ways."""
    for ms in ml.models:
        k = model_of.get(id(ms))
        for claim in ms.claims:
            covered = [e for e in ms.checkpoints
                       if not claim.repositories or e.repository.lower() in claim.repositories]
            bundled = [h for h in policy.heads if h.bundled and (k is None or h.model == k)]
            unbacked = tuple(e for e in covered
                             if not any(h.method == claim.method
                                        for h in _find(bundled, e.repository, e.revision)))
            if not unbacked:
                continue
            other = tuple(h for e in unbacked for h in _find(bundled, e.repository, e.revision))
            same_method = tuple(h for h in policy.heads if h.bundled and h.method == claim.method
                                and (k is None or h.model == k))
            related = tuple(h.location for h in (other or same_method)) or tuple(e.location for e in unbacked)
            yield UnbackedClaim(claim.location, related, policy.folder, claim, unbacked, other, same_method)
        if k is None:
            continue
        for h in policy.heads:
            if not h.bundled or h.model != k:
                continue
            listed = _find(ms.checkpoints, h.repository, h.revision)
            if not listed:
                continue  # the checkpoint itself is missing: a CatalogOnly says so
            # A claim of another kind for this checkpoint is reported at the claim already.
            claimed = any(
                not c.repositories or (h.repository or "").lower() in c.repositories
                for c in ms.claims
            )
            if not claimed:
                where = h.field_location("bundled") if hasattr(h, "field_location") else h.location
                yield UnclaimedHead(where, tuple(e.location for e in listed), policy.folder, h, ms)


def _list_location(ml: MarkdownList) -> Location:
    return Location("registry", ml.path, ml.section.line if ml.section else 1,
                    ml.section.column if ml.section else 1)


def _table_drifts(ctx: "Context", policy: "Policy") -> "Iterator[ListDrift]":
    if ctx.rules is None or not policy.enrolled_models:
        return
    facts = ctx.facts
    if not facts.supported_models:
        return
    keys = [m for m, _ in policy.enrolled_models]
    seen = set()
    unmatched = []
    for f in facts.supported_models:
        k = match_model(ctx, f.value, keys)
        if k is None:
            unmatched.append(f)
        else:
            seen.add(k)
    missing = [(m, loc) for m, loc in policy.enrolled_models if m not in seen]
    for f in unmatched:
        yield TableUnmatched(f.location, tuple(loc for _, loc in missing), policy.folder, f,
                             tuple(m for m, _ in missing))
    for m, loc in missing:
        yield TableMissing(loc, tuple(f.location for f in unmatched) or (facts.supported_models[0].location,),
                           policy.folder, m)
