"""`drafterlint fix`: rewrite what can be rewritten safely, and nothing else.

The checks only report; this layer is fed their findings and the parsed context, and proposes
edits for the kinds it knows how to mend (each proposal: the finding, the file, the edits with
the exact text they replace, and why). It keeps the checks free of any notion of writing, and
the findings (and the cache that stores them) free of edit payloads.

Then, before anything is written, every proposal is *proved*: the edits are made in memory, the
edited documents parsed again, and every check run on them. A fix is kept only if the finding it
fixes is gone and no finding appears that was not there before (say, a DL205 because the link
text still names the old section). `edits` alone writes files.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drafterlint.checks import _links
from drafterlint.checks.base import rule_by_code
from drafterlint.fix.edits import Edit, Refused, SourceFile, apply_edits, read_for_fix
from drafterlint.fix.links import HeadingFinder, link_edits
from drafterlint.fix.renamed import renamed_heading
from drafterlint.fix.toc import TocFixer

if TYPE_CHECKING:
    from drafterlint.checks.base import Context
    from drafterlint.findings import Finding

# The rules whose broken links are repointed; each names the outcome of the links it reports (OUTCOME).
LINK_CODES = {"DL201", "DL203", "DL204"}
TOC_CODE = "DL104"
FIXABLE = frozenset({*LINK_CODES, TOC_CODE})
# Findings that are never rewritten, and why a person must decide.
FOR_A_HUMAN = {
    "DL205": "the link text and its target disagree, and either could be the wrong one",
}


@dataclass(frozen=True)
class Proposal:
    finding: "Finding"
    edits: tuple[Edit, ...]
    why: str

    @property
    def file(self) -> tuple[str, str]:
        return self.finding.location.repo, self.finding.location.path


@dataclass(frozen=True)
class Left:
    finding: "Finding"
    why: str


@dataclass
class Plan:
    proposals: list[Proposal]
    left: list[Left]
    # (repo, path) -> (bytes on disk, bytes after the kept proposals)
    files: dict[tuple[str, str], tuple[bytes, bytes]]


def propose(ctx: "Context", findings: list["Finding"], wanted: Callable[[str], bool],
            finder: HeadingFinder = renamed_heading) -> tuple[list[Proposal], list[Left]]:
    """Edits for every wanted finding that has a safe fix; the others, each with why."""
    outcomes = {code: _outcome(code) for code in LINK_CODES}
    by_place: dict[tuple, _links.Resolved] = {}
    for r in _links.resolve_all(ctx):
        if r.outcome in outcomes.values():
            by_place[(r.repo.name, r.doc.path, r.link.line, r.link.column, r.outcome)] = r
    tocs: dict[int, TocFixer] = {}
    proposals: list[Proposal] = []
    left: list[Left] = []
    for f in sorted(findings, key=lambda f: f.sort_key()):
        if not wanted(f.code):
            continue
        if f.code in FOR_A_HUMAN:
            left.append(Left(f, FOR_A_HUMAN[f.code]))
            continue
        if f.code not in FIXABLE:
            continue
        loc = f.location
        if f.code in LINK_CODES:
            found = by_place.get((loc.repo, loc.path, loc.line, loc.column, outcomes[f.code]))
            edits, why = link_edits(found, finder) if found is not None else ((), "link not found again")
        else:
            edits, why = _toc_edits(ctx, tocs, f, finder)
        (proposals.append(Proposal(f, edits, why)) if edits else left.append(Left(f, why)))
    return proposals, left


def _outcome(code: str) -> str:
    rule = rule_by_code(code)
    outcome = getattr(rule, "OUTCOME", None)  # a link rule's own, which RuleModule does not promise
    assert isinstance(outcome, str), code
    return outcome


def _toc_edits(ctx, tocs: dict, f, finder: HeadingFinder) -> tuple[tuple[Edit, ...], str]:
    view = _view(ctx, f.location.repo)
    doc = view.parsed(f.location.path) if view is not None else None
    heading = next((h for h in doc.headings if h.line == f.location.line), None) if doc else None
    if doc is None or heading is None:
        return (), "heading not found again"
    fixer = tocs.get(id(doc))
    if fixer is None:
        fixer = tocs[id(doc)] = TocFixer(ctx, doc, finder)
    return fixer.missing(heading)


def _view(ctx, repo: str):
    return next((v for v in (ctx.rules, ctx.registry_repo) if v is not None and v.name == repo), None)


# -- proving the proposals ------------------------------------------------------------------


def prove(ctx: "Context", findings: list["Finding"], proposals: list[Proposal]) -> Plan:
    """Keep the proposals that, made together, remove their findings and add none."""
    plan = Plan([], [], {})
    originals: dict[tuple[str, str], bytes] = {}
    usable = []
    for p in proposals:
        if p.file not in originals:
            try:
                originals[p.file] = _original(ctx, *p.file)
            except Refused as exc:
                plan.left.append(Left(p.finding, str(exc)))
                continue
        usable.append(p)
    problem = _try(ctx, findings, usable, originals)
    if problem is None:
        kept = usable
    else:  # find which ones are at fault: each alone, then the survivors together
        kept = []
        for p in usable:
            alone = _try(ctx, findings, [p], originals)
            if alone is None:
                kept.append(p)
            else:
                plan.left.append(Left(p.finding, alone))
        together = _try(ctx, findings, kept, originals)
        if together is not None:
            plan.left += [Left(p.finding, f"together with the other fixes: {together}") for p in kept]
            kept = []
    plan.proposals = kept
    for file, edited in _edited(kept, originals).items():
        plan.files[file] = (originals[file], edited)
    return plan


def _original(ctx, repo: str, path: str) -> bytes:
    view = _view(ctx, repo)
    doc = view.parsed(path) if view is not None else None
    if doc is None:
        raise Refused(f"{path} was not parsed; not changed")
    raw = read_for_fix(view.root, path)
    if SourceFile(raw).text() != doc.text:
        raise Refused(f"{path} changed since it was read; not changed")
    return raw


def _edited(proposals: list[Proposal], originals: dict) -> dict[tuple[str, str], bytes]:
    edits: dict[tuple[str, str], list[Edit]] = {}
    for p in proposals:
        edits.setdefault(p.file, []).extend(p.edits)
    return {file: apply_edits(originals[file], es) for file, es in edits.items()}


def _try(ctx, findings, proposals: list[Proposal], originals: dict) -> str | None:
    """None if the proposals are safe together; else what goes wrong."""
    if not proposals:
        return None
    from drafterlint.checks.base import Context
    from drafterlint.engine import run
    from drafterlint.findings import UnreadableFile
    from drafterlint.markdown.parse import TooComplex, parse_document
    from drafterlint.sources import decode_text

    try:
        edited = _edited(proposals, originals)
    except Refused as exc:
        return str(exc)
    replaced: dict[str, dict] = {}
    for (repo, path), data in edited.items():
        view = _view(ctx, repo)
        try:
            replaced.setdefault(repo, {})[path] = parse_document(decode_text(data, view.location(path)), path)
        except (UnreadableFile, TooComplex) as exc:
            return f"the edited file would not parse: {exc}"
    def edited_view(view):
        return view.with_documents(replaced[view.name]) if view is not None and view.name in replaced else view

    # A fresh context over the same registry and the edited documents: prepared (documents,
    # sections, facts) again by the engine, as for any run.
    again = Context(config=ctx.config, rules=edited_view(ctx.rules), registry_repo=edited_view(ctx.registry_repo),
                    registry=ctx.registry, today=ctx.today, history=ctx.history, online=ctx.online)
    after = run(again).findings
    expected = Counter(map(_identity, findings)) - Counter(_identity(p.finding) for p in proposals)
    new = [f for f in after if not _take(expected, _identity(f))]
    if new:
        f = new[0]
        return f"the rewrite would leave or add a finding: {f.code} {f.location.path}:{f.location.line}: {f.message}"
    return None


def _take(counter: Counter, key) -> bool:
    if counter[key] > 0:
        counter[key] -= 1
        return True
    return False


_LINE_NUMBERS = re.compile(r"(?<=line )\d+|(?<=\.md:)\d+|(?<=\.yaml:)\d+|(?<=\.yml:)\d+")


def _identity(f: "Finding") -> tuple:
    """What a finding is, apart from where it is: an inserted line moves findings below it, and
    fixing one of several identical links changes the others' ordinals (so not the fingerprint)."""
    return (f.code, f.location.repo, f.location.path, _LINE_NUMBERS.sub("#", f.message))
