import dates


def test_leap_years():
    for year in (2024, 2000, 1600, 1996):
        assert dates.is_leap(year), year


def test_common_years():
    for year in (2023, 1900, 2100, 1999):
        assert not dates.is_leap(year), year
