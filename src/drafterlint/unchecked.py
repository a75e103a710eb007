"""What a run could not look at, so that no comparison turns it into a verdict.

A finding known before (at the base of a change, in the baseline file, in the previous audit)
that a run does not report is fixed only if the run could have reported it. It could not when
its rule's check did not run, wholly or in part (a skip that says what it lacked: the model hub
did not answer, a prerequisite is missing), or when a file that was readable before is not any
more (DL702): every check that reads it saw less. Such a finding is carried over as "could not
be checked", never counted fixed; when the check runs again and finds it, it is still open,
never new.

    blind = blind_spots(result, known_unreadable={"catalog.yaml"})
    blind.why("DL302")   # "because catalog.yaml is unreadable", or None: it was checked

A newly unreadable file blinds every rule, not only those that report in it: a list copy is
compared with the catalog, the rules text with the registry, so what a file's absence hides
shows anywhere. Saying "could not be checked" of a finding that was in fact fixed costs a week;
saying "fixed" of one that was not checked is the verdict this module exists to prevent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from functools import cache

from drafterlint.records import dataclass


@cache
def unreadable_code() -> str:
    """The code of the rule that reports a file that cannot be read (checks/unreadable.py), as
    its module declares it."""
    from drafterlint.checks import module

    code: str = module("unreadable").RULE.code
    return code


@dataclass(frozen=True)
class Blind:
    """Why the checks of a run could not see some findings: per rule code whose check did not
    (fully) run, and the files that became unreadable."""

    codes: dict[str, str] = field(default_factory=dict)  # code -> what its check lacked
    files: tuple[str, ...] = ()  # paths unreadable now that were readable before

    def why(self, code: str) -> str | None:
        """Why a known finding of `code` that this run does not report may still be there,
        worded to follow "could not be checked"; None when its absence means it is fixed."""
        if code in self.codes:
            return f"({code}: {self.codes[code]})"
        if self.files and code != unreadable_code():  # a DL702 gone is a file readable again
            shown = ", ".join(self.files[:3]) + (f" and {len(self.files) - 3} more" if len(self.files) > 3 else "")
            return f"because {shown} {'is' if len(self.files) == 1 else 'are'} unreadable"
        return None

    def __bool__(self) -> bool:
        return bool(self.codes or self.files)


def blind_spots(result, known_unreadable: Iterable[str] = ()) -> Blind:
    """What `result` (a drafterlint.findings.Result) could not look at, given the paths that
    were already unreadable where the known findings come from (their DL702)."""
    before = set(known_unreadable)
    now = {f.location.path for f in result.findings if f.code == unreadable_code()} | set(result.unreadable)
    files = tuple(sorted(now - before))
    codes: dict[str, str] = {}
    for s in result.skipped:
        if s.need or s.unmet:  # a check's own "nothing to check here" blinds nothing
            for code in s.code.split(","):
                codes.setdefault(code.strip(), s.reason)
    return Blind(codes, files)
