"""DL203 broken-cross-doc-fragment — `other.md#frag`: the file exists, the fragment does not.

The rules document and its companion link into each other's sections; when one of them is
renumbered, links in the other break. Anchors are computed exactly as GitHub renders the
target document, and the suggestion names its closest anchor.

Fixable: `drafterlint fix` repoints the link as for DL201, looking the heading up in the target
document.
"""

from collections.abc import Iterator

from drafterlint.checks import _links
from drafterlint.checks._fixes import BEYOND_DOUBT, Fix, repointing
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule("DL203", "broken-cross-doc-fragment", Severity.ERROR,
            "`other.md#frag`: the fragment is missing in that document",
            frozenset({RULES}))

_LINKING = "# Rules\n\nSee [Submission Rules §4.6](endpoints_submission_rules.md#46-seed-rotation).\n"

EXAMPLES = (
    Example("the companion has the section", {
        "rules:endpoints_rules.md": _LINKING,
        "rules:endpoints_submission_rules.md": "# Submission\n\n## 4.6 Seed Rotation\n",
    }),
    Example("the companion renumbered it", {
        "rules:endpoints_rules.md": _LINKING,
        "rules:endpoints_submission_rules.md": "# Submission\n\n## 4.7 Seed Rotation\n",
    }, expect=(("rules:endpoints_rules.md", 3, 5),)),
)


OUTCOME = _links.BROKEN_CROSS_DOC  # the links this rule reports, and its fix repoints
FIX = Fix.sometimes(repointing(OUTCOME), BEYOND_DOUBT)


def check(ctx: Context) -> Iterator[Finding]:
    for r, p in _links.missing_fragments(ctx, OUTCOME):
        message, suggestion = p.worded()
        yield RULE.at(r.location, message, suggestion=suggestion, key=r.link.target)
