"""One real crew run on the default coder, Qwen2.5-Coder-0.5B: structure only, never its words."""

from pathlib import Path

from agents.events import CheckRun, EventBus, FileChanged, RunFinished
from agents.run.runner import CrewRunner, CrewSettings
from models.engine import Engine


def test_an_edit_on_the_coder_keeps_the_other_functions_and_runs_its_checks(
    coder_engine: Engine, tmp_path: Path
) -> None:
    source = "def area(w, h):\n    return w + h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
    (tmp_path / "shapes.py").write_text(source)
    bus = EventBus()
    summary = CrewRunner(coder_engine, tmp_path, bus, CrewSettings(rounds=1)).run(
        "area() in shapes.py adds instead of multiplying. Fix it."
    )
    assert summary.completed and summary.rounds_used == 1
    assert isinstance(bus.history[-1], RunFinished)
    # Whatever the model wrote, nothing it was not asked to remove is gone, and the file is the one named.
    assert "def perimeter(" in (tmp_path / "shapes.py").read_text()
    assert {e.path for e in bus.history if isinstance(e, FileChanged)} <= {"shapes.py"}
    if summary.files_changed:
        assert any(isinstance(e, CheckRun) for e in bus.history)
