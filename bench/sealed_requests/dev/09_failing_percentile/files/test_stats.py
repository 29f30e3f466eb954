import pytest
from stats import mean, percentile, summary

TIMES = [15, 20, 35, 40, 50]


def test_mean():
    assert mean(TIMES) == 32


def test_percentile_nearest_rank():
    assert percentile(TIMES, 30) == 20
    assert percentile(TIMES, 40) == 20
    assert percentile(TIMES, 50) == 35
    assert percentile(TIMES, 100) == 50


def test_percentile_of_nothing():
    with pytest.raises(ValueError):
        percentile([], 50)


def test_summary():
    assert summary(TIMES) == {"mean": 32, "p50": 35, "p95": 50}
