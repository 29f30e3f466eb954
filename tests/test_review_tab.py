"""The Review tab's actions below the page: the staged files are listed, the chosen one shows its
diff with every hunk ticked, Accept of some hunks writes only those, Reject writes nothing."""

from __future__ import annotations

from pathlib import Path

from gui.review_tab import accept_file, reject_file, reject_run, show_file, waiting_files
from tools.staged_changes import StagedChanges, StagedFile

BASE = "".join(f"line {i}\n" for i in range(1, 21))
PROPOSED = BASE.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n")


def test_review_lists_shows_accepts_some_hunks_and_rejects(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(BASE)
    StagedChanges(tmp_path).stage(
        "Rename two lines", [StagedFile("a.txt", BASE, PROPOSED), StagedFile("n.py", None, "n\n")]
    )
    files = waiting_files(tmp_path)
    assert [label.split(" · ")[0] for label, _key in files] == ["a.txt", "n.py"]
    key = files[0][1]
    text, hunks = show_file(tmp_path, key)
    assert "Rename two lines" in text and "line two" in text and hunks["value"] == [0, 1]
    assert "No hunk is ticked" in accept_file(tmp_path, key, [])
    assert (tmp_path / "a.txt").read_text() == BASE
    assert accept_file(tmp_path, key, [1]).startswith("Accepted a.txt: written (1 of 2 hunks)")
    assert (tmp_path / "a.txt").read_text() == BASE.replace("line 18\n", "line eighteen\n")
    assert reject_file(tmp_path, files[1][1]) == "Rejected `n.py`: the file was not touched."
    assert not (tmp_path / "n.py").exists() and waiting_files(tmp_path) == []


def test_each_hunk_is_named_by_its_line_and_first_change(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(BASE)
    StagedChanges(tmp_path).stage("Rename two lines", [StagedFile("a.txt", BASE, PROPOSED)])
    _text, hunks = show_file(tmp_path, waiting_files(tmp_path)[0][1])
    assert [label for label, _index in hunks["choices"]] == ["line 2: + line two", "line 18: + line eighteen"]


def test_reject_the_run_drops_every_waiting_file_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(BASE)
    StagedChanges(tmp_path).stage(
        "Rename two lines", [StagedFile("a.txt", BASE, PROPOSED), StagedFile("n.py", None, "n\n")]
    )
    key = waiting_files(tmp_path)[1][1]
    message = reject_run(tmp_path, key)
    assert message.startswith("Rejected the run's change") and "a.txt" in message and "n.py" in message
    assert waiting_files(tmp_path) == [] and (tmp_path / "a.txt").read_text() == BASE
    assert not (tmp_path / "n.py").exists()
    assert reject_run(tmp_path, key) == "Choose a staged file first."
