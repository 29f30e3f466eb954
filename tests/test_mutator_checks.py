"""A failed check that wants a value the request never says a method gives becomes its plain call."""

from agents.request import RequestFacts
from agents.rules.settle.mutator_checks import as_calls, unpromised

STACK = (
    "Write stack.py with a class Stack: push(item) adds an item, pop() removes and returns the last"
    " pushed item (raising IndexError when the stack is empty), peek() returns it without removing it."
)
TODO = (
    "Write todo.py with a class TodoList: add(title) adds a task and returns its id,"
    " done(task_id) marks it done."
)


def test_which_methods_the_request_says_give_a_value() -> None:
    assert [RequestFacts.read(STACK).promises_a_value(m) for m in ("push", "pop", "peek", "size")] == [
        False,
        True,
        True,
        None,
    ]
    assert [RequestFacts.read(TODO).promises_a_value(m) for m in ("add", "done")] == [True, False]


def test_only_a_failed_value_check_on_an_unpromising_method_of_a_made_object_becomes_a_call() -> None:
    checks = "\n".join(
        ["s = Stack()", "assert s.push(1) == 1", "assert s.pop() == 1", "assert Stack().push(2) == 2"]
        + ["assert s.size() == 0"]
    )
    failures = [
        "assert s.push(1) == 1  ->  AssertionError: got None, expected 1",
        "assert s.pop() == 1  ->  AssertionError: got None, expected 1",  # pop promises a value
        "assert Stack().push(2) == 2  ->  AssertionError: got None, expected 2",  # no object the checks made
        "assert s.size() == 0  ->  AssertionError: got None, expected 0",  # the request has no size()
    ]
    replaced = unpromised(checks, failures, RequestFacts.read(STACK))
    assert replaced == {"assert s.push(1) == 1": "s.push(1)"}
    assert as_calls(checks, replaced).splitlines()[:3] == ["s = Stack()", "s.push(1)", "assert s.pop() == 1"]


def test_a_bare_assert_of_a_mutator_becomes_a_call_and_a_promised_value_stays_checked() -> None:
    checks = "t = TodoList()\nassert t.add('a') == 2\nassert t.done(1)"
    failures = [
        "assert t.add('a') == 2  ->  AssertionError: got 1, expected 2",
        "assert t.done(1)  ->  AssertionError: ",
    ]
    assert unpromised(checks, failures, RequestFacts.read(TODO)) == {"assert t.done(1)": "t.done(1)"}
    wrong_none = ["assert t.add('a') == 2  ->  AssertionError: got None, expected 2"]
    assert (
        unpromised(checks, wrong_none, RequestFacts.read(TODO)) == {}
    )  # add must return the id: None is a defect
