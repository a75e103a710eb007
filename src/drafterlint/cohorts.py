"""Publication cohorts: ids, ordering, arithmetic, and the calendar that maps them to dates.

A cohort id is ``YYYY-MM-C<i>``: the i-th publication of that month (``C0`` and ``C1`` under
today's rules). How many publications a month there are, and on which days, is the calendar's
business: the submission rules' §4.2 states it (today: 1st and 3rd Wednesday); the default below
is that statement, and callers that read the rules pass the ``Calendar`` they read.

Arithmetic is by cohort: ``c + 1`` is the next publication, ``a - b`` the distance in cohorts.
"""

from __future__ import annotations

import datetime
from dataclasses import field

from drafterlint import lazyre
from drafterlint.records import dataclass

_ID = lazyre.compile(r"(\d{4})-(\d{2})-C(\d+)")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


@dataclass(frozen=True)
class Calendar:
    """The publications of each month: cohort ``C<i>`` falls on ``publications[i]``, an
    (occurrence, weekday) pair — (3, 2) is the 3rd Wednesday; weekday as datetime's, Monday = 0.

    Any number of publications a month and any weekdays, as the submission rules' §4.2 states
    them; the default is today's statement: C0 on the 1st and C1 on the 3rd Wednesday.
    """

    publications: tuple[tuple[int, int], ...] = ((1, 2), (3, 2))

    def __post_init__(self) -> None:
        pubs = tuple(tuple(p) for p in self.publications)
        if not pubs:
            raise ValueError("a calendar needs at least one publication a month")
        for occurrence, weekday in pubs:
            if not 0 <= weekday <= 6:
                raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), not {weekday}")
            if not 1 <= occurrence <= 4:
                raise ValueError(
                    f"occurrence {occurrence} is not in every month: use the 1st to the 4th "
                    "(every month has at least four of each weekday)"
                )
        # C0 < C1 < … in every month: the i-th weekday of a month falls within days 7i-6..7i,
        # so strictly increasing occurrences keep the order whatever the weekdays.
        occurrences = [o for o, _ in pubs]
        if occurrences != sorted(set(occurrences)):
            raise ValueError(
                "publications must fall in increasing weeks of the month (1st, 2nd, 3rd, 4th), "
                f"so that C0, C1, … stay in date order every month, not {self.describe_pubs(pubs)}"
            )

    @classmethod
    def monthly(cls, weekday: int, occurrences: tuple[int, ...]) -> "Calendar":
        """Every publication on one weekday: ``monthly(2, (1, 3))`` is 1st and 3rd Wednesday."""
        return cls(tuple((o, weekday) for o in occurrences))

    @property
    def per_month(self) -> int:
        return len(self.publications)

    def date_of(self, year: int, month: int, index: int) -> datetime.date:
        occurrence, weekday = self.publications[index]
        first = datetime.date(year, month, 1)
        offset = (weekday - first.weekday()) % 7
        return first + datetime.timedelta(days=offset + 7 * (occurrence - 1))

    def describe(self) -> str:
        return self.describe_pubs(self.publications)

    @staticmethod
    def describe_pubs(pubs) -> str:
        weekdays = {w for _, w in pubs}
        if len(weekdays) == 1:
            days = [_ORDINALS[o - 1] for o, _ in pubs]
            return f"{_and(days)} {_WEEKDAYS[pubs[0][1]]} of each month"
        return _and([f"{_ORDINALS[o - 1]} {_WEEKDAYS[w]}" for o, w in pubs]) + " of each month"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


DEFAULT_CALENDAR = Calendar()


@dataclass(frozen=True, order=True)
class Cohort:
    """A cohort id (`2026-10-C1`): its year, month and index within the month."""

    year: int
    month: int
    index: int
    # Publications a month under the calendar the id was read with: arithmetic counts in them.
    per_month: int = field(default=DEFAULT_CALENDAR.per_month, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.year <= 9999:
            raise ValueError(f"year {self.year} is out of range")
        if not 1 <= self.month <= 12:
            raise ValueError(f"month {self.month:02d} does not exist (01 to 12)")
        if not 0 <= self.index < self.per_month:
            last = self.per_month - 1
            raise ValueError(
                f"C{self.index} does not exist: the publication calendar has {self.per_month} "
                f"publication{'s' if self.per_month > 1 else ''} a month "
                + (f"(C0 to C{last})" if last else "(C0 only)")
            )

    # -- text ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: object, calendar: Calendar = DEFAULT_CALENDAR) -> "Cohort":
        """`2026-10-C1` -> Cohort(2026, 10, 1); ValueError with the reason otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a cohort id (expected text like 2026-10-C1)")
        m = _ID.fullmatch(text.strip())
        if not m:
            raise ValueError(f"{text!r} is not a cohort id (expected YYYY-MM-C<n>, like 2026-10-C1)")
        year, month, index = int(m.group(1)), int(m.group(2)), int(m.group(3))
        try:
            return cls(year, month, index, calendar.per_month)
        except ValueError as exc:
            raise ValueError(f"{text!r} is impossible: {exc}") from None

    @classmethod
    def try_parse(cls, text: object, calendar: Calendar = DEFAULT_CALENDAR) -> "Cohort | None":
        try:
            return cls.parse(text, calendar)
        except ValueError:
            return None

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-C{self.index}"

    # -- arithmetic ------------------------------------------------------------------------

    @property
    def ordinal(self) -> int:
        return ((self.year * 12) + (self.month - 1)) * self.per_month + self.index

    @classmethod
    def from_ordinal(cls, n: int, per_month: int = DEFAULT_CALENDAR.per_month) -> "Cohort":
        months, index = divmod(n, per_month)
        year, month0 = divmod(months, 12)
        return cls(year, month0 + 1, index, per_month)

    def __add__(self, n: int) -> "Cohort":
        if not isinstance(n, int) or isinstance(n, bool):
            return NotImplemented
        return Cohort.from_ordinal(self.ordinal + n, self.per_month)

    def __sub__(self, other):
        if isinstance(other, Cohort):
            return self.ordinal - other.ordinal
        if isinstance(other, int) and not isinstance(other, bool):
            return Cohort.from_ordinal(self.ordinal - other, self.per_month)
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
                    return cls(year, month, index, calendar.per_month)
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        raise AssertionError("unreachable: every month has a publication")  # pragma: no cover
