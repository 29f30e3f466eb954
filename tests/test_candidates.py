"""Rule candidates: a sampled retry decodes several candidates together (the engine's
complete_many) and tries each in turn until one passes; the retries left are done that many at a
time; among tries that fail alike, the one the others agree with is kept."""

from pathlib import Path

from agents.events import EventBus, Notice
from agents.rules.registry import RuleSwitches
from agents.run.runner import CrewRunner, CrewSettings
from agents.run.versions import Version, best
from tests.crew_script import files
from tests.scripted_engine import ScriptedEngine, by_agent
from tools.sandbox import RunLimits

REQUEST = "Write calc.py with add(a, b) and print add(2, 3)."
SILENT = "def add(a, b):\n    return a + b\n"  # prints nothing: fails the run check
WRONG = "def add(a, b):\n    return a - b\n\n\nprint(add(2, 3))\n"
RIGHT = "def add(a, b):\n    return a + b\n\n\nprint(add(2, 3))\n"


def _run(tmp_path: Path, replies: list[str], candidates: int, without: frozenset[str] = frozenset()):
    engine = ScriptedEngine(by_agent(coder=replies))
    bus = EventBus()
    off = without | {"reviewer_checks", "plain_retry"}
    settings = CrewSettings(
        rounds=3, candidates=candidates, rules=RuleSwitches(off), limits=RunLimits(wall_s=60)
    )
    summary = CrewRunner(engine, tmp_path, bus, settings).run(REQUEST)
    return summary, bus, engine


def test_a_retry_decodes_its_candidates_together_and_keeps_the_one_that_passes(tmp_path: Path) -> None:
    summary, bus, engine = _run(
        tmp_path, [files(("calc.py", SILENT)), files(("calc.py", SILENT)), files(("calc.py", RIGHT))], 2
    )
    assert summary.approved, summary.message
    assert (tmp_path / "calc.py").read_text() == RIGHT
    first, *batch = engine.calls_of("coder")
    assert len(batch) == 2 and batch[0].messages == batch[1].messages  # one prompt, two samples
    assert batch[0].gen.seed != batch[1].gen.seed and all(c.gen.temperature > 0 for c in batch)
    assert first.gen.temperature == 0
    assert any("Decoding 2 candidates together" in e.message for e in bus.history if isinstance(e, Notice))
    # Two sampled retries were left: one batch of two covers them.
    assert summary.rounds_used == 2


def test_one_candidate_at_a_time_without_the_rule(tmp_path: Path) -> None:
    replies = [files(("calc.py", SILENT)), files(("calc.py", SILENT)), files(("calc.py", RIGHT))]
    summary, _, engine = _run(tmp_path, replies, 2, frozenset({"candidates"}))
    assert summary.approved and summary.rounds_used == 3
    retries = engine.calls_of("coder")[1:]  # one at a time, each with a seed of its own
    assert len(retries) == 2 and retries[0].gen.seed != retries[1].gen.seed


def test_the_candidates_seeds_are_those_of_the_retries_they_replace(tmp_path: Path) -> None:
    replies = [files(("calc.py", SILENT))] * 3
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, _, batched = _run(tmp_path / "a", replies, 2)
    _, _, sequential = _run(tmp_path / "b", replies, 1)
    assert [c.gen.seed for c in batched.calls_of("coder")] == [
        c.gen.seed for c in sequential.calls_of("coder")
    ]


def test_among_tries_that_fail_alike_the_one_others_agree_with_wins() -> None:
    lone = Version(2, (0, 0, 1, 0), {"a.py": "1"}, [], ("assert f(1) == 2 (got 3)",))
    pair = [Version(2, (0, 0, 1, 0), {"a.py": str(n)}, [], ("assert f(1) == 2 (got 5)",)) for n in (2, 3)]
    assert best([lone, *pair]) is pair[0]
    assert best([lone]) is lone
