"""DL204 broken-cross-repo-link — a github.com link into a configured repository names a file or
fragment that is missing there.

`https://github.com/OWNER/REPO/blob|tree/REF/PATH#frag` is resolved against the local checkout
of that repository (the rules repository itself, or the reference repository) when REF is its
default branch; a `tree/` link lands on the folder's README. Links at other refs, and links into
repositories that are not configured, are DL206 (info), never errors. A missing *file* is only an
error when the checkout is a git work tree: a plain folder may be a partial copy, so there it is
DL206 too. Without the other repository the links into it are skipped, said once.

Fixable: `drafterlint fix` repoints a broken fragment as for DL201 (headings of numbered
documents; a fragment without a section number is left to a human).
"""

from collections.abc import Iterator

from drafterlint.checks import _links
from drafterlint.checks._fixes import BEYOND_DOUBT, Fix, repointing
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.exhaustive import assert_never
from drafterlint.findings import Finding, Severity

RULE = Rule("DL204", "broken-cross-repo-link", Severity.ERROR,
            "a github.com link into a configured repository: file or fragment missing at that ref",
            frozenset({RULES}))

_README = "# Agentic\n\n## Kimi K3\n\n## DSV4\n"
_URL = "https://github.com/mlcommons/endpoints/tree/main/examples/agentic"

EXAMPLES = (
    Example("the model's heading exists in the reference repository", {
        "rules:endpoints_rules.md": f"# Rules\n\n| Model | Reference |\n|---|---|\n| Kimi K3 | [Reference]({_URL}#kimi-k3) |\n",
        "registry:examples/agentic/README.md": _README,
    }),
    Example("the link names a heading the README does not have", {
        "rules:endpoints_rules.md": f"# Rules\n\n| Model | Reference |\n|---|---|\n| DeepSeek | [Reference]({_URL}#deepseek-v41) |\n",
        "registry:examples/agentic/README.md": _README,
    }, expect=(("rules:endpoints_rules.md", 5, 14),)),
)


OUTCOME = _links.BROKEN_CROSS_REPO  # the links this rule reports, and its fix repoints
FIX = Fix.sometimes(repointing(OUTCOME), BEYOND_DOUBT)


def check(ctx: Context) -> Iterator[Finding]:
    for _r, p in _links.with_outcome(ctx, _links.NOT_GIVEN):
        if isinstance(p, _links.NotGiven):
            ctx.skip(RULE.code, f"links into {p.owner}/{p.repo} not checked: that repository was not given")
    for r, p in _links.broken_cross_repo(ctx):
        match p:
            case _links.FragmentMissing() | _links.PathTooLong() | _links.FileMissing():
                message, suggestion = p.worded()
            case _links.OutsideRepository():
                message, suggestion = "path escapes the repository", None
            case _:
                assert_never(p)
        yield RULE.at(r.location, message, suggestion=suggestion, key=r.link.target)
