"""The crew's prompt texts and the parsing of what the agents reply."""

import json

from agents.roles import VERDICT_EXAMPLE, is_example_fix, parse_plan, parse_verdict

EXAMPLE_FIX = json.loads(VERDICT_EXAMPLE)["fixes"][0]


def test_a_review_that_copies_the_charters_example_fix_loses_that_fix() -> None:
    raw = json.dumps({"approved": False, "fixes": [EXAMPLE_FIX.upper() + ".", "countdown.py: print 5 to 1"]})
    verdict = parse_verdict(raw)
    assert not verdict.approved
    assert verdict.fixes == ["countdown.py: print 5 to 1"]


def test_only_the_example_itself_is_dropped() -> None:
    assert is_example_fix(f"  {EXAMPLE_FIX}  ")
    assert not is_example_fix("greet.py: return the greeting, do not print it")  # a real greet.py review
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
