"""DL101 section-missing — a section the checks rely on (§2.9, §2.9.4, §3.2, §9.1, and the
companion's §1, §4.2, §4.6) cannot be found, by number or by title.

Sections are configured in `.drafterlint.yaml` (`rules.sections`, `rules.companion_sections`)
as a number and a title; the defaults fit today's documents. A section found by title under
another number is DL102 instead, and the checks follow it there.

Older versions of the rules lack some of today's sections. Severity, by what the configuration
says of the section:

- configured (the default): an **error** when missing — the configuration says this version of
  the rules has it, so it was lost or renamed;
- ``required: false``: an **info** when missing — this version may not have it yet; the checks
  that read it say nothing;
- ``null``: not looked for, nothing reported — this version of the rules has no such section.
"""

from collections.abc import Iterator

from drafterlint.checks import _sections
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.findings import Finding, Severity

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


def check(ctx: Context) -> Iterator[Finding]:
    for doc, loc in _sections.configured_sections(ctx):
        if loc.heading is None:
            setting = f"rules.{loc.group}.{loc.key}"
            if loc.required:
                why = (f"; the checks that read it cannot run (configure {setting} if it was renamed, "
                       "or set it to null if this version of the rules has no such section)")
            else:
                why = (f": this version of the rules does not have it ({setting} is `required: "
                       "false`); the checks that read it say nothing")
            yield RULE.at(
                ctx.rules_view.location(doc.path, 1, 1),
                f"no section §{loc.number} “{loc.title}” in {doc.path}{why}",
                key=loc.key,
                severity=None if loc.required else Severity.INFO,
            )
