from datetime import date

from rota import build_rota, is_weekend, shifts_per_person

MONDAY = date(2024, 6, 3)


def test_is_weekend():
    assert not is_weekend(date(2024, 6, 7))  # Friday
    assert is_weekend(date(2024, 6, 8))  # Saturday
    assert is_weekend(date(2024, 6, 9))  # Sunday


def test_weekdays_go_round_everyone():
    rota = build_rota(MONDAY, 5)
    assert [rota[day] for day in sorted(rota)] == ["Ana", "Ben", "Chloe", "Dev", "Ana"]


def test_a_week_of_shifts():
    rota = build_rota(MONDAY, 7)
    assert rota[date(2024, 6, 8)] == "Ben"
    assert rota[date(2024, 6, 9)] == "Dev"
    assert shifts_per_person(rota) == {"Ana": 2, "Ben": 2, "Chloe": 1, "Dev": 2}
