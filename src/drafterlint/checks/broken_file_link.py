"""DL202 broken-file-link — a relative link names a file that does not exist, or one outside
the repository.

Relative links resolve against the linking document's folder, as on GitHub; a leading `/`
starts at the repository root. A link that climbs out of the repository with `..`, or uses a
`file:` or `javascript:` URL, cannot work for a reader on GitHub and is reported too. Links to
a folder are fine (GitHub shows the folder).
"""

from collections.abc import Iterator

from drafterlint.checks import _links
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.exhaustive import assert_never
from drafterlint.findings import Finding, Severity, quoted

RULE = Rule("DL202", "broken-file-link", Severity.ERROR,
            "a relative link names a missing file, or one outside the repository",
            frozenset({RULES}))

EXAMPLES = (
    Example("links to files and folders that exist", {
        "rules:endpoints_rules.md": "# Rules\n\nSee [the process](endpoints_submission_rules.md) and [figures](img/).\n",
        "rules:endpoints_submission_rules.md": "# Submission\n",
        "rules:img/cycle.svg": "<svg/>\n",
    }),
    Example("a misspelt file name and a link out of the repository", {
        "rules:endpoints_rules.md": (
            "# Rules\n\nSee [the process](endpoint_submission_rules.md).\n\n"
            "- and [the parent](../outside.md)\n"
        ),
        "rules:endpoints_submission_rules.md": "# Submission\n",
    }, expect=(("rules:endpoints_rules.md", 3, 5), ("rules:endpoints_rules.md", 5, 7))),
)


def check(ctx: Context) -> Iterator[Finding]:
    for r, p in _links.broken_files(ctx):
        match p:
            case _links.FileMissing() | _links.PathTooLong():
                message, suggestion = p.worded()
            case _links.OutsideRepository():
                message, suggestion = f"{quoted(p.path)} points outside the repository", None
            case _links.UnusableScheme():
                message = f"{quoted(p.scheme + ':')} link cannot work on GitHub; link to a file of the repository"
                suggestion = None
            case _:
                assert_never(p)
        yield RULE.at(r.location, message, suggestion=suggestion, key=r.link.target)
