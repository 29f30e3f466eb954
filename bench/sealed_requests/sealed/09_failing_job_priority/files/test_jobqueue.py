import pytest
from jobqueue import JobQueue
from worker import drain


def test_most_urgent_first():
    queue = JobQueue()
    queue.push("later", priority=9)
    queue.push("now", priority=1)
    queue.push("soon", priority=3)
    assert [queue.pop(), queue.pop(), queue.pop()] == ["now", "soon", "later"]


def test_ties_keep_their_order():
    queue = JobQueue()
    for name in ("a", "b", "c"):
        queue.push(name, priority=2)
    assert drain(queue, str.upper) == ["A", "B", "C"]


def test_empty():
    with pytest.raises(IndexError):
        JobQueue().pop()
    assert JobQueue().peek() is None


def test_bad_priority():
    with pytest.raises(ValueError):
        JobQueue().push("x", priority=0)
