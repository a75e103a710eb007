"""Publication cohorts: ids, ordering, arithmetic, and the calendar that maps them to dates.

A cohort id is ``YYYY-MM-C<i>``: the i-th publication of that month (``C0`` and ``C1`` under
today's rules). Which day each publication falls on is the calendar's business (the submission
rules' §4.2 states it: 1st and 3rd Wednesday of the month); the default below is that statement,
and callers that read the rules pass their own ``Calendar``.

Arithmetic is by cohort: ``c + 1`` is the next publication, ``a - b`` the distance in cohorts.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

_ID = re.compile(r"(\d{4})-(\d{2})-C(\d+)")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


@dataclass(frozen=True)
class Calendar:
    """Publications fall on the given occurrences (1-based) of one weekday in each month.

    The default is 1st and 3rd Wednesday: C0 on the 1st, C1 on the 3rd.
    """

    weekday: int = 2  # Monday = 0 ... Sunday = 6 (datetime.date.weekday())
    occurrences: tuple[int, ...] = (1, 3)

    def __post_init__(self) -> None:
        if not 0 <= self.weekday <= 6:
            raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), not {self.weekday}")
        occ = tuple(self.occurrences)
        if len(occ) != 2:
            raise ValueError(
                f"a calendar needs exactly two publications a month (C0 and C1), not {len(occ)}"
            )
        if any(not 1 <= o <= 4 for o in occ) or list(occ) != sorted(set(occ)):
            raise ValueError(
                "occurrences must be increasing, distinct, between 1 and 4 (every month has "
                f"at least four of each weekday), not {occ}"
            )

    @property
    def per_month(self) -> int:
        return len(self.occurrences)

    def date_of(self, year: int, month: int, index: int) -> datetime.date:
        first = datetime.date(year, month, 1)
        offset = (self.weekday - first.weekday()) % 7
        return first + datetime.timedelta(days=offset + 7 * (self.occurrences[index] - 1))

    def describe(self) -> str:
        days = " and ".join(_ORDINALS[o - 1] for o in self.occurrences)
        return f"{days} {_WEEKDAYS[self.weekday]} of each month"


DEFAULT_CALENDAR = Calendar()

# Cohort ids name two publications a month (C0, C1); the calendar says on which days.
PER_MONTH = 2


@dataclass(frozen=True, order=True)
class Cohort:
    year: int
    month: int
    index: int

    def __post_init__(self) -> None:
        if not 1 <= self.year <= 9999:
            raise ValueError(f"year {self.year} is out of range")
        if not 1 <= self.month <= 12:
            raise ValueError(f"month {self.month:02d} does not exist (01 to 12)")
        if not 0 <= self.index < PER_MONTH:
            raise ValueError(
                f"C{self.index} does not exist: a month has C0 (first publication) and C1 "
                "(second) only"
            )

    # -- text ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: object) -> "Cohort":
        """`2026-10-C1` -> Cohort(2026, 10, 1); ValueError with the reason otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a cohort id (expected text like 2026-10-C1)")
        m = _ID.fullmatch(text.strip())
        if not m:
            raise ValueError(f"{text!r} is not a cohort id (expected YYYY-MM-C0 or YYYY-MM-C1)")
        year, month, index = int(m.group(1)), int(m.group(2)), int(m.group(3))
        try:
            return cls(year, month, index)
        except ValueError as exc:
            raise ValueError(f"{text!r} is impossible: {exc}") from None

    @classmethod
    def try_parse(cls, text: object) -> "Cohort | None":
        try:
            return cls.parse(text)
        except ValueError:
            return None

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-C{self.index}"

    # -- arithmetic ------------------------------------------------------------------------

    @property
    def ordinal(self) -> int:
        return ((self.year * 12) + (self.month - 1)) * PER_MONTH + self.index

    @classmethod
    def from_ordinal(cls, n: int) -> "Cohort":
        months, index = divmod(n, PER_MONTH)
        year, month0 = divmod(months, 12)
        return cls(year, month0 + 1, index)

    def __add__(self, n: int) -> "Cohort":
        if not isinstance(n, int) or isinstance(n, bool):
            return NotImplemented
        return Cohort.from_ordinal(self.ordinal + n)

    def __sub__(self, other):
        if isinstance(other, Cohort):
            return self.ordinal - other.ordinal
        if isinstance(other, int) and not isinstance(other, bool):
            return Cohort.from_ordinal(self.ordinal - other)
        return NotImplemented

    def next(self) -> "Cohort":
        return self + 1

    def prev(self) -> "Cohort":
        return self - 1

    # -- dates -----------------------------------------------------------------------------

    def publication_date(self, calendar: Calendar = DEFAULT_CALENDAR) -> datetime.date:
        return calendar.date_of(self.year, self.month, self.index)

    @classmethod
    def for_date(cls, day: datetime.date, calendar: Calendar = DEFAULT_CALENDAR) -> "Cohort":
        """The cohort of the first publication on or after `day`."""
        if isinstance(day, datetime.datetime):
            day = day.date()
        year, month = day.year, day.month
        for _ in range(2):
            for index in range(calendar.per_month):
                if calendar.date_of(year, month, index) >= day:
                    return cls(year, month, index)
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        raise AssertionError("unreachable: every month has a publication")  # pragma: no cover


def parse_cohort(text: object) -> Cohort:
    return Cohort.parse(text)
