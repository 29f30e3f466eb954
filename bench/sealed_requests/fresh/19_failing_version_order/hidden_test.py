import hashlib
from pathlib import Path

from test_updates import test_outdated, test_read_pins  # noqa: F401
from test_versions import test_is_newer, test_latest, test_not_a_version, test_parse  # noqa: F401
from updates import outdated
from versions import is_newer, latest

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_versions.py": "f6a95b9d075202b381623f876776afa71cb31711d8578eb5e9fe20652708b801", "test_updates.py": "3e9525aa3a3ba5a16383081baf80eb496d39746d2f9c79c04ed93f067e63e6c7", "updates.py": "d6eaf3f2b943dd5c1d79166454a97ea0ced1076e7161d7e3cc52dcf93b7d488c"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_numbers_compare_as_numbers():
    assert latest(["2.9.9", "2.10.0", "2.1.10"]) == "2.10.0"
    assert latest(["v0.9.12", "v0.9.2"]) == "v0.9.12"
    assert is_newer("10.0.0", "9.99.99")
    assert not is_newer("1.2.3", "1.10.0")


def test_two_digit_releases_are_found():
    releases = {"numpy": ["1.9.3", "1.26.4", "1.24.0"]}
    assert outdated({"numpy": "1.9.3"}, releases) == {"numpy": ("1.9.3", "1.26.4")}
    assert outdated({"numpy": "1.26.4"}, releases) == {}
