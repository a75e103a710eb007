"""The one shared vocabulary: where something is, how bad it is, and what was found.

Everything upstream of the reports produces these; everything downstream only reads them.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field, replace


class Severity(enum.IntEnum):
    # Ordered so that `finding.severity >= fail_on` reads naturally.
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str) -> "Severity":
        try:
            return cls[value.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown severity {value!r} (expected error, warning or info)"
            ) from None


RULES_REPO = "rules"
REGISTRY_REPO = "registry"


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based line and column in a file of one of the two repositories."""

    repo: str  # RULES_REPO or REGISTRY_REPO (or the name of an extra configured list)
    path: str  # POSIX path relative to that repository's root
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    severity: Severity
    location: Location
    message: str
    suggestion: str | None = None
    # Other places the same defect shows (the other side of a mismatch, the first of a duplicate).
    related: tuple[Location, ...] = field(default=())
    # Text that identifies the defect independently of line numbers (e.g. the broken target),
    # so that audits can tell "still open" from "new" after unrelated edits move lines around.
    key: str = ""

    @property
    def fingerprint(self) -> str:
        basis = "\x1f".join(
            (self.code, self.location.repo, self.location.path, self.key or self.message)
        )
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]

    def sort_key(self) -> tuple:
        return (
            self.location.repo,
            self.location.path,
            self.location.line,
            self.location.column,
            self.code,
            self.message,
        )

    def with_severity(self, severity: Severity) -> "Finding":
        return replace(self, severity=severity)


@dataclass(frozen=True)
class Skipped:
    """A check that could not run, said once (never a failure)."""

    code: str
    reason: str


class InputError(Exception):
    """Bad input from the user: a message naming the file (and line), shown without traceback.

    Raised for usage and configuration problems (exit 2).
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        where = ""
        if path:
            where = f"{path}:{line}: " if line else f"{path}: "
        super().__init__(where + message)


class FetchError(Exception):
    """A repository could not be brought (exit 3)."""


class UnreadableFile(Exception):
    """A file that cannot be read, decoded or parsed. The engine turns it into one DL702 finding."""

    def __init__(self, location: Location, message: str):
        self.location = location
        self.message = message
        super().__init__(f"{location}: {message}")
