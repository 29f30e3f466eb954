"""Rule project_imports: every module of the project still imports what it imports from the
others. Asked to rename calc to multiply "and update every use", the 1.5B left
`from mathops import calc` in invoice.py and the crew approved a project that no longer imports."""

from agents.rules.static.project_imports import broken_imports
from tests.rule_helpers import scan_with

MATHOPS = "def calc(a, b):\n    return a * b\n"
RENAMED = "def multiply(a, b):\n    return a * b\n"
INVOICE = "from mathops import calc\n\n\ndef total(q, p):\n    return calc(q, p)\n"
REQUEST = "Rename calc to multiply in mathops.py and update every use."


def test_an_import_the_run_broke_is_told() -> None:
    sources = {"mathops.py": RENAMED, "invoice.py": INVOICE}
    problems = scan_with(REQUEST, sources, written=["mathops.py"], originals={"mathops.py": MATHOPS})
    assert [p for p in problems if "no longer defines" in p] == [
        "invoice.py imports calc from mathops, which no longer defines it: update invoice.py (and every"
        " other use of calc) or keep calc in mathops."
    ]


def test_an_import_broken_before_the_run_is_not_the_runs_doing() -> None:
    sources = {"mathops.py": RENAMED, "invoice.py": INVOICE}
    problems = scan_with(
        "Add a docstring to multiply", sources, written=["mathops.py"], originals={"mathops.py": RENAMED}
    )
    assert not [p for p in problems if "no longer defines" in p]


def test_packages_relative_imports_and_star_imports() -> None:
    sources = {
        "shop/__init__.py": "from .prices import price\n",
        "shop/prices.py": "def cost():\n    return 1\n",
        "shop/cart.py": "from . import prices\nfrom shop.prices import cost\n",
        "everything.py": "from helpers import *\n",
        "helpers.py": "X = 1\n",
        "uses.py": "from everything import anything\n",  # a star import may bring anything
    }
    assert broken_imports(sources) == {("shop/__init__.py", "shop.prices", "price")}


def test_switched_off_nothing_is_told() -> None:
    sources = {"mathops.py": RENAMED, "invoice.py": INVOICE}
    problems = scan_with(
        REQUEST,
        sources,
        written=["mathops.py"],
        originals={"mathops.py": MATHOPS},
        without=frozenset({"project_imports"}),
    )
    assert not [p for p in problems if "no longer defines" in p]
