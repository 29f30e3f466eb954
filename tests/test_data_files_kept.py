"""Rule data_files_kept: a data file the request does not ask to change is never rewritten."""

from pathlib import Path

from tests.rule_helpers import write_with

CONFIG = '{"port": 8080, "debug": false}\n'


def test_a_data_file_the_request_only_reads_is_refused_and_left_whole(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(CONFIG)
    answer, after = write_with(
        tmp_path, "config.json", '{"port": 80}\n', "Write get_port() that reads config.json."
    )
    assert answer.startswith("Error") and "holds the user's data" in answer
    assert after == CONFIG


def test_a_data_file_the_request_asks_to_change_is_written(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(CONFIG)
    answer, after = write_with(
        tmp_path, "config.json", '{"port": 80}\n', "Change the port in config.json to 80."
    )
    assert not answer.startswith("Error") and after == '{"port": 80}\n'


def test_switched_off_the_data_file_is_rewritten(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(CONFIG)
    request = "Write get_port() that reads config.json."
    answer, after = write_with(
        tmp_path, "config.json", '{"port": 80}\n', request, frozenset({"data_files_kept"})
    )
    assert not answer.startswith("Error") and after == '{"port": 80}\n'
