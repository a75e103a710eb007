"""Who says a checkpoint ships a native head (DL505, DL506): the catalog's `bundled` heads and
the Markdown list's claims, one claim per (checkpoint, method), where it is said first.

Apart from drafterlint.checks._native (what the checkpoints themselves show), because these are
read from the Context, which holds that module's evidence."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from drafterlint.findings import Location
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks.context import Context


@dataclass(eq=False, repr=False)
class NativeClaim:
    """One (checkpoint, method) someone says ships a native head, where it is said first."""

    repository: str
    revision: str
    method: str
    location: Location
    source: str  # "the catalog" or "the Markdown list"
    model: str | None
    related: list[Location] = field(default_factory=list)


def _same_rev(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    return a == b or (min(len(a), len(b)) >= 7 and (a.startswith(b) or b.startswith(a)))


def native_claims(ctx: Context) -> list[NativeClaim]:
    return ctx.shared(_claims)


def _claims(ctx: Context) -> list[NativeClaim]:
    from drafterlint.checks._mdlist import markdown_list

    out: list[NativeClaim] = []
    for policy in reversed(list(ctx.loaded_registry.policies.values())):  # newest first: reported there
        for h in policy.heads:
            if not h.bundled or not h.repository or not h.revision or not h.method:
                continue  # DL701 reports the missing field
            if _find(out, h.repository, h.revision, h.method) is None:
                out.append(NativeClaim(h.repository, h.revision, h.method.lower(),
                                       h.field_location("bundled"), "the catalog", h.model))
    ml = markdown_list(ctx)
    for ms in (ml.models if ml is not None else ()):
        for claim in ms.claims:
            for e in ms.checkpoints:
                if claim.repositories and e.repository.lower() not in claim.repositories:
                    continue
                if not e.revision:
                    continue  # DL302 reports the unpinned entry
                known = _find(out, e.repository, e.revision, claim.method)
                if known is not None:
                    if claim.location not in known.related and claim.location != known.location:
                        known.related.append(claim.location)
                    continue
                out.append(NativeClaim(e.repository, e.revision, claim.method, claim.location,
                                       "the Markdown list", ms.title, [e.location]))
    return out


def _find(claims: list[NativeClaim], repository: str, revision: str, method: str) -> NativeClaim | None:
    for c in claims:
        if (c.repository.lower() == repository.lower() and c.method == method.lower()
                and _same_rev(c.revision, revision)):
            return c
    return None


def claimed(ctx: Context, repository: str, revision: str, method: str) -> bool:
    return _find(native_claims(ctx), repository, revision, method) is not None
