"""Rule pasted_tests: a product module does not gain the tests' code (an IDE session with the 0.5B,
asked to "print total with two decimals", kept a round whose ledger.py held copies of
tests/test_ledger.py's test_total() and make(), and no check said anything)."""

from tests.rule_helpers import scan_with

ASK = "print total with two decimals"
LEDGER = "def total(entries):\n    return sum(e['amount'] for e in entries)\n"
TESTS = (
    "from ledger import total\n\n\n"
    "def make(*amounts):\n    return [{'amount': a} for a in amounts]\n\n\n"
    "def test_total():\n    assert total(make(1, 2.5)) == 3.5\n"
)
PASTED = (
    LEDGER + "\n\ndef make(*amounts):\n    return [{'amount': a} for a in amounts]\n\n\n"
    "def test_total():\n    '''The sum.'''\n    assert total(make(1, 2.5)) == 3.5\n"
)
MAIN = "from ledger import total\n\nprint(f'{total([]):.2f}')\n"


def _project(ledger: str, **more: str) -> dict[str, str]:
    return {"ledger.py": ledger, "main.py": MAIN, "tests/test_ledger.py": TESTS, **more}


def _told(problems: list[str]) -> list[str]:
    return [p for p in problems if "tests stay in the test files" in p]


def test_the_ide_sessions_ledger_with_the_tests_pasted_in_is_told() -> None:
    problems = scan_with(
        ASK,
        _project(PASTED),
        written=["ledger.py", "main.py"],
        originals={"ledger.py": LEDGER, "main.py": MAIN},
    )
    assert _told(problems) == [
        "ledger.py now holds make(), test_total() from tests/test_ledger.py: tests stay in the test"
        " files; take them out of ledger.py."
    ]


def test_a_test_written_into_a_new_module_is_told_though_no_test_file_holds_it() -> None:
    new = "def test_ledger_total():\n    assert 1 + 1 == 2\n"
    problems = scan_with(
        ASK, _project(LEDGER, **{"check.py": new}), written=["check.py"], originals={"check.py": None}
    )
    assert _told(problems) == [
        "check.py now holds test_ledger_total(): tests stay in the test files; take it out of check.py."
    ]


def _ledger_told(ledger: str) -> list[str]:
    return _told(scan_with(ASK, _project(ledger), written=["ledger.py"], originals={"ledger.py": LEDGER}))


def test_a_helper_named_like_a_tests_one_with_its_own_code_is_not_told() -> None:
    copied = LEDGER + "\n\ndef make(*amounts):\n    return [{'amount': a} for a in amounts]\n"
    assert _ledger_told(copied) == [
        "ledger.py now holds make() from tests/test_ledger.py: tests stay in the test files; take it"
        " out of ledger.py."
    ]
    own = LEDGER + "\n\ndef make(amount, note=''):\n    return {'amount': amount, 'note': note}\n"
    assert not _ledger_told(own)
    # a test_ name that tests nothing (no assert) is the product's own function
    assert not _ledger_told(LEDGER + "\n\ndef test_connection(host):\n    return bool(host)\n")


def test_tests_in_a_test_file_what_was_there_before_and_a_file_named_for_tests_are_not_told() -> None:
    assert _ledger_told(PASTED)  # the same code in ledger.py is told
    more = TESTS + "\n\ndef test_two_decimals():\n    assert f'{total(make(1)):.2f}' == '1.00'\n"
    tests_written = scan_with(
        ASK, _project(LEDGER, **{"tests/test_ledger.py": more}), written=["tests/test_ledger.py"],
        originals={"tests/test_ledger.py": TESTS},
    )  # fmt: skip
    assert not _told(tests_written)
    assert not _told(scan_with(ASK, _project(PASTED), written=["ledger.py"], originals={"ledger.py": PASTED}))
    named = scan_with(
        "Write tests for total in checks.py",
        _project(LEDGER, **{"checks.py": PASTED}), written=["checks.py"], originals={"checks.py": None},
    )  # fmt: skip
    assert not _told(named)


def test_switched_off_nothing_is_told() -> None:
    assert _ledger_told(PASTED)
    off = scan_with(
        ASK,
        _project(PASTED),
        written=["ledger.py"],
        originals={"ledger.py": LEDGER},
        without=frozenset({"pasted_tests"}),
    )
    assert not _told(off)
