import pytest
import signup
import validators


def test_is_email():
    assert validators.is_email("ada@example.com")
    assert not validators.is_email("ada.example.com")
    assert not validators.is_email("ada@@example.com")
    assert not validators.is_email("@example.com")
    assert not validators.is_email("ada@examplecom")


def test_register():
    assert signup.register("Ada", "ada@example.com") == {"name": "Ada", "email": "ada@example.com"}


def test_register_refuses_bad_input():
    with pytest.raises(ValueError):
        signup.register("Ada", "not-an-email")
    with pytest.raises(ValueError):
        signup.register("", "ada@example.com")
