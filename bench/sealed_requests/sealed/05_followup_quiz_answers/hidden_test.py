import hashlib
from pathlib import Path

import pytest
from play import play
from quiz import Quiz
from test_quiz import test_right_and_wrong, test_unanswered  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_quiz.py": "45e7613dfd8b12389699efdcac81f076794fc94218e8b6c0260971cbe2a3cd4f", "questions.py": "d0db27374839c537c02229dfd66a3b0e1b109cde36ab2772a50d10010ccd5d57", "play.py": "2a6c0dea3ddc0a4a518dedb9b5074e5d2e35a81bc7edaf55a8eb54450a5d664b"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_case_and_spaces_are_ignored():
    quiz = Quiz([("Capital of France?", "Paris")])
    assert quiz.answer(0, "paris")
    assert quiz.answer(0, "  PARIS ")
    assert not quiz.answer(0, "Lyon")


def test_several_right_answers():
    quiz = Quiz([("Biggest US city?", ["New York", "NYC"]), ("2+2?", "4")])
    assert quiz.answer(0, "nyc")
    assert quiz.answer(0, " New York")
    assert not quiz.answer(0, "Boston")
    assert quiz.answer(1, "4") and not quiz.answer(1, "5")


def test_score_is_a_percentage():
    assert play(["Paris", "nile", "LA", "Tokyo"]).score() == pytest.approx(75.0)
    assert play(["paris", "Amazon", "x"]).score() == pytest.approx(25.0)
    quiz = Quiz([("a", "1"), ("b", "2"), ("c", "3")])
    quiz.answer(0, "1")
    assert quiz.score() == pytest.approx(33.3)
    quiz.answer(1, "2")
    quiz.answer(2, "3")
    assert quiz.score() == pytest.approx(100.0)
