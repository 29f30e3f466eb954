"""bench.judged_fix: each task's test fails as given and passes with the one-word fix, and a run
counts as solved only when the project's whole suite passes afterwards."""

from pathlib import Path

import pytest

from bench.judged_fix import TASKS, Task, run_once
from tests.crew_script import files
from tests.scripted_engine import ScriptedEngine, by_agent
from tools.sandbox import RunLimits, run_pytest


def _fixed(task: Task) -> dict[str, str]:
    return {
        rel: text.replace(" = x\n", " += x\n")
        .replace(" = price\n", " += price\n")
        .replace("total = entry.amount\n", "total += entry.amount\n")
        for rel, text in task.files.items()
    }


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_each_task_fails_as_given_and_passes_fixed(tmp_path: Path, task: Task) -> None:
    for folder, contents in (("given", task.files), ("fixed", _fixed(task))):
        (tmp_path / folder).mkdir()
        for rel, text in contents.items():
            (tmp_path / folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / folder / rel).write_text(text)
    assert run_pytest(tmp_path / "given", ".", limits=RunLimits(wall_s=120)).exit_code == 1
    assert run_pytest(tmp_path / "fixed", ".", limits=RunLimits(wall_s=120)).exit_code == 0


def test_a_run_is_solved_only_when_the_suite_passes_after_it() -> None:
    task = TASKS[0]
    code = next(rel for rel in task.files if not rel.startswith("test_"))
    right = files((code, _fixed(task)[code]))
    wrong = files((code, task.files[code].replace(" = x\n", " -= x\n")))
    engine = ScriptedEngine(by_agent(coder=[right] * 4))
    solved = run_once(engine, task, way="search", seed=42, rounds=1)  # type: ignore[arg-type]
    assert solved["solved"] and solved["approved"] and solved["candidates_tried"] == 1
    engine = ScriptedEngine(by_agent(coder=[wrong] * 4))
    failed = run_once(engine, task, way="old", seed=42, rounds=1)  # type: ignore[arg-type]
    assert not failed["solved"] and failed["candidates_tried"] == 0
