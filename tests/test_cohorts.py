import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drafterlint.cohorts import Calendar, Cohort

cohorts = st.builds(Cohort, st.integers(1990, 2200), st.integers(1, 12), st.integers(0, 1))
days = st.dates(datetime.date(1990, 1, 1), datetime.date(2200, 11, 30))


def test_parse_and_str():
    c = Cohort.parse("2026-10-C1")
    assert (c.year, c.month, c.index) == (2026, 10, 1) and str(c) == "2026-10-C1"


@pytest.mark.parametrize("bad,why", [
    ("2026-13-C0", "month 13"), ("2026-10-C2", "C2"), ("2026-00-C0", "month 00"),
    ("2026-10", "not a cohort id"), ("26-10-C1", "not a cohort id"), (None, "not a cohort id"),
])
def test_parse_rejects_with_reason(bad, why):
    with pytest.raises(ValueError, match=why):
        Cohort.parse(bad)


def test_known_dates():
    assert Cohort.parse("2026-10-C0").publication_date() == datetime.date(2026, 10, 7)
    assert Cohort.parse("2026-10-C1").publication_date() == datetime.date(2026, 10, 21)
    assert Cohort.parse("2026-09-C1").publication_date() == datetime.date(2026, 9, 16)
    assert Cohort.for_date(datetime.date(2026, 10, 22)) == Cohort.parse("2026-11-C0")
    assert Cohort.parse("2026-12-C1").next() == Cohort.parse("2027-01-C0")
    assert Cohort.parse("2026-09-C1") + 2 == Cohort.parse("2026-10-C1")


def test_calendar_is_a_parameter():
    thursdays = Calendar.monthly(3, (2, 4))
    assert Cohort.parse("2026-10-C0").publication_date(thursdays) == datetime.date(2026, 10, 8)
    with pytest.raises(ValueError, match="increasing weeks"):
        Calendar(((1, 0), (1, 4)))  # 1st Monday and 1st Friday: their order changes by month
    with pytest.raises(ValueError, match="every month"):
        Calendar.monthly(2, (1, 5))


def test_any_count_per_month_and_any_weekdays():
    cal = Calendar(((1, 0), (2, 0), (4, 4)))  # 1st and 2nd Monday, 4th Friday
    assert cal.describe() == "1st Monday, 2nd Monday and 4th Friday of each month"
    c2 = Cohort.parse("2026-10-C2", cal)
    assert c2.publication_date(cal) == datetime.date(2026, 10, 23)
    assert c2 + 1 == Cohort.parse("2026-11-C0", cal) and (c2 + 1) - c2 == 1
    assert Cohort.parse("2026-10-C0", cal) + 3 == Cohort.parse("2026-11-C0", cal)
    assert Cohort.for_date(datetime.date(2026, 10, 13), cal) == c2
    with pytest.raises(ValueError, match="3 publications a month"):
        Cohort.parse("2026-10-C3", cal)
    single = Calendar.monthly(2, (1,))
    assert Cohort.parse("2026-10-C0", single) + 1 == Cohort.parse("2026-11-C0", single)


@given(cohorts, cohorts)
def test_order_agrees_with_dates(a, b):
    assert (a < b) == (a.publication_date() < b.publication_date())


@given(cohorts, st.integers(-500, 500))
def test_add_then_distance(c, n):
    assert (c + n) - c == n
    assert (c + n) - n == c


@given(cohorts)
def test_next_prev(c):
    assert c.next().prev() == c and c.next() > c


@given(cohorts)
def test_for_date_of_publication(c):
    assert Cohort.for_date(c.publication_date()) == c


@given(days)
def test_for_date_is_first_on_or_after(d):
    c = Cohort.for_date(d)
    assert c.publication_date() >= d
    assert c.prev().publication_date() < d


@given(cohorts)
def test_round_trip_text(c):
    assert Cohort.parse(str(c)) == c
