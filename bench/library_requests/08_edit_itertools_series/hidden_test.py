import itertools

import pytest
import series


def test_running_total():
    assert list(series.running_total([1, 2, 3, 4])) == [1, 3, 6, 10]
    assert list(series.running_total([5])) == [5]
    assert list(series.running_total([])) == []


def test_runs():
    assert [tuple(r) for r in series.runs([1, 1, 2, 2, 2, 1, 3, 3])] == [(1, 2), (2, 3), (1, 1), (3, 2)]
    assert [tuple(r) for r in series.runs("aab")] == [("a", 2), ("b", 1)]
    assert list(series.runs([])) == []


def test_first_even_takes_from_an_endless_iterable():
    assert list(series.first_even(itertools.count(1), 3)) == [2, 4, 6]
    assert list(series.first_even([1, 3, 4, 5, 8, 10], 2)) == [4, 8]
    assert list(series.first_even(iter([2, 1]), 5)) == [2]


def test_the_other_functions_stay():
    assert series.mean([1, 2, 3]) == pytest.approx(2)
    assert series.deltas([1, 4, 9]) == [3, 5]
    assert series.clip([-1, 5, 11], 0, 10) == [0, 5, 10]
