import hashlib
from pathlib import Path

from parking import fee
from receipt import receipt
from test_lot import test_stay  # noqa: F401
from test_parking import test_day_cap, test_every_started_hour_counts, test_free_half_hour, test_negative  # noqa: F401

HERE = Path(__file__).resolve().parent
# test_lot.py's second test fails for a reason of its own (lot.py), which nobody asked about.
UNCHANGED = {"test_parking.py": "c6c1921603d136af76fb56fdfab853bfb5f2435f1589f09aeecf0131eb70f825", "test_lot.py": "d0bfd12dc1729798087856602d853a2a47649410eaeef84dfb516891d8f0be88", "receipt.py": "da3fdd92ed4c799ca26f3079f715f068125ba91acd955d2b6a039dc75bd011a2"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_more_stays():
    assert fee(90) == 400
    assert fee(121) == 600
    assert fee(2 * 24 * 60) == 3000
    assert receipt("XY-1", 75) == "XY-1: 1h15m -> 4.00"
