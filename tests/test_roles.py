"""The crew's prompt texts and the parsing of what the agents reply."""

import json
import re

from agents.roles import coder_task, crew_charter, parse_plan, parse_verdict


def test_the_prompts_carry_no_made_up_task_for_a_small_model_to_copy() -> None:
    # greet.py and greet('Ann') from an earlier worked example ended up in users' files.
    prompts = crew_charter() + coder_task("Fix mean() in mathx.py", None, "")
    assert not re.search(r"\b(greet|Ann)\b", prompts)


def test_the_coder_sees_the_file_before_the_request_and_the_instruction_last() -> None:
    task = coder_task(
        "Fix mean() in mathx.py", None, "- mean divides by the wrong count", "mathx.py\n```python\nx\n```"
    )
    assert task.index("mathx.py\n```python") < task.index("Request:") < task.index("divides by")
    assert task.rstrip().endswith("Nothing after the last block.")


def test_a_review_keeps_its_fixes() -> None:
    verdict = parse_verdict(json.dumps({"approved": False, "fixes": ["countdown.py: print 5 to 1"]}))
    assert not verdict.approved and verdict.fixes == ["countdown.py: print 5 to 1"]
    assert parse_verdict('{"approved": true, "fixes": []}').approved


def test_an_unreadable_review_asks_for_a_fix() -> None:
    verdict = parse_verdict("approved, looks fine")
    assert not verdict.approved and verdict.fixes


def test_a_plan_lists_each_step_and_file_once() -> None:
    # As the bundled model planned "Write countdown.py that prints the numbers 5 down to 1."
    raw = (
        '{ "steps": [ "write_countdown.py", "create_countdown.py", "create_countdown.py" ],'
        ' "files": ["countdown.py", "countdown.py", "countdown.py"] }'
    )
    plan = parse_plan(raw)
    assert plan.steps == ["write_countdown.py", "create_countdown.py"]
    assert plan.files == ["countdown.py"]
    assert plan.text().count("countdown.py") == 3
