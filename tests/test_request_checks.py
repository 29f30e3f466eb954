"""Misses found without running the code: an asked-for function nobody defines, an unused parameter."""

from agents.request_checks import undefined_calls, unused_parameters

TODO = "def add(item):\n    return item\n\n\nclass Box:\n    def put(self, thing):\n        pass\n"


def test_a_call_in_the_request_needs_a_definition_somewhere() -> None:
    request = "Add done(item) to todo.py, like add(item); put(x) on a Box; str.strip() and len() are fine."
    assert undefined_calls(request, [TODO]) == ["done"]
    assert undefined_calls(request, [TODO, "def done(item):\n    return 0\n"]) == []
    assert undefined_calls("Write hello.py that prints hello.", [TODO]) == []
    assert undefined_calls("Add done(x).", ["def done(:\n"]) == ["done"]  # a file that does not parse


def test_a_parameter_the_request_names_must_be_read_by_its_function() -> None:
    ignored = "def join_names(names, sep=', '):\n    return ', '.join(names)\n"
    request = "Give join_names a keyword parameter sep (default ', ') to choose the separator."
    assert unused_parameters(request, [ignored]) == ["join_names(sep)"]
    used = "def join_names(names, sep=', '):\n    return sep.join(names)\n"
    assert unused_parameters(request, [used]) == []
    # A parameter the request does not name, or a function it does not name, is not judged.
    assert unused_parameters("Make join_names faster.", [ignored]) == []
    assert unused_parameters("Add a parameter sep.", [ignored]) == []
    method = "class Counter:\n    def increment(self, step=1):\n        self.value += 1\n"
    request = "Counter.increment ignores its step argument. Fix it."
    assert unused_parameters(request, [method]) == ["increment(step)"]
