import hashlib
import json
from pathlib import Path

from i18n import t
from shop import cart_line, greeting
from test_i18n import test_english, test_german  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_i18n.py": "bed69b1714b1ae58b67f66298dd2fefa48562965dbcdcfee236a74a0939c56db", "shop.py": "017916a838e7d019eb33d88e88a3be4580d15e337611f893e6ce9537aabec1c8"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _messages(lang):
    return json.loads((HERE / "messages" / f"{lang}.json").read_text(encoding="utf-8"))


def test_goodbye_in_both_files_and_nothing_else_changed():
    en, de = _messages("en"), _messages("de")
    assert en == {
        "hello": "Hello, {name}!",
        "items": "You have {count} items in your cart.",
        "thanks": "Thank you for your order.",
        "goodbye": "Goodbye, {name}!",
    }
    assert de == {
        "hello": "Hallo, {name}!",
        "items": "Sie haben {count} Artikel im Warenkorb.",
        "goodbye": "Auf Wiedersehen, {name}!",
    }


def test_goodbye_through_t():
    assert t("goodbye", "en", name="Bo") == "Goodbye, Bo!"
    assert t("goodbye", "de", name="Bo") == "Auf Wiedersehen, Bo!"


def test_missing_keys_fall_back_to_english():
    assert t("thanks", "de") == "Thank you for your order."
    assert greeting("Lu", "de") == "Hallo, Lu!" and cart_line(1) == "You have 1 items in your cart."
