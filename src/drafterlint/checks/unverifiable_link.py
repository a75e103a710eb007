"""DL206 unverifiable-link — (info) a link into a repository, or a ref, this run cannot check.

GitHub links into repositories that are not configured, links pinned to a commit or another
branch, and links to files absent from a plain (non-git, possibly partial) copy of a configured
repository are listed so that a reader knows they were not verified. They never fail a run
unless `--fail-on info`.
"""

from collections.abc import Iterator

from drafterlint.checks import _links
from drafterlint.checks.base import RULES, Context, Example, Rule
from drafterlint.exhaustive import assert_never
from drafterlint.findings import Finding, Severity, quoted

RULE = Rule("DL206", "unverifiable-link", Severity.INFO,
            "a link into a repository or ref that is not configured (not verified)",
            frozenset({RULES}))

EXAMPLES = (
    Example("a link into the configured reference repository", {
        "rules:endpoints_rules.md": "# Rules\n\n[list](https://github.com/mlcommons/endpoints/blob/main/README.md)\n",
        "registry:README.md": "# Endpoints\n",
    }),
    Example("a link into another repository, and one pinned to a commit", {
        "rules:endpoints_rules.md": (
            "# Rules\n\n[cli](https://github.com/mlcommons/endpoints-submission-cli/blob/main/data.yaml)\n\n"
            "[old](https://github.com/mlcommons/endpoints/blob/3a51022/README.md)\n"
        ),
        "registry:README.md": "# Endpoints\n",
    }, expect=(("rules:endpoints_rules.md", 3, 1), ("rules:endpoints_rules.md", 5, 1))),
)


def check(ctx: Context) -> Iterator[Finding]:
    for r, p in _links.unverified(ctx):
        match p:
            case _links.NotConfigured():
                message = f"link into {p.owner}/{p.repo}, which is not configured; not verified"
            case _links.OtherRef():
                message = (f"link into {p.owner}/{p.repo} at {quoted(p.ref)}, not the default branch "
                           f"{quoted(p.default_branch)}; not verified")
            case _links.PartialCopy():
                message = (f"{quoted(p.path)} is not in the given copy of {p.owner}/{p.repo} (not a git checkout, "
                           "so it may be partial); not verified")
            case _:
                assert_never(p)
        yield RULE.at(r.location, message, key=r.link.target)
