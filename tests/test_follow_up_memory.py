"""Rule follow_up_memory: a follow-up is shown the previous request and the files it changed."""

from pathlib import Path

from tests.crew_script import checks, crew, files

STATS = "def mean(xs):\n    return sum(xs) / len(xs)\n"


def _follow_up(tmp_path: Path, without: frozenset[str]) -> str:
    crew(
        tmp_path,
        "Write stats.py with mean(xs).",
        coder=[files(("stats.py", STATS))],
        reviewer=[checks("assert mean([2]) == 2")],
    )
    fixed = STATS.replace("    return", "    if not xs:\n        return 0.0\n    return")
    _, _, engine = crew(
        tmp_path, "Now make it return 0.0 for an empty list.", coder=[files(("stats.py", fixed))],
        reviewer=[checks("assert mean([]) == 0.0")], without=without,
    )  # fmt: skip
    return engine.calls_of("coder")[0].prompt


def test_a_follow_up_is_told_the_previous_request_and_shown_its_file(tmp_path: Path) -> None:
    prompt = _follow_up(tmp_path, frozenset())
    assert "Previous request in this project: Write stats.py with mean(xs)." in prompt
    assert "It changed: stats.py." in prompt


def test_switched_off_the_follow_up_stands_alone(tmp_path: Path) -> None:
    prompt = _follow_up(tmp_path, frozenset({"follow_up_memory", "small_project_files", "retrieved_context"}))
    assert "Previous request" not in prompt and "def mean" not in prompt


def test_a_data_file_named_in_a_follow_up_is_no_new_topic(tmp_path: Path) -> None:
    # In the IDE: "Add that test again, but write the CSV with (tmp_path / 'marks.csv')..." was
    # read as a new topic about marks.csv, and the coder, shown neither the test file nor the
    # previous request, wrote pandas scripts with no file name three rounds running.
    (tmp_path / "marks.csv").write_text("ana,92\n")
    crew(tmp_path, "Write stats.py with mean(xs).", coder=[files(("stats.py", STATS))])
    follow = "Add that check again, but read the numbers from (tmp_path / 'marks.csv')."
    _, _, engine = crew(tmp_path, follow, coder=[files(("stats.py", STATS))])
    prompt = engine.calls_of("coder")[0].prompt
    assert "Previous request in this project: Write stats.py" in prompt and "def mean" in prompt
    new_topic = "Write report.py that prints the numbers in marks.csv."
    _, _, engine = crew(tmp_path, new_topic, coder=[files(("report.py", "print(1)\n"))])
    assert "Previous request" not in engine.calls_of("coder")[0].prompt  # a Python file of its own


def test_a_follow_up_of_a_run_that_wrote_nothing_follows_the_files_that_one_followed(tmp_path: Path) -> None:
    # In the IDE: "Add that test again, but ..." wrote nothing; asked once more, the follow-up of
    # that run had no file to follow, and the coder wrote nameless scripts again.
    crew(tmp_path, "Write stats.py with mean(xs).", coder=[files(("stats.py", STATS))])
    crew(tmp_path, "Now make it return 0.0 for an empty list.", coder=["I cannot do that."])
    _, _, engine = crew(tmp_path, "Try that again.", coder=[files(("stats.py", STATS))])
    prompt = engine.calls_of("coder")[0].prompt
    assert "Previous request in this project: Now make it return 0.0" in prompt
    assert "It changed nothing; it was about: stats.py." in prompt and "def mean" in prompt
