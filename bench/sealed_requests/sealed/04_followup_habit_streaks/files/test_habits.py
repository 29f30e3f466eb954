from datetime import date

from habits import completion_rate, current_streak

D = [date(2024, 1, d) for d in (1, 2, 3, 5, 6)]


def test_current_streak():
    assert current_streak(D, today=date(2024, 1, 6)) == 2
    assert current_streak(D, today=date(2024, 1, 7)) == 2
    assert current_streak(D, today=date(2024, 1, 9)) == 0


def test_rate():
    assert completion_rate(D, date(2024, 1, 1), date(2024, 1, 10)) == 0.5
