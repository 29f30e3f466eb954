import pytest
from versions import is_newer, latest, parse


def test_parse():
    assert parse("1.4.2") == (1, 4, 2)
    assert parse("v10.0.1") == (10, 0, 1)


def test_not_a_version():
    with pytest.raises(ValueError):
        parse("1.4")
    with pytest.raises(ValueError):
        parse("1.x.0")


def test_is_newer():
    assert is_newer("1.4.3", "1.4.2")
    assert not is_newer("1.4.2", "1.4.2")
    assert is_newer("1.10.0", "1.9.5")


def test_latest():
    assert latest(["1.2.0", "1.10.0", "1.9.0"]) == "1.10.0"
