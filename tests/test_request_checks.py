"""Misses found without running the code: an asked-for function nobody defines, a name nothing
binds, a local read in its own first assignment."""

import pytest

from agents.request import RequestFacts
from agents.rules.static.request_checks import (
    imports_for,
    ints_not_made,
    read_before_assigned,
    unbound_names,
    undefined_calls,
)

TODO = "def add(item):\n    return item\n\n\nclass Box:\n    def put(self, thing):\n        pass\n"


def test_a_call_in_the_request_needs_a_definition_somewhere() -> None:
    request = "Add done(item) to todo.py, like add(item); put(x) on a Box; str.strip() and len() are fine."
    assert undefined_calls(RequestFacts.read(request), [TODO]) == ["done"]
    assert undefined_calls(RequestFacts.read(request), [TODO, "def done(item):\n    return 0\n"]) == []
    assert undefined_calls(RequestFacts.read("Write hello.py that prints hello."), [TODO]) == []
    assert undefined_calls(RequestFacts.read("Add done(x)."), ["def done(:\n"]) == [
        "done"
    ]  # a file that does not parse


def test_a_name_nothing_binds_is_found_wherever_it_is_read() -> None:
    source = (
        "import os\n"
        "LIMIT = 3\n"
        "def register(name, email):\n"
        "    return is_email(email) and len(name) < LIMIT and os.sep and [c for c in name if c in VOWELS]\n"
        "class Box:\n"
        "    size = 2\n"
        "    def area(self):\n"
        "        return size * self.size\n"
        "def reset():\n"
        "    global COUNT\n"
        "    COUNT = 0\n"
        "def count():\n"
        "    return COUNT + __file__.count('/')\n"
    )
    assert set(unbound_names(source)) == {"is_email", "VOWELS", "size"}


def test_code_that_binds_what_it_reads_or_cannot_be_known_has_no_unbound_names() -> None:
    assert unbound_names("from validators import is_email\n\ndef ok(e):\n    return is_email(e)\n") == []
    assert unbound_names("from shapes import *\n\ndef f():\n    return circle(1)\n") == []
    assert unbound_names("def f(:\n") == []  # not Python: the checks that run it will say so


def test_the_import_for_a_name_comes_from_the_file_that_defines_it() -> None:
    sources = {
        "validators.py": "def is_email(t):\n    return '@' in t\n",
        "pkg/util.py": "class Box:\n    pass\n",
    }
    assert imports_for(["is_email", "Box", "nowhere"], sources) == [
        "from validators import is_email",
        "from pkg.util import Box",
    ]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (
            "from stats import mean\ndef summary(values):\n    mean = mean(values)\n    return mean\n",
            ["summary: mean"],
        ),
        ("total = 0\ndef add(x):\n    total += x\n", ["add: total"]),
        ("def outer():\n    def inner():\n        y = y + 1\n", ["inner: y"]),
        ("def f(xs):\n    total = 0\n    for x in xs:\n        total = total + x\n    return total\n", []),
        ("total = 0\ndef add(x):\n    global total\n    total += x\n", []),
        ("def f(x):\n    x = x + 1\n    return x\n", []),  # a parameter is bound on entry
        ("def f(xs):\n    for x in xs:\n        x = x + 1\n", []),
        ("def f(:\n", []),
    ],
)
def test_a_name_read_in_its_own_first_assignment_is_found(source: str, found: list[str]) -> None:
    assert read_before_assigned(source) == found


PORT_REQUEST = (
    "Write settings.py with load_settings(path) that reads a JSON file and returns it as a dict, and"
    " get_port(path) that returns its 'port' value as an int, or 8000 when there is no 'port'."
)
SETTINGS = (
    "import json\n\n\ndef load_settings(path):\n    with open(path) as f:\n        return json.load(f)\n\n\n"
    "def get_port(path):\n    return load_settings(path).get('port', 8000)\n"
)


def test_a_function_asked_to_return_an_int_that_never_makes_one_is_named() -> None:
    assert ints_not_made(RequestFacts.read(PORT_REQUEST), [SETTINGS]) == [
        "get_port"
    ]  # not load_settings: "as a dict"
    converted = SETTINGS.replace(
        "return load_settings(path).get('port', 8000)", "return int(load_settings(path).get('port', 8000))"
    )
    assert ints_not_made(RequestFacts.read(PORT_REQUEST), [converted]) == []


def test_an_int_made_by_a_helper_or_by_floor_division_counts() -> None:
    helper = SETTINGS.replace("return json.load(f)", "return {k: int(v) for k, v in json.load(f).items()}")
    assert ints_not_made(RequestFacts.read(PORT_REQUEST), [helper]) == []
    halves = "def half(n):\n    return n // 2\n"
    assert (
        ints_not_made(RequestFacts.read("Write half(n) returning half of n as an integer."), [halves]) == []
    )
    assert (
        ints_not_made(
            RequestFacts.read("Write half(n) returning half of n."), ["def half(n):\n    return n / 2\n"]
        )
        == []
    )
