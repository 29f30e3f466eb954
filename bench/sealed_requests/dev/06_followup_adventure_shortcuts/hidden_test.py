import hashlib
from pathlib import Path

import pytest
from game import Game
from parser import parse
from test_game import test_take, test_walk_and_back  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_game.py": "425f9783f50b1ad2bbea5bd060f5ac92002ba7b16c5bf54adac09b8ccaf5d40f", "rooms.py": "faeef91ff2cb014a1c03f6e984d1deba43f8fa2c3a03d49b6fb23265f99b1e2f", "game.py": "c89c004576868a094802af9bda49268a8950ddc32ed4a62abe0e3182d417fd1a"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize("typed, direction", [("n", "north"), ("s", "south"), ("e", "east"), ("w", "west")])
def test_one_letter_directions(typed, direction):
    assert parse(typed) == ("go", direction)


@pytest.mark.parametrize(
    "typed, expected",
    [("N", ("go", "north")), ("GO North", ("go", "north")), ("Look", ("look", None)), ("W", ("go", "west"))],
)
def test_capitals(typed, expected):
    assert parse(typed) == expected


def test_what_worked_before_still_does():
    assert parse("go east") == ("go", "east")
    assert parse("north") == ("go", "north")
    assert parse("take lamp") == ("take", "lamp")
    assert parse("") == (None, None)
    assert parse("dance") == (None, None)


def test_a_game_with_shortcuts():
    game = Game()
    game.step("N")
    assert game.room == "library"
    game.step("s")
    game.step("e")
    assert game.room == "kitchen"
