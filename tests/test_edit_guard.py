"""A coder's write that would drop functions the request did not ask to drop is refused."""

from pathlib import Path

import agents.llm.crewai_setup  # noqa: F401
from agents.events import EventBus, FileChanged, ToolCallFailed
from agents.request import RequestFacts, asks_to_change
from agents.rules.write.edit_guard import lost_definitions
from agents.run.crew_tools import ToolContext, WriteFileTool
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

MATHX = """def mean(xs):
    return sum(xs) / (len(xs) + 1)


def square(x):
    return x * x


class Stats:
    def total(self, xs):
        return sum(xs)

    def count(self, xs):
        return len(xs)
"""
MEAN_ONLY = "def mean(xs):\n    if not xs:\n        raise ValueError('empty')\n    return sum(xs) / len(xs)\n"


def test_names_dropped_by_a_rewrite() -> None:
    assert lost_definitions(MATHX, MEAN_ONLY) == ["square", "Stats", "Stats.total", "Stats.count"]
    assert lost_definitions(MATHX, MATHX.replace("+ 1", "")) == []
    assert lost_definitions(MATHX, MATHX.replace("def count", "def size")) == ["Stats.count"]


def test_a_dropped_main_block_is_lost_unless_asked() -> None:
    script = MATHX + '\n\nif __name__ == "__main__":\n    print(mean([1, 2]))\n'
    assert lost_definitions(script, MATHX) == ["__main__"]
    assert lost_definitions(script, script.replace("[1, 2]", "[3]")) == []
    assert lost_definitions(MATHX, script) == []  # added, not lost
    assert (
        lost_definitions(script, MATHX, RequestFacts.read("Delete the main block at the end of mathx.py"))
        == []
    )


def test_a_rewrite_that_does_not_parse_is_still_compared_at_the_top_level() -> None:
    assert lost_definitions(MATHX, "def mean(xs):\n    return (\n") == ["square", "Stats"]


def test_the_request_may_ask_to_remove_or_rename() -> None:
    assert (
        lost_definitions(
            MATHX, MATHX.replace("def square", "def sq"), RequestFacts.read("rename square to sq")
        )
        == []
    )
    assert lost_definitions(MATHX, MEAN_ONLY, RequestFacts.read("Remove square and the Stats class")) == [
        "Stats.total",
        "Stats.count",
    ]
    # Renamed, a definition stays where it was: moved into a class, its callers break.
    as_method = MATHX.replace("def square(x)", "def _gone(x)").replace(
        "    def count(self, xs):", "    def sq(self, x):\n        return x * x\n\n    def count(self, xs):"
    )
    assert lost_definitions(
        MATHX, as_method.replace("def _gone", "def other"), RequestFacts.read("Rename square to sq")
    ) == ["square"]
    assert (
        lost_definitions(
            MATHX,
            MATHX.replace("class Stats", "class Numbers"),
            RequestFacts.read("rename class Stats to Numbers"),
        )
        == []
    )
    assert (
        lost_definitions(
            MATHX, MATHX.replace("def total", "def sum_of"), RequestFacts.read("rename Stats.total to sum_of")
        )
        == []
    )
    # Mentioning a name without asking to drop anything does not allow dropping it.
    assert lost_definitions(MATHX, MEAN_ONLY, RequestFacts.read("fix mean, square is fine")) != []


def _write(tmp_path: Path, request: str, content: str) -> tuple[str, ToolContext]:
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=2.0), request=request)
    return WriteFileTool().bind(context).run(path="mathx.py", content=content), context


def test_the_write_tool_refuses_a_lossy_rewrite_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MATHX)
    # It does not parse, so it cannot be applied function by function either.
    result, context = _write(tmp_path, "Fix mean() in mathx.py", MEAN_ONLY + "def broken(:\n")
    assert result.startswith("Error: not written") and "square" in result and "Stats" in result
    assert (tmp_path / "mathx.py").read_text() == MATHX
    assert not any(isinstance(e, FileChanged) for e in context.bus.history)
    assert any(isinstance(e, ToolCallFailed) for e in context.bus.history)


def test_the_write_tool_applies_a_partial_answer_in_place(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MATHX)
    result, context = _write(tmp_path, "Fix mean() in mathx.py", MEAN_ONLY + "\n\nprint(mean([]))\n")
    assert result.startswith("modified mathx.py") and "edited in place" in result
    expected = MEAN_ONLY + MATHX[MATHX.index("\n\ndef square") :]
    assert (tmp_path / "mathx.py").read_text() == expected  # the rest byte for byte, no example print
    [changed] = [e for e in context.bus.history if isinstance(e, FileChanged)]
    assert "-    return sum(xs) / (len(xs) + 1)" in changed.diff and "\n-def square" not in changed.diff


def test_the_write_tool_takes_an_edit_that_keeps_everything(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MATHX)
    fixed = MATHX.replace("return sum(xs) / (len(xs) + 1)", "return sum(xs) / len(xs)")
    result, _ = _write(tmp_path, "Fix mean() in mathx.py", fixed)
    assert result.startswith("modified mathx.py")
    assert (tmp_path / "mathx.py").read_text() == fixed


def test_a_rewrite_that_drops_module_data_keeps_it(tmp_path: Path) -> None:
    todo = "ITEMS = []\n\n\ndef add(item):\n    ITEMS.append(item)\n\n\ndef count():\n    return len(ITEMS)\n"
    (tmp_path / "todo.py").write_text(todo)
    # Every function there, ITEMS gone: as the 0.5B rewrote a to-do module in the IDE.
    rewrite = "def add(item):\n    ITEMS.append(item.strip())\n\n\ndef count():\n    return len(ITEMS)\n"
    context = ToolContext(
        WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=2.0), request="Strip items in add"
    )
    result = WriteFileTool().bind(context).run(path="todo.py", content=rewrite)
    assert "edited in place" in result
    text = (tmp_path / "todo.py").read_text()
    assert text.startswith("ITEMS = []\n") and "item.strip()" in text


def test_a_rename_that_moves_a_function_into_a_class_is_refused_with_where_it_belongs(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MATHX)
    moved = MATHX.replace("def square(x):\n    return x * x\n\n\n", "").replace(
        "    def count(self, xs):", "    def sq(self, x):\n        return x * x\n\n    def count(self, xs):"
    )
    result, _ = _write(tmp_path, "In mathx.py, rename square to sq", moved)
    assert result.startswith("Error: not written") and "at the top level" in result and "sq" in result
    assert (tmp_path / "mathx.py").read_text() == MATHX
    result, _ = _write(tmp_path, "In mathx.py, rename square to sq", MATHX.replace("def square", "def sq"))
    assert result.startswith("modified mathx.py")


CONFIG = '{\n  "host": "localhost",\n  "port": 8080\n}\n'


def _write_config(tmp_path: Path, request: str, content: str) -> str:
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=2.0), request=request)
    return WriteFileTool().bind(context).run(path="config.json", content=content)


def test_a_data_file_the_request_only_reads_is_not_rewritten(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(CONFIG)
    reads = "Write settings.py with get_port(path) that reads a JSON file. The settings are in config.json."
    # The 1.5B wrote config.json back beside its code: a copy is let be, a changed copy refused.
    assert _write_config(tmp_path, reads, CONFIG.rstrip()).startswith("left config.json as it was")
    result = _write_config(tmp_path, reads, CONFIG.replace("8080", "8000"))
    assert result.startswith("Error: not written") and "does not ask to change it" in result
    assert (tmp_path / "config.json").read_text() == CONFIG
    changed = _write_config(tmp_path, "Set the port in config.json to 8000.", CONFIG.replace("8080", "8000"))
    assert changed.startswith("modified config.json")
    assert (tmp_path / "config.json").read_text() == CONFIG.replace("8080", "8000")


def test_which_clauses_ask_to_change_a_file() -> None:
    assert not asks_to_change("scores.csv has a header line. Write grades.py that reads it.", "scores.csv")
    assert not asks_to_change("Write sales.py that reads a file like sales.csv and adds it up", "sales.csv")
    assert asks_to_change("In config.json, set the port to 9000", "config.json")
    assert asks_to_change("Update the README with the usage", "README.md")
    assert asks_to_change("Fix the typo in data/names.csv", "data/names.csv")
    # Told to leave it: the sealed dev set's "(don't edit config.json, other machines have …)".
    assert not asks_to_change("fall back to DEFAULTS. (don't edit config.json, others differ)", "config.json")
    assert not asks_to_change("Never change scores.csv; fix grades.py", "scores.csv")


def test_a_test_named_after_the_renamed_function_may_take_the_new_name() -> None:
    test = "from mathops import calc\n\n\ndef test_calc():\n    assert calc(2, 3) == 6\n"
    renamed = test.replace("calc", "multiply")
    assert lost_definitions(test, renamed, RequestFacts.read("Rename calc to multiply")) == []
    assert lost_definitions(
        test, renamed.replace("test_multiply", "test_other"), RequestFacts.read("Rename calc to multiply")
    ) == ["test_calc"]
    assert lost_definitions(test, renamed, RequestFacts.read("Make calc faster")) == ["test_calc"]
