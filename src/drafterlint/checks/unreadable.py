"""DL702 unreadable — a file cannot be read, decoded or parsed.

Every file the tool needs is read once; when one cannot be (missing, a directory, not UTF-8,
UTF-16, NUL bytes, over the size limit, a YAML syntax error, a YAML tag, an alias bomb), the
tool reports where and why instead of stopping with a traceback, and goes on with the rest.

Passing::

    endpoints_rules.md   (valid UTF-8 Markdown)

Failing::

    endpoints_rules.md   (Latin-1 bytes: "Caf\\xe9")   -> DL702 at the first bad byte
"""

from __future__ import annotations

from drafterlint.checks.base import Example, Rule
from drafterlint.findings import Severity

RULE = Rule(
    code="DL702",
    name="unreadable",
    severity=Severity.ERROR,
    summary="a file cannot be read, decoded or parsed",
    needs=frozenset(),  # any file of either repository
)

EXAMPLES = (
    Example("UTF-8 document", {"rules:endpoints_rules.md": "# Rules\n\nCafé\n"}),
    Example(
        "a byte that is not UTF-8 on line 3",
        {"rules:endpoints_rules.md": "# Rules\n\nCaf\udce9\n"},
        expect=(("rules:endpoints_rules.md", 3, 4),),
    ),
)


def check(ctx):
    # The engine reports unreadable files itself (they surface wherever a file is read);
    # this module exists so that DL702 can be selected, ignored and explained like any rule.
    return ()
