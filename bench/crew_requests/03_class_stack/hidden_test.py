import pytest
from stack import Stack


def test_push_pop_in_reverse_order():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2
    assert s.pop() == 1


def test_peek_and_len():
    s = Stack()
    assert len(s) == 0
    s.push("a")
    s.push("b")
    assert s.peek() == "b"
    assert len(s) == 2


def test_pop_on_empty_raises():
    with pytest.raises(IndexError):
        Stack().pop()
