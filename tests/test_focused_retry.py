"""Rule focused_retry: after an answer that left the files as they were, only the functions at
issue are shown (the 1.5B copied words.py back unchanged three rounds running)."""

from pathlib import Path

from tests.crew_script import crew, files, notices

WORDS = "def count_words(text):\n    return len(text)\n\n\ndef shout(text):\n    return text.upper()\n"
FIXED = WORDS.replace("len(text)", "len(text.split())")
REQUEST = "Make count_words(text) in words.py count words, not characters."


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "words.py").write_text(WORDS)
    return crew(
        tmp_path, REQUEST, coder=[files(("words.py", WORDS)), files(("words.py", FIXED))],
        reviewer=[], rounds=2, without=without | {"plain_retry", "reviewer_checks"},
    )  # fmt: skip


def test_after_an_unchanged_answer_only_the_named_function_is_asked_for(tmp_path: Path) -> None:
    _, bus, engine = _run(tmp_path, frozenset())
    assert any("asking for count_words alone" in n for n in notices(bus))
    second = engine.calls_of("coder")[1].prompt
    assert "def count_words" in second and "def shout" not in second


def test_switched_off_the_whole_file_is_shown_again(tmp_path: Path) -> None:
    _, bus, engine = _run(tmp_path, frozenset({"focused_retry"}))
    assert not any("alone" in n for n in notices(bus))
    assert "def shout" in engine.calls_of("coder")[1].prompt
