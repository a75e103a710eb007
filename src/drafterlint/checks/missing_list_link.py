"""DL603 missing-list-link — §2.9.4/§3.2 do not link to the published list, or link elsewhere.

The approved-drafter list is published in the reference repository (``registry.github``): its
policy folders (``registry.policies``) and the Markdown list (``registry.markdown_list``, section
``registry.markdown_list_section``). §2.9.4 and §3.2 must each link there. Reported:

- a link in those sections to an approved-drafter list held in another repository (its path or
  text names a drafter/approved list), naming both places;
- a section with no link to the list in the reference repository, when the text asks for one:
  §2.9.4 when it defines an approved-drafter list, §3.2 when it says the list is published in
  the reference repository (reported at that sentence, else at the heading). A link into the
  Markdown list's file counts when it lands in the list's section (or names no fragment).

A version of the rules whose §2.9.4 defines no approved-drafter list (a placeholder, or one
drafter the benchmark designates) asks for no link: one skipped line says so.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from drafterlint import lazyre
from drafterlint.checks._facts import unstated_requirement
from drafterlint.checks._links import Resolved, parse_github, resolve_all
from drafterlint.checks._sections import section
from drafterlint.checks.base import Context, Example, Rule
from drafterlint.findings import Finding, Severity, quoted
from drafterlint.sources import github_pair

RULE = Rule(
    code="DL603",
    name="missing-list-link",
    severity=Severity.ERROR,
    summary="§2.9.4/§3.2 do not link to the published list, or the link resolves elsewhere",
)
ADVICE = "link the published list from the section"

RULES_MD = "rules:endpoints_rules.md"


def _doc(link: str) -> str:
    return (
        "# Rules\n\n## 2. Models\n\n### 2.9 Model Equivalence Rules\n\n"
        "#### 2.9.4 Speculative Decoding\n\n"
        f"The approved list is published in the reference repository ({link}).\n\n"
        "## 3. Benchmarks\n\n### 3.2 Supported Models\n\n"
        "**Approved drafter lists.** The approved drafter list is published in the reference "
        "repository ([lists](https://github.com/mlcommons/endpoints/tree/main/src/inference_endpoint/validation/policies)).\n"
    )


_GOOD = "[list](https://github.com/mlcommons/endpoints/tree/main/src/inference_endpoint/validation/policies)"
_ELSEWHERE = "[here](https://github.com/example/submission-tool/blob/main/data/approved_drafters.yaml)"

EXAMPLES = (
    Example("both sections link to the reference repository", {RULES_MD: _doc(_GOOD)}),
    Example("§2.9.4 links to a list in another repository", {RULES_MD: _doc(_ELSEWHERE)},
            expect=((RULES_MD, 9, 61),)),
)

_LISTY = lazyre.compile(r"drafter|approved|checkpoint|spec[-_]?decod", re.I)


def _list_places(ctx: Context) -> tuple[str, str, str]:
    reg = ctx.config.registry
    return (reg.get("github") or "", (reg.get("policies") or "").strip("/"),
            (reg.get("markdown_list") or "").strip("/"))


def _classify(ctx: Context, r: Resolved) -> str | None:
    """'reference' for a link to the list in the reference repository, 'elsewhere' for one to
    a list in another repository, None for any other link."""
    gh = parse_github(r.link.target)
    if gh is None:
        return None
    path = gh.path
    github, policies, md = _list_places(ctx)
    if gh.pair == github_pair(github):
        if policies and (path == policies or path.startswith(policies + "/")):
            return "reference"
        if md and (path == md or path == posixpath.dirname(md)):
            frag = gh.fragment
            if not frag:
                return "reference"
            if r.heading is not None and r.target_doc is not None:
                from drafterlint.checks._mdlist import find_section

                sec = find_section(r.target_doc, ctx.config.registry.get("markdown_list_section") or "")
                if sec is not None and sec.line <= r.heading.line <= (sec.end_line or sec.line):
                    return "reference"
                return None
            from drafterlint.markdown.slug import github_slug

            title = ctx.config.registry.get("markdown_list_section") or ""
            return "reference" if title and frag.lower() == github_slug(title).lower() else None
        return None
    if _LISTY.search(path) or _LISTY.search(r.link.text):
        return "elsewhere"
    return None


def check(ctx: Context) -> Iterator[Finding]:
    facts = ctx.facts
    github, policies, md = _list_places(ctx)
    where = f"{github} ({quoted(policies)} or {quoted(md)})"
    links = resolve_all(ctx)
    # What the text requires: §2.9.4 links to the list it defines; §3.2 to the list it says
    # lives beside the model list; a link to a copy elsewhere contradicts either sentence.
    published = facts.list_claim or facts.models_list_claim
    if facts.spec_section is not None and facts.list_defined is None:
        ctx.skip(RULE.code, unstated_requirement(facts) or "")
    for key, claim, required in (("speculative-decoding", facts.list_claim, facts.list_defined),
                                 ("supported-models", facts.models_list_claim, facts.models_list_claim)):
        doc, h = section(ctx, key)
        if h is None or doc is None or (required is None and published is None):
            continue
        end = h.end_line or doc.line_count
        label = f"§{h.number}" if h.number else f"“{h.title}”"
        mine = [r for r in links if r.doc is doc and h.line <= r.link.line <= end]
        kinds = [(r, _classify(ctx, r)) for r in mine]
        said = (f"{label} says the list is published in the reference repository "
                f"({claim.location.path}:{ctx.said_line(claim.location)})" if claim else
                f"the list is published in the reference repository {github}")
        for r, kind in kinds:
            if kind != "elsewhere":
                continue
            gh = parse_github(r.link.target)
            if gh is None:  # "elsewhere" is only said of a github.com link
                continue
            other, path = f"{gh.owner}/{gh.repo}", gh.path
            yield RULE.at(
                ctx.rules_view.location(doc.path, r.link.line, r.link.column),
                f"this link points to a list in {other} ({quoted(path)}), but {said}; "
                f"link to the list in {where}",
                related=[claim.location] if claim else [],
                suggestion=f"https://github.com/{github}/tree/main/{policies}" if policies else None,
                key=f"elsewhere:{key}:{r.link.target}",
            )
        if required is not None and not any(kind in ("reference", "elsewhere") for _, kind in kinds):
            # (a link elsewhere was said above)
            loc = claim.location if claim else ctx.rules_view.location(doc.path, h.line, h.column)
            said = ("says the approved-drafter list is published in the reference repository"
                    if claim else f"defines an approved-drafter list ({required.where(ctx)})")
            yield RULE.at(
                loc,
                f"{label} {said}, but does not link to it in {where}; add a link to it",
                key=f"nolink:{key}",
            )
