"""Rule plan_retries (off by default): the planner plans each retry."""

import json
from pathlib import Path

from tests.crew_script import crew, files

WRONG = "def add(a, b):\n    return a - b\n"
RIGHT = "def add(a, b):\n    return a + b\n\n\nprint(add(2, 3))\n"
REQUEST = "Write calc.py with add(a, b) and print add(2, 3)."
PLAN = json.dumps({"steps": ["Fix add"], "files": ["calc.py"]})


def test_off_by_default_no_planner_is_asked(tmp_path: Path) -> None:
    _, _, engine = crew(
        tmp_path,
        REQUEST,
        coder=[files(("calc.py", WRONG)), files(("calc.py", RIGHT))] * 2,
        rounds=2,
        without=frozenset({"reviewer_checks"}),
    )
    assert not engine.calls_of("planner")


def test_switched_on_the_planner_plans_the_retry(tmp_path: Path) -> None:
    _, _, engine = crew(
        tmp_path, REQUEST, coder=[files(("calc.py", WRONG)), files(("calc.py", RIGHT))] * 2,
        planner=[PLAN] * 3, rounds=2, without=frozenset({"reviewer_checks", "plain_retry"}),
        with_=frozenset({"plan_retries"}),
    )  # fmt: skip
    assert len(engine.calls_of("planner")) == 1 and "Fix add" in engine.calls_of("coder")[1].prompt
