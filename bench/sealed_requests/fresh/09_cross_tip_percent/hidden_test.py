import hashlib
from pathlib import Path

import cli
import pytest
from receipt import receipt, receipt_text
from split import split_evenly
from test_receipt import test_receipt, test_text  # noqa: F401
from test_split import test_even, test_leftover_cents, test_nobody  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_split.py": "055395ba8e81be82e21901bbfb473d9ff21422580b34edefba3858a4135a3b4e", "test_receipt.py": "981d00bb0c59800994e00ca6e5f4188e80de37b7f662f0b386a54bf98f9a33cf", "cli.py": "9fb949594e1bce9971b766a8776567f681601dff5fcd78be85e12dc59f79b0c9"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_split_with_a_tip():
    assert split_evenly(100, 4, tip_percent=10) == pytest.approx([27.5] * 4)
    shares = split_evenly(100, 3, tip_percent=15)
    assert sum(shares) == pytest.approx(115, abs=0.011)
    assert max(shares) - min(shares) <= 0.011
    assert split_evenly(90, 3, tip_percent=0) == [30, 30, 30]


def test_receipt_passes_the_tip_on():
    items = [("soup", 8.0), ("steak", 32.0)]
    bill = receipt(items, 2, tip_percent=20)
    assert sum(bill["shares"]) == pytest.approx(48, abs=0.011)
    assert len(bill["shares"]) == 2
    assert receipt(items, 2)["shares"] == [20, 20]


def test_the_rest_still_works(capsys):
    assert "20.00" in receipt_text([("soup", 8.0), ("steak", 32.0)], 2)
    assert cli.main(["2", "soup=8", "steak=32"]) == 0
    assert "40.00" in capsys.readouterr().out
