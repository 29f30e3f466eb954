from pathlib import Path

import longest

HERE = Path(__file__).parent


def test_the_projects_file():
    assert longest.longest_word(str(HERE / "words.txt")) == "pineapple"


def test_first_on_a_tie_and_blank_lines(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("\n  cat \ndog\n\nbird\nfish\n")
    assert longest.longest_word(str(other)) == "bird"
