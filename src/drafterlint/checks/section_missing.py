"""DL101 section-missing — a section the checks rely on (§2.9, §2.9.4, §3.2, §9.1, and the
companion's §1, §4.2, §4.6) cannot be found, by number or by title.

Sections are configured in `.drafterlint.yaml` (`rules.sections`, `rules.companion_sections`)
as a number and a title; the defaults fit today's documents. A section found by title under
another number is DL102 instead, and the checks follow it there.
"""

from drafterlint.checks import _sections
from drafterlint.checks.base import RULES, Example, Rule
from drafterlint.findings import Severity

RULE = Rule("DL101", "section-missing", Severity.ERROR,
            "a required section (§2.9, §2.9.4, §3.2, §9.1) cannot be found",
            frozenset({RULES}))

_SKELETON = (
    "# Rules\n\n### 2.9 Model Equivalence Rules\n\n#### 2.9.4 {spec}\n\n"
    "### 3.2 Supported Models\n\n### 9.1 Automated Checks\n"
)

EXAMPLES = (
    Example("every section is there", {
        "rules:endpoints_rules.md": _SKELETON.format(spec="Speculative Decoding"),
    }),
    Example("§2.9.4 is neither under its number nor under its title", {
        "rules:endpoints_rules.md": _SKELETON.format(spec="KV Cache").replace("#### 2.9.4", "#### 2.9.5"),
    }, expect=(("rules:endpoints_rules.md", 1, 1),)),
)


def check(ctx):
    for doc, loc in _sections.configured_sections(ctx):
        if loc.heading is None:
            yield RULE.at(
                ctx.rules.location(doc.path, 1, 1),
                f"no section §{loc.number} “{loc.title}” in {doc.path}; the checks that read it cannot run "
                f"(configure rules.sections.{loc.key} if it was renamed)",
                key=loc.key,
            )
