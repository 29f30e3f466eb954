import hashlib
from pathlib import Path

from cart import Cart
from test_cart import test_adding_twice_adds_up, test_total_counts_quantities, test_unknown_product  # noqa: F401
from test_pricing import test_coupon, test_no_coupon, test_unknown_coupon  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_cart.py": "5010f5f5f20e8cc5b2094a1ad7febad98a6ec94ac2e4f2c735d6af4e4e5193ee", "test_pricing.py": "6ed5413ea7ff22b7f54b96dd910aa203104f525a35ea2793d21c4a8b2f94bce2", "catalog.py": "d77941852b48a41fc5307e092eb888119662b7bbe3162f931bc0571e4e9aa662", "pricing.py": "ed4b8fa5cb21c51472c5db5004c708686cb5608bb1820316a6001f5d77a22a64"}


def test_the_tests_and_prices_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_another_cart():
    cart = Cart()
    cart.add("coffee", 2)
    cart.add("apple", 3)
    cart.remove("apple")
    cart.add("bread", 2)
    assert cart.total() == 20.3
    assert cart.count() == 4
