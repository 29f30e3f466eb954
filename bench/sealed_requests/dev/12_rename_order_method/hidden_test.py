import hashlib
import re
from pathlib import Path

import main
import report
from orders import Order
from test_orders import test_item_count  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_orders.py": "99f2be9e96b894e7c669e222ac49a08ba87517009a4cf2dfd47ec3e89e2d621c"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_total_is_a_method():
    order = Order(5, "Ivy")
    order.add("X", 3, 2.5)
    order.add("Y", 1, 0.25)
    assert order.total() == 7.75
    assert not hasattr(order, "calc_total")


def test_no_file_uses_the_old_name():
    for path in HERE.glob("*.py"):
        if not path.name.startswith("test_"):
            assert not re.search(r"\bcalc_total\b", path.read_text()), path.name


def test_the_callers_work(capsys):
    orders = main.sample_orders()
    text = report.daily_report(orders)
    assert "#2 Omar: 20.00 (shipped)" in text and "revenue: 32.00" in text
    assert report.biggest(orders).number == 2
    main.main()
    assert "biggest: #2 with 20.00" in capsys.readouterr().out
