"""Rule unbound_names: a name the new code reads that nothing binds, with the import that would."""

from tests.rule_helpers import scan_with

SIGNUP = "def signup(address):\n    return is_email(address)\n"
VALIDATORS = "def is_email(text):\n    return '@' in text\n"


def test_a_name_nothing_binds_is_told_with_the_import_that_would() -> None:
    problems = scan_with(
        "Write signup.py", {"signup.py": SIGNUP, "validators.py": VALIDATORS}, written=["signup.py"]
    )
    assert problems == [
        "signup.py uses is_email without defining or importing it (from validators import is_email)."
    ]


def test_a_name_unbound_before_the_run_is_not_the_runs_doing() -> None:
    sources = {"signup.py": SIGNUP}
    assert scan_with("Fix signup.py", sources, originals={"signup.py": SIGNUP}) == []


def test_switched_off_nothing_is_told() -> None:
    sources = {"signup.py": SIGNUP, "validators.py": VALIDATORS}
    assert (
        scan_with("Write signup.py", sources, written=["signup.py"], without=frozenset({"unbound_names"}))
        == []
    )
