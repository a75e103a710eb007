"""DL301 duplicated-list — a rules document enumerates approved drafters or checkpoints instead
of linking to the list.

The approved-drafter list lives in the reference repository; a copy in the rules drifts. Any
list or table of the checked rules documents (``rules.documents``, globs such as ``**/*.md``
expanded: the same documents every check reads) that names two or more
repositories the registry approves (heads or checkpoints of any policy folder; by ``org/name``
or a model-hub link) is reported at its first line. A single mention in prose is not a list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from drafterlint.checks._mdlist import HF_LINK, REPO_WORD
from drafterlint.checks.base import REGISTRY, RULES, Context, Example, Rule
from drafterlint.findings import Finding, Location, Severity

if TYPE_CHECKING:
    from drafterlint.markdown.model import Body, Document
    from drafterlint.registry.model import Checkpoint, Head
    from drafterlint.sources import RepoView

RULE = Rule(
    code="DL301",
    name="duplicated-list",
    severity=Severity.ERROR,
    summary="a document enumerates approved drafters/checkpoints instead of linking to the list",
    needs=frozenset({RULES, REGISTRY}),
)

RULES_MD = "rules:endpoints_rules.md"
CAT = "registry:src/inference_endpoint/validation/policies/2026-11-C0/catalog.yaml"
_REPOS = ("orga/m1-mtp", "orga/m1-eagle", "orgb/m1-dspark")


def _catalog() -> str:
    heads = "".join(
        f"    - model: m1\n      repository: {r}\n      revision: {'a1' * 20}\n"
        f"      approved_cohort: 2026-09-C1\n      method: {r.rsplit('-', 1)[1]}\n"
        for r in _REPOS
    )
    return ("version: 2026-11-C0\nrevision: 1\ncatalogs:\n  approved_spec_decode_heads:\n"
            + heads + "  approved_checkpoints: {}\n")


def _rules(body: str) -> str:
    return ("# Rules\n\n### 2.9 Model Equivalence Rules\n\n#### 2.9.4 Speculative Decoding\n\n"
            + body)


EXAMPLES = (
    Example("a link, and one repository named in prose", {
        CAT: _catalog(),
        RULES_MD: _rules("The approved list ([list](https://github.com/mlcommons/endpoints/tree/"
                         "main/src/inference_endpoint/validation/policies)) includes orga/m1-mtp.\n"),
    }),
    Example("the list pasted into §2.9.4", {
        CAT: _catalog(),
        RULES_MD: _rules("Approved heads:\n\n" + "".join(f"- {r}\n" for r in _REPOS)),
    }, expect=((RULES_MD, 9, 1),)),
)


def _registry_repos(ctx: Context) -> dict[str, Location]:
    out: dict[str, Location] = {}
    for policy in ctx.loaded_registry.policies.values():
        items: list[Head | Checkpoint] = [*policy.heads, *policy.checkpoints]
        for item in items:
            if isinstance(item.repository, str):
                out.setdefault(item.repository.lower(), item.location)
    return out


def _named(texts: Iterable[str], targets: Iterable[str]) -> tuple[str, ...]:
    """The repositories `texts` name (`org/name`) and `targets` link to on the model hub, each
    once, in that order, lowercased."""
    found: dict[str, None] = {}
    # An `org/name` word holds a slash, and most list items and table cells hold none: the
    # pattern, which starts with a look-behind, is tried at each of their characters (7 ms of
    # every run on the real rules document's lists and tables, not 1 once the slash is looked for).
    for t in texts:
        if "/" in t:
            for m in REPO_WORD.finditer(t):
                found.setdefault(m.group("repo").lower())
    for t in targets:
        hf = HF_LINK.search(t)
        if hf:
            found.setdefault(f"{hf.group('org')}/{hf.group('name')}".lower())
    return tuple(found)


def _enumerations(doc: "Document") -> tuple[tuple[int, int, tuple[str, ...], str], ...]:
    """Each list and table of `doc` that names two repositories or more: (its line and column,
    the repositories, "list" or "table")."""
    blocks = []
    for lst in doc.lists:
        blocks.append((lst.line, lst.column, [i.text for i in lst.items],
                       [k.target for i in lst.items for k in i.links], "list"))
    for tbl in doc.tables:
        cells = [c for row in (tbl.header, *tbl.rows) for c in row]
        blocks.append((tbl.line, tbl.column, [c.text for c in cells],
                       [k.target for c in cells for k in c.links], "table"))
    return tuple((line, col, named, what) for line, col, texts, targets, what in blocks
                 if len(named := _named(texts, targets)) >= 2)


def check_document(ctx: Context, view: "RepoView", doc: "Body") -> Iterator[Finding]:
    """The lists and tables of one checked document of the rules repository."""
    known = ctx.shared(_registry_repos)
    if not known or view is not ctx.rules:
        return
    for line, col, named, what in doc.read(_enumerations):
        repos = [r for r in named if r in known]
        if len(repos) < 2:
            continue
        shown = ", ".join(repos[:4]) + (", …" if len(repos) > 4 else "")
        yield RULE.at(
            ctx.rules_view.location(doc.path, line, col),
            f"this {what} enumerates {len(repos)} entries of the approved list ({shown}); "
            "the list lives in the reference repository: link to it instead of copying it",
            related=[known[r] for r in repos],
            key=f"{what}:{','.join(sorted(repos))}",
        )


def check(ctx: Context) -> Iterator[Finding]:
    """Nothing across documents: what it reports is in one document's body (`check_document`)."""
    return iter(())
