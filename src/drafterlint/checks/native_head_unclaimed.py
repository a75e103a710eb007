"""DL506 native-head-unclaimed — (online, info) an approved checkpoint ships a native head that
neither the catalog nor the Markdown list records.

A native head is approved together with its checkpoint, so one that nobody recorded is still
usable; but the catalog (a ``bundled: true`` head) and the list are where submitters and the
checker look, and the task force may want it there. With ``drafterlint audit --online`` each
approved checkpoint of the newest policy is held against DL505's evidence table (its
``config.json`` and weight index at the pinned commit, fetched once and shared with DL505):
reported, at the checkpoint's revision, when the checkpoint shows a head of a method that no
bundled head of the catalog and no sentence of the list claims for it. Methods without evidence
in the table are not looked for; a checkpoint the hub does not answer for is listed under
“could not check”, never reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks._claims import claimed
from drafterlint.checks._examples import MTP_CONFIG, NATIVE_CAT, NATIVE_REV, hub_files, native_catalog
from drafterlint.checks._native import PRESENT, UNKNOWN
from drafterlint.checks.base import ONLINE, REGISTRY, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL506",
    name="native-head-unclaimed",
    severity=Severity.INFO,
    summary="an approved checkpoint ships a native head that neither catalog nor list records (audit --online)",
    needs=frozenset({REGISTRY, ONLINE}),
)


def _only_checkpoint(repository: str) -> str:
    return (
        "version: 2026-11-C1\nrevision: 1\ncatalogs:\n  approved_checkpoints:\n    m1:\n"
        f"      - repository: {repository}\n        revision: {NATIVE_REV}\n"
    )


EXAMPLES = (
    Example("the shipped MTP head is recorded as a bundled head",
            {NATIVE_CAT: native_catalog("orga/m1", "mtp"), **hub_files("orga/m1", MTP_CONFIG, 5)}),
    Example("the checkpoint has no MTP layer",
            {NATIVE_CAT: _only_checkpoint("orga/m1"), **hub_files("orga/m1", {**MTP_CONFIG, "num_nextn_predict_layers": 0}, 4)}),
    Example("the checkpoint ships an MTP head nobody recorded",
            {NATIVE_CAT: _only_checkpoint("orga/m1"), **hub_files("orga/m1", MTP_CONFIG, 5)},
            expect=((NATIVE_CAT, 7, 19),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    policy = ctx.registry.latest() if ctx.registry is not None else None
    if policy is None:
        return
    methods = [ev for ev in ctx.native.table.methods.values() if not ev.empty]
    seen: set[tuple[str, str]] = set()
    unknown: dict[str, set[str]] = {}
    for cp in policy.checkpoints:
        if not cp.repository or not cp.revision:
            continue  # DL701 reports the missing field
        ident = (cp.repository.lower(), cp.revision.lower())
        if ident in seen:
            continue
        seen.add(ident)
        for ev in methods:
            if claimed(ctx, cp.repository, cp.revision, ev.method):
                continue  # DL505 holds the claim against the checkpoint
            v = ctx.native.verdict(cp.repository, cp.revision, ev.method)
            if v.state == UNKNOWN:
                unknown.setdefault(v.found, set()).add(v.ident)
            elif v.state == PRESENT:
                yield RULE.at(
                    cp.field_location("revision"),
                    f"the approved checkpoint {v.ident} of {cp.model} ships a native {ev.method} "
                    f"head ({v.found}) that neither the catalog nor the Markdown list records; a "
                    "native head is approved with its checkpoint, so record it (a `bundled: true` "
                    f"head with method {ev.method}) if submitters should find it",
                    key=f"unclaimed:{ev.method}:{v.ident}",
                )
    for reason, idents in unknown.items():
        ctx.skip(RULE.code, f"could not look on the model hub for unrecorded native heads in "
                            f"{len(idents)} approved checkpoint(s): {reason}", need=ONLINE)
