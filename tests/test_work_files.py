"""Rule work_files: a request naming files may write those it asks to change and the modules they
import; one naming only a test (or a file to leave alone) may write the project's code."""

from pathlib import Path

from agents.request import RequestFacts
from agents.rules.prompt.work_files import work_files
from tests.crew_script import crew, files

PROJECT = {
    "orders.py": "class Order:\n    def calc_total(self):\n        return 1\n",
    "report.py": "from orders import Order\n\n\ndef line(o: Order):\n    return o.calc_total()\n",
    "main.py": "import report\nfrom orders import Order\n\nprint(report.line(Order()))\n",
    "test_orders.py": "from orders import Order\n",
    "config.json": "{}\n",
}


def _allowed(request: str) -> list[str]:
    return work_files(
        RequestFacts.read(request), sorted(PROJECT), lambda names: {n: PROJECT[n] for n in names}
    )


def test_the_modules_the_named_files_import_may_be_written_too() -> None:
    allowed = _allowed("Rename Order.calc_total to total() and update the callers in report.py and main.py.")
    assert allowed == ["report.py", "main.py", "orders.py"]


def test_a_rename_may_write_every_file_that_uses_the_old_name() -> None:
    # orders.py imports neither; main.py only calls report.line, so it is not one of them.
    assert _allowed("Rename calc_total in orders.py to total and update every use.") == [
        "orders.py",
        "report.py",
    ]


def test_a_named_test_the_request_does_not_ask_to_change_limits_nothing() -> None:
    assert _allowed("test_orders.py is failing, can you fix it? the tests are right") == []
    assert _allowed("Fix the test in test_orders.py: it expects the wrong total.") == [
        "test_orders.py",
        "orders.py",
    ]


def test_a_data_file_to_leave_alone_limits_nothing_and_one_to_change_is_a_target() -> None:
    assert _allowed("load_settings crashes: fall back to DEFAULTS (don't edit config.json)") == []
    assert _allowed("Add a debug key to config.json.") == ["config.json"]
    # A data file read by the code asked for stays in view: its rows show the format.
    reads = _allowed("config.json holds the port. Write port.py with get_port().")
    assert reads == ["config.json", "port.py"]


def test_a_new_file_named_is_a_target_and_imports_nothing_yet() -> None:
    assert _allowed("Write hello.py that prints hello.") == ["hello.py"]


CART = "def total(items):\n    return sum(items)\n"
FIXED = "def total(items):\n    return sum(price * qty for price, qty in items)\n"
TEST = "from cart import total\n\n\ndef test_total():\n    assert total([(2.0, 3)]) == 6.0\n"
REQUEST = "test_cart.py is failing, can you fix it? the tests are right, the code is wrong"
OFF = frozenset({"reviewer_checks", "plain_retry", "sampled_retries", "fresh_after_repeat"})


def _fix(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "cart.py").write_text(CART)
    (tmp_path / "test_cart.py").write_text(TEST)
    return crew(tmp_path, REQUEST, coder=[files(("cart.py", FIXED))], without=OFF | without)[0]


def test_asked_to_fix_a_named_failing_test_the_code_it_tests_is_written(tmp_path: Path) -> None:
    summary = _fix(tmp_path, frozenset())
    assert (tmp_path / "cart.py").read_text() == FIXED and summary.approved
    assert (tmp_path / "test_cart.py").read_text() == TEST


def test_switched_off_only_the_test_may_be_written_and_the_fix_is_lost(tmp_path: Path) -> None:
    summary = _fix(tmp_path, frozenset({"work_files"}))
    assert (tmp_path / "cart.py").read_text() == CART and not summary.approved


def test_a_new_test_file_named_is_a_target() -> None:
    assert _allowed("Add median() to orders.py, with a test of it in test_median.py.") == [
        "orders.py",
        "test_median.py",
    ]


def test_a_method_named_with_its_class_and_no_file_means_the_file_that_defines_it() -> None:
    # IDE use: "Add a docstring to Store.remove" was shown the previous run's three files instead.
    assert _allowed("Add a docstring to Order.calc_total saying what it returns.") == ["orders.py"]
    assert _allowed("Add a docstring to Order.missing.") == []  # no such method: no limit, as before
    assert _allowed("Call Order.calc_total in main.py twice.")[0] == "main.py"  # a file named decides


def test_a_new_topic_naming_a_method_is_shown_its_file_not_the_last_runs(tmp_path: Path) -> None:
    for rel, text in PROJECT.items():
        (tmp_path / rel).write_text(text)
    line = PROJECT["report.py"].replace("o.calc_total()", "o.calc_total() + 0")
    crew(tmp_path, "In report.py make line() add zero.", coder=[files(("report.py", line))])
    documented = PROJECT["orders.py"].replace(
        "    def calc_total(self):\n", '    def calc_total(self):\n        """One."""\n'
    )
    _, _, engine = crew(
        tmp_path, "Add a docstring to Order.calc_total.", coder=[files(("orders.py", documented))]
    )
    prompt = engine.calls_of("coder")[0].prompt
    assert "class Order" in prompt.split("Request:")[0]  # orders.py is shown
    assert (tmp_path / "orders.py").read_text() == documented
