"""--reviewer-model: the reviewer's turns go to the second model, the coder's to the first."""

from pathlib import Path

from agents.crew_factory import build_crew
from agents.events import EventBus
from agents.run.runner import CrewSettings
from tests.crew_script import checks, files
from tests.scripted_engine import ScriptedEngine, by_agent

GOOD = "def add(a, b):\n    return a + b\n"


def test_the_reviewer_engine_answers_the_reviewers_turns_only(tmp_path: Path) -> None:
    coder = ScriptedEngine(by_agent(coder=[files(("calc.py", GOOD))]))
    reviewer = ScriptedEngine(by_agent(reviewer=[checks("assert add(2, 3) == 5")]))
    crew = build_crew(coder, tmp_path, EventBus(), CrewSettings(rounds=1), reviewer_engine=reviewer)
    summary = crew.run("Write calc.py with add(a, b) that returns the sum.")
    assert summary.approved, summary.message
    assert [c.agent for c in coder.calls] == ["coder"]
    assert [c.agent for c in reviewer.calls] == ["reviewer"]


def test_bench_humaneval_gives_the_reviewers_turns_to_the_reviewer_model() -> None:
    from bench.humaneval.modes import solve_crew
    from models.chat_engine import GenerationSettings

    problem = {"prompt": 'def add(a, b):\n    """Return the sum of a and b."""\n', "entry_point": "add"}
    coder = ScriptedEngine(by_agent(coder=[files(("solution.py", GOOD))]))
    reviewer = ScriptedEngine(by_agent(reviewer=[checks("assert add(2, 3) == 5")]))
    solution = solve_crew(coder, problem, GenerationSettings(temperature=0.0), rounds=1, reviewer=reviewer)
    assert "return a + b" in solution.program
    assert {c.agent for c in coder.calls} == {"coder"}
    assert [c.agent for c in reviewer.calls] == ["reviewer"]
