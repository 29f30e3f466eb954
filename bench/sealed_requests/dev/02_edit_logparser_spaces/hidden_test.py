import hashlib
from pathlib import Path

import cli
import stats
from logparse import parse_file, parse_line
from test_stats import test_count_by_level, test_first_error  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_stats.py": "0beab2405ceaae8066870cea4cc2ef8d5fc4cfddc853aa06dc5ab1057d007a1d", "app.log": "bae9892597ef0f51505819cfe5f65d602bc016c89e49f18c684f32a0ed85796f", "stats.py": "640c3d518113592221013079c3f14650075aa33d4a3369a552c671a35bd65ec3"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_a_plain_line_parses_as_before():
    entry = parse_line("2024-03-01 12:00:01 INFO server started\n")
    assert entry["timestamp"] == "2024-03-01 12:00:01"
    assert entry["level"] == "INFO"
    assert entry["message"].strip() == "server started"


def test_extra_spaces_and_tabs():
    entry = parse_line("2024-03-01  12:00:05   WARNING\t disk at 85%\n")
    assert entry["timestamp"] == "2024-03-01 12:00:05"
    assert entry["level"] == "WARNING"
    assert entry["message"].strip() == "disk at 85%"
    assert not entry["message"].endswith("\n")


def test_blank_lines_are_none():
    assert parse_line("") is None
    assert parse_line("\n") is None
    assert parse_line("   \t \n") is None


def test_the_whole_log_parses_and_the_cli_runs(capsys):
    entries = parse_file(str(HERE / "app.log"))
    assert [e["level"] for e in entries] == ["INFO", "WARNING", "ERROR", "INFO"]
    assert stats.count_by_level(entries) == {"INFO": 2, "WARNING": 1, "ERROR": 1}
    assert cli.main([str(HERE / "app.log")]) == 0
    assert "disk full" in capsys.readouterr().out
