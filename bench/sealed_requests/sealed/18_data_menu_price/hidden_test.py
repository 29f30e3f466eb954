import csv
import hashlib
from pathlib import Path

import printout
import pytest
from menu import load_menu, vegetarian
from order import bill
from test_order import test_bill, test_tip  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_order.py": "b4ad83839c95a098a451c81aff8c97b1f6b0a23774d20f6faa454c5bf3b6b836", "menu.py": "c72059f3354914a74fb845a3afadc3fbded7a16c91e81fad1fafabc2068cd8bf", "order.py": "5c87648db7a58bf6f95aad47a337c708bfd507fb9a755e8b61dfbe6c35998430", "printout.py": "c009ef49c5d85a2f82d7bdfe05cc4b9b24612f74d7e2953e2a59a3cb7e9b1016"}
EXPECTED = {
    "tomato soup": (4.5, "yes"),
    "club sandwich": (7.9, "no"),
    "caesar salad": (8.2, "no"),
    "falafel wrap": (6.5, "yes"),
    "apple pie": (3.8, "yes"),
}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_every_price_in_the_file_is_a_number_and_nothing_else_changed():
    with open(HERE / "menu.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["dish"]: (float(r["price"]), r["vegetarian"]) for r in rows} == EXPECTED
    assert [r["dish"] for r in rows] == list(EXPECTED)


def test_the_menu_loads():
    menu = load_menu(str(HERE / "menu.csv"))
    assert vegetarian(menu) == ["tomato soup", "falafel wrap", "apple pie"]
    assert bill(menu, ["tomato soup", "apple pie"]) == pytest.approx(8.3)
    assert "tomato soup" in printout.card(menu)
