import hashlib
from pathlib import Path

import cli
from test_cleaning import test_normalize, test_sentences  # noqa: F401
from textstats import average_word_length, top_words, word_count

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_cleaning.py": "5f23f6c103b5b1e0526daddadbed1265232cb2382b0eb2e3da3529aa11eecf69", "cleaning.py": "03809aa80a6e1c125fdff910eefd7691a80e5c2f1d1d439b6542a69730cdc222"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_case_and_punctuation_are_ignored():
    text = "The cat sat. the CAT ran! The end, the END."
    top = top_words(text, 3)
    assert top[0] == ("the", 4)
    assert set(top[1:]) == {("cat", 2), ("end", 2)}


def test_the_order_is_most_common_first():
    assert top_words("b a b, c B. a", 2) == [("b", 3), ("a", 2)]
    assert top_words("", 3) == []


def test_the_rest_still_works(tmp_path, capsys):
    assert word_count("a b  c") == 3 and average_word_length("ab abcd") == 3
    path = tmp_path / "t.txt"
    path.write_text("Dogs bark. dogs RUN!")
    assert cli.main([str(path)]) == 0
    assert "2 dogs" in capsys.readouterr().out
