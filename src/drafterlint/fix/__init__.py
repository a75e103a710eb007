"""`drafterlint fix`: rewrite what can be rewritten safely, and nothing else.

The checks only report; this layer is fed their findings and the parsed context, and proposes
edits for the rules that declare a fix (their FIX, checks/_fixes.py, names the function that
proposes them; each proposal: the finding, the file, the edits with the exact text they
replace, and why). It keeps the checks free of any notion of writing, and
the findings (and the cache that stores them) free of edit payloads.

Then, before anything is written, every proposal is *proved*: the edits are made in memory, the
edited documents parsed again, and every check run on them. A fix is kept only if the finding it
fixes is gone and no finding appears that was not there before (say, a DL205 because the link
text still names the old section). `edits` alone writes files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from drafterlint import lazyre
from drafterlint.fix.edits import Edit, Refused, SourceFile, apply_edits, read_for_fix
from drafterlint.fix.renamed import HeadingFinder, renamed_heading
from drafterlint.records import dataclass

if TYPE_CHECKING:
    from drafterlint.checks._fixes import Fix
    from drafterlint.checks.base import Context
    from drafterlint.findings import Finding
    from drafterlint.fix.edits import Proposes
    from drafterlint.sources import RepoView


def declared_fixes() -> "dict[str, Fix]":
    """Each rule's code and what it declares about fixing its findings (its FIX)."""
    from drafterlint.checks._fixes import declared
    from drafterlint.checks.base import all_rules

    return {m.RULE.code: declared(m) for m in all_rules()}


@dataclass(frozen=True)
class Proposal:
    """The edits that fix one finding, and why they are right."""

    finding: "Finding"
    edits: tuple[Edit, ...]
    why: str

    @property
    def file(self) -> tuple[str, str]:
        return self.finding.location.repo, self.finding.location.path


@dataclass(frozen=True)
class Left:
    """A finding fix leaves to a person, and why."""

    finding: "Finding"
    why: str


@dataclass
class Plan:
    """What fix would do: its proposals kept, the findings left, each file before and after."""

    proposals: list[Proposal]
    left: list[Left]
    # (repo, path) -> (bytes on disk, bytes after the kept proposals)
    files: dict[tuple[str, str], tuple[bytes, bytes]]


def propose(ctx: "Context", findings: list["Finding"], wanted: Callable[[str], bool],
            finder: HeadingFinder = renamed_heading) -> tuple[list[Proposal], list[Left]]:
    """Edits for every wanted finding that has a safe fix; the others, each with why. Each rule's
    declaration says whether its findings are fixed, and by what (made once per run, when the
    first of its findings comes), or why a person decides."""
    fixes = declared_fixes()
    proposes: dict[str, "Proposes"] = {}
    proposals: list[Proposal] = []
    left: list[Left] = []
    for f in sorted(findings, key=lambda f: f.sort_key()):
        fix = fixes.get(f.code)
        if not wanted(f.code) or fix is None:
            continue
        if fix.proposer is None:
            if fix.why:
                left.append(Left(f, fix.why))
            continue
        if f.code not in proposes:
            proposes[f.code] = fix.proposer(ctx, finder)
        edits, why = proposes[f.code](f)
        (proposals.append(Proposal(f, edits, why)) if edits else left.append(Left(f, why)))
    return proposals, left


def _view(ctx: "Context", repo: str) -> "RepoView | None":
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


def _original(ctx: "Context", repo: str, path: str) -> bytes:
    from drafterlint.markdown.model import Document

    view = _view(ctx, repo)
    doc = view.parsed(path) if view is not None else None
    if view is None or not isinstance(doc, Document):  # fix's views keep every document whole
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


def _try(ctx: "Context", findings: list["Finding"], proposals: list[Proposal], originals: dict) -> str | None:
    """None if the proposals are safe together; else what goes wrong."""
    if not proposals:
        return None
    from drafterlint.checks.context import Inputs
    from drafterlint.engine import prepare, run
    from drafterlint.findings import UnreadableFile
    from drafterlint.markdown.model import Document
    from drafterlint.markdown.parse import TooComplex, parse_document
    from drafterlint.sources import decode_text

    try:
        edited = _edited(proposals, originals)
    except Refused as exc:
        return str(exc)
    replaced: dict[str, dict[str, Document]] = {}
    for (repo, path), data in edited.items():
        view = _view(ctx, repo)
        assert view is not None, repo  # its original was read from it
        try:
            replaced.setdefault(repo, {})[path] = parse_document(decode_text(data, view.location(path)), path)
        except (UnreadableFile, TooComplex) as exc:
            return f"the edited file would not parse: {exc}"
    def edited_view(view: "RepoView | None") -> "RepoView | None":
        return view.with_documents(replaced[view.name]) if view is not None and view.name in replaced else view

    # A fresh context over the same registry and the edited documents: prepared (documents,
    # sections, facts) again by the engine, as for any run.
    again = prepare(Inputs(ctx.config, edited_view(ctx.rules), edited_view(ctx.registry_repo), registry=ctx.registry,
                           today=ctx.today, history=ctx.history, online=ctx.online))
    after = run(again, git_lines=False).findings
    expected = Counter(map(_identity, findings)) - Counter(_identity(p.finding) for p in proposals)
    new = [f for f in after if not _take(expected, _identity(f))]
    if new:
        f = new[0]
        return f"the rewrite would leave or add a finding: {f.code} {f.location.path}:{f.location.line}: {f.message}"
    return None


def _take(counter: Counter[tuple], key: tuple) -> bool:
    if counter[key] > 0:
        counter[key] -= 1
        return True
    return False


_LINE_NUMBERS = lazyre.compile(r"(?<=line )\d+|(?<=\.md:)\d+|(?<=\.yaml:)\d+|(?<=\.yml:)\d+")


def _identity(f: "Finding") -> tuple:
    """What a finding is, apart from where it is: an inserted line moves findings below it, and
    fixing one of several identical links changes the others' ordinals (so not the fingerprint)."""
    return (f.code, f.location.repo, f.location.path, _LINE_NUMBERS.sub("#", f.message))
