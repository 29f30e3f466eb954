"""Rule project_calls: every call of a project function, outside the user's tests, still fits its
parameters after the run. Asked to make reminder_text take one invoice dict "and fix the code that
calls it", the 0.5B changed a caller and not the function (sealed dev 11), and the crew approved:
every module still imported and the project's tests did not call that path. Here the other way
round: the function changed, cli.py left passing three arguments."""

import ast

from agents.rules.static.project_calls import binds, broken_calls
from tests.rule_helpers import scan_with

OLD = "def reminder_text(customer, amount, days_late):\n    return f'{customer}: {amount} ({days_late})'\n"
NEW = "def reminder_text(invoice):\n    return f\"{invoice['customer']}: {invoice['amount']}\"\n"
CLI = (
    "from reminders import reminder_text\n\n\n"
    "def main(rows):\n    for c, a, d in rows:\n        print(reminder_text(c, a, d))\n"
)
FIXED_CLI = CLI.replace("reminder_text(c, a, d)", "reminder_text({'customer': c, 'amount': a})")
TEST = "from reminders import reminder_text\n\n\ndef test_text():\n    assert reminder_text('A', 1, 2)\n"
REQUEST = "change reminder_text so it takes one invoice dict instead of three arguments, and fix the callers"


def _problems(sources: dict[str, str], originals: dict[str, str | None], **kwargs) -> list[str]:
    problems = scan_with(REQUEST, sources, written=list(originals), originals=originals, **kwargs)
    return [p for p in problems if "does not fit" in p]


def test_a_caller_the_run_left_behind_is_told() -> None:
    sources = {"reminders.py": NEW, "cli.py": CLI}
    assert _problems(sources, {"reminders.py": OLD}) == [
        "cli.py calls reminder_text(c, a, d), which does not fit reminder_text(invoice) in reminders:"
        " make every call of reminder_text and its definition agree."
    ]


def test_a_caller_changed_without_its_function_is_told_too() -> None:
    [problem] = _problems({"reminders.py": OLD, "cli.py": FIXED_CLI}, {"cli.py": CLI})
    assert problem.startswith("cli.py calls reminder_text({'customer': c, 'amount': a}), which does not fit")
    assert "reminder_text(customer, amount, days_late)" in problem


def test_callers_updated_with_it_and_the_rule_switched_off_are_quiet() -> None:
    assert _problems({"reminders.py": NEW, "cli.py": FIXED_CLI}, {"reminders.py": OLD, "cli.py": CLI}) == []
    off = frozenset({"project_calls"})
    assert _problems({"reminders.py": NEW, "cli.py": CLI}, {"reminders.py": OLD}, without=off) == []


def test_the_users_tests_are_not_callers_and_old_breaks_are_not_the_runs() -> None:
    # A test calling the old way fails in the tests' run; the coder is not sent to edit it.
    assert _problems({"reminders.py": NEW, "test_reminders.py": TEST}, {"reminders.py": OLD}) == []
    # A call that did not fit before the run is not the run's doing.
    assert _problems({"reminders.py": NEW, "cli.py": CLI}, {"reminders.py": NEW}) == []


def test_module_calls_and_aliases_are_followed() -> None:
    sources = {
        "geo.py": "def distance(a, b):\n    return 0\n\n\ndef near(a, b):\n"
        "    return distance(a, b, 1) < 5\n",
        "routes.py": "import geo\nfrom geo import distance as d\n\n\ndef length(p):\n"
        "    return geo.distance(p[0], p[1], p[2], p[3]) + d(p[0], b=p[1])\n",
        "shadow.py": "from geo import distance\n\n\ndef distance(x):\n    return x\n\n\nprint(distance(1))\n",
        "local.py": "from geo import distance\n\n\ndef walk(distance, geo):\n"
        "    return distance(1, 2, 3) + geo.distance(1)\n",
    }
    assert {(rel, call) for rel, _, call, _ in broken_calls(sources)} == {
        ("geo.py", "distance(a, b, 1)"),
        ("routes.py", "geo.distance(p[0], p[1], p[2], p[3])"),
    }


def _why(signature: str, call: str) -> str | None:
    function = ast.parse(f"def f{signature}:\n    pass\n").body[0]
    return binds(function.args, ast.parse(call).body[0].value)


def test_binding_follows_pythons_rules() -> None:
    assert _why("(a, b=1, *, c, d=2)", "f(1, c=3)") is None
    assert _why("(a, b=1, *, c, d=2)", "f(1)") == "missing c"
    assert _why("(a, /, b)", "f(a=1, b=2)") == "no parameter a"
    assert _why("(a, b)", "f(1, a=2)") == "a given twice"
    assert _why("(a)", "f(1, 2)") == "2 positional arguments for 1"
    assert _why("(*args, **kwargs)", "f(1, 2, x=3)") is None
    assert _why("(a, b)", "f(*pair)") is None  # cannot be told without running it
