import ast
import hashlib
from pathlib import Path

import checkout
import labels
import pytest
import rates
from test_checkout import test_shipping, test_weight_includes_the_box, test_zones  # noqa: F401
from test_labels import test_label_has_the_postage, test_split_parcels  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_checkout.py": "4407a46088593c65ba72097f36c3683faa70656b6b9b3cbb7428654f3299bbd6", "test_labels.py": "2d2e777133969eb95698b1af49dd6742c686813ff7b4e4feeabcda5758d872ea"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_weight_comes_first():
    assert rates.price(2.5, "eu") == 14.0
    assert rates.price(0.5, "domestic") == 4.5
    assert rates.price(3, "world") == 25.5
    with pytest.raises(ValueError):
        rates.price(1, "moon")
    with pytest.raises(ValueError):
        rates.price(0, "eu")


def test_every_call_passes_the_weight_first():
    for path in HERE.glob("*.py"):
        if path.name.startswith("test_") or path.name == "rates.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "price":
                if len(node.args) == 2:
                    first = node.args[0]
                    assert not (isinstance(first, ast.Name) and first.id == "zone"), path.name
                    assert not (isinstance(first, ast.Call) and getattr(first.func, "id", "") == "zone_of"), path.name


def test_the_callers_work():
    order = {"name": "Ola", "address": "Gata 1", "country": "SE", "items": [("book", 0.9, 3), ("map", 0.1, 1)]}
    assert checkout.shipping_for(order) == 9.0 + 2 * 2.5
    text = labels.label(order)
    assert "14.00" in text and "eu" in text
    assert labels.cheapest_split(order) == 23.0
