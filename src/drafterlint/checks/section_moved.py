"""DL102 section-moved — (warning) a required section was found by its title under another
number than the configuration says.

The checks follow the section to its new place; the warning asks to update the configuration
(`rules.sections`) and the links that still say the old number.
"""

from collections.abc import Iterator

from drafterlint.checks import _sections
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule("DL102", "section-moved", Severity.WARNING,
            "a required section was found by title under another number than configured",
            frozenset({RULES}))

_SKELETON = (
    "# Rules\n\n### 2.9 Model Equivalence Rules\n\n#### 2.9.4 KV Cache\n\n#### 2.9.{n} Speculative Decoding\n\n"
    "### 3.2 Supported Models\n\n### 9.1 Automated Checks\n"
)

EXAMPLES = (
    Example("where it is expected", {
        "rules:endpoints_rules.md": _SKELETON.replace("#### 2.9.4 KV Cache\n\n", "").format(n=4),
    }),
    Example("renumbered", {
        "rules:endpoints_rules.md": _SKELETON.format(n=5),
    }, expect=(("rules:endpoints_rules.md", 7, 1),)),
)


def check(ctx: Context) -> Iterator[Finding]:
    for doc, loc in _sections.configured_sections(ctx):
        if loc.heading is not None and loc.moved:
            h = loc.heading
            yield RULE.at(
                ctx.rules_view.location(doc.path, h.line, h.column),
                f"“{loc.title}” is §{h.number or '(unnumbered)'}, configured as §{loc.number}; "
                f"update rules.sections.{loc.key}",
                key=loc.key,
            )
