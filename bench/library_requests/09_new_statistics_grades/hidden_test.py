import grades
import pytest


def test_summary():
    result = grades.summary([2, 4, 4, 4, 5, 5, 7, 9])
    assert result["mean"] == pytest.approx(5)
    assert result["median"] == pytest.approx(4.5)
    assert result["mode"] == 4
    assert result["pstdev"] == pytest.approx(2.0)
    assert list(result["quartiles"]) == pytest.approx([4.0, 4.5, 6.5])


def test_another_list():
    result = grades.summary([90, 70, 80, 70, 100])
    assert result["mean"] == pytest.approx(82)
    assert result["median"] == pytest.approx(80)
    assert result["mode"] == 70
    assert result["pstdev"] == pytest.approx(11.661903789690601)
    assert list(result["quartiles"]) == pytest.approx([70.0, 80.0, 95.0])


def test_no_scores():
    with pytest.raises(ValueError):
        grades.summary([])
