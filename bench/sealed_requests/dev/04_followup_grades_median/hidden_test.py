import hashlib
from pathlib import Path

import pytest
import report
from grades import average, letter, median
from test_grades import test_average, test_average_of_nothing, test_letter  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_grades.py": "a13a26d78d275d6d7503576b8258b917236d17be237ad33721ea396680dad7db", "students.py": "06ccedcc17a1b54c96b74a9c6f43b39a45ef2ce77f78bd7afad118dd8f585577", "report.py": "6e6fea81fcd03134ad9cbf905341c92383396f5243e703be002e29c2f1d01bc3"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_median():
    assert median([70, 90, 80]) == 80
    assert median([4, 1, 3, 2]) == pytest.approx(2.5)
    assert median([5]) == 5


def test_median_does_not_reorder_the_list():
    scores = [3, 1, 2]
    median(scores)
    assert scores == [3, 1, 2]


def test_none_is_skipped():
    assert median([90, None, 70, 80]) == 80
    assert median([None, 2, 4]) == pytest.approx(3)
    assert average([80, None, 90]) == pytest.approx(85)


def test_the_report_still_works():
    assert "Cleo: 90.7 (A)" in report.class_report()
    assert letter(average([60, None])) == "D"
