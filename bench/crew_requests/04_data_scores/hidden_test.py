from pathlib import Path

import grades
import pytest

HERE = Path(__file__).parent


def test_the_projects_file():
    assert grades.average_score(str(HERE / "scores.csv")) == pytest.approx(87.5)
    assert grades.top_student(str(HERE / "scores.csv")) == "Guido"


def test_another_file(tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("name,score\nAmy,10\nBob,30\n")
    assert grades.average_score(str(other)) == pytest.approx(20)
    assert grades.top_student(str(other)) == "Bob"
