import pytest
import timelog


def test_hours_within_a_day():
    assert timelog.hours_between("2024-03-01 09:15", "2024-03-01 17:45") == pytest.approx(8.5)
    assert timelog.hours_between("2024-03-01 10:00", "2024-03-01 11:30") == pytest.approx(1.5)


def test_hours_across_days():
    # 2024 is a leap year: 29 February lies between.
    assert timelog.hours_between("2024-02-28 22:00", "2024-03-01 01:00") == pytest.approx(27.0)
    assert timelog.hours_between("2023-12-31 23:30", "2024-01-02 00:00") == pytest.approx(24.5)


def test_week_day():
    assert timelog.week_day("2024-03-01 09:15") == "Friday"
    assert timelog.week_day("2023-12-31 23:30") == "Sunday"


def test_the_other_functions_stay():
    lines = ["2024-03-01 09:00;2024-03-01 10:00;docs\n", "2024-03-01 10:00;2024-03-01 12:00;code\n"]
    assert timelog.tasks(lines) == ["code", "docs"]
    assert timelog.entries_for(lines, "code") == [("2024-03-01 10:00", "2024-03-01 12:00", "code")]
