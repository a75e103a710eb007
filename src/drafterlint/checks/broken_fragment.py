"""DL201 broken-fragment — a `#fragment` link matches no heading or anchor of its own document.

Anchors follow GitHub exactly: the slug of each heading's rendered text (lowercase; letters,
marks, digits, `_` and `-` kept; each space becomes `-`; everything else dropped; repeats get
`-1`, `-2`), explicit `<a id>`/`<a name>` anchors, `#top`, and line anchors (`#L12`). GitHub
matches fragments without regard to case, and so does this rule. The suggestion names the
closest existing anchor — the same title under its new number first, after a renumbering.

Fixable: `drafterlint fix` repoints the link when the heading it meant is beyond doubt — exactly
one heading with the fragment's title under another number, or, if none, the one heading with
its number and a mostly shared title — and updates the old number in the link text with it.
"""

from collections.abc import Iterator

from drafterlint.checks import _links
from drafterlint.checks._fixes import BEYOND_DOUBT, Fix, repointing
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule("DL201", "broken-fragment", Severity.ERROR,
            "`#frag` matches no heading slug or explicit anchor in the same document",
            frozenset({RULES}))

EXAMPLES = (
    Example("link to an existing heading, an explicit anchor and #top", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## 4.6 Seed Rotation\n\n"
            "#### Regions <a id=\"regions\"></a>\n\n"
            "See [§4.6](#46-seed-rotation), [regions](#regions), [up](#top), [Case](#46-Seed-Rotation).\n"
        ),
    }),
    Example("the section was renumbered, the link was not", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n## 4.7 Seed Rotation\n\nSee the\n[seed rules](#46-seed-rotation).\n"
        ),
    }, expect=(("rules:endpoints_rules.md", 6, 1),)),
)


OUTCOME = _links.BROKEN_FRAGMENT  # the links this rule reports, and its fix repoints
FIX = Fix.sometimes(repointing(OUTCOME), BEYOND_DOUBT)


def check(ctx: Context) -> Iterator[Finding]:
    for r, p in _links.missing_fragments(ctx, OUTCOME):
        message, suggestion = p.worded()
        yield RULE.at(r.location, message, suggestion=suggestion, key=r.link.target)
