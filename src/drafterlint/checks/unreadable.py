"""DL702 unreadable — a file cannot be read, decoded or parsed.

Every file the tool needs is read once; when one cannot be (missing, a directory, not UTF-8,
UTF-16, NUL bytes, over the size limit, a YAML syntax error, a YAML tag, an alias bomb), the
tool reports where and why instead of stopping with a traceback, and goes on with the rest.
A part of a document that a bound leaves unchecked is reported at its first line the same way:
a table over the cell budget, and the lists and block quotes past the document's budget for
parsing them again (read from there as the parser first reads them, not as GitHub shows them).
"""

from __future__ import annotations

from collections.abc import Iterator

from drafterlint.checks.base import Context, Example, Rule
from drafterlint.findings import Finding, Severity

RULE = Rule(
    code="DL702",
    name="unreadable",
    severity=Severity.ERROR,
    summary="a file cannot be read, decoded or parsed",
    needs=frozenset(),  # any file of either repository
    last=True,  # reports the files the other rules could not read
)

EXAMPLES = (
    Example("UTF-8 document", {"rules:endpoints_rules.md": "# Rules\n\nCafé\n"}),
    Example(
        "a byte that is not UTF-8 on line 3",
        {"rules:endpoints_rules.md": "# Rules\n\nCaf\udce9\n"},
        expect=(("rules:endpoints_rules.md", 3, 4),),
    ),
)


def check(ctx: Context) -> Iterator[Finding]:
    """Each unreadable file once, with the first reason met (ctx.unreadable_met)."""
    reported: set[tuple[str, str]] = set()
    for err in ctx.unreadable_met():
        key = (err.location.repo, err.location.path)
        if key not in reported:
            reported.add(key)
            # One per file: the file is the key (the message may name a line).
            yield RULE.at(err.location, err.message)
