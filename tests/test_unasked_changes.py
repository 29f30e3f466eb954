"""Functions a run rewrote though the request did not name them are found, and put back in place."""

from agents.request import RequestFacts
from agents.rules.settle.unasked_changes import put_back, unasked_changes, unasked_method_changes

WORDS = """import re


def count_words(text):
    return len(text.split(" "))


def longest_word(text):
    return max(text.split(), key=len) if text.split() else ""


def shout(text):
    return text.upper()  # kept as it is
"""
# count_words fixed as asked; longest_word and shout rewritten unasked.
REWRITTEN = (
    WORDS.replace('len(text.split(" "))', "len(text.split())")
    .replace('max(text.split(), key=len) if text.split() else ""', "max(text.split() or [''], key=len)")
    .replace("text.upper()  # kept as it is", "text.upper()")
)


def test_functions_changed_but_not_named_are_found() -> None:
    request = "count_words in words.py miscounts double spaces. Fix it."
    assert unasked_changes(WORDS, REWRITTEN, RequestFacts.read(request)) == ["longest_word", "shout"]
    assert unasked_changes(WORDS, REWRITTEN, RequestFacts.read("Fix count_words and longest_word")) == [
        "shout"
    ]


def test_nothing_is_unasked_where_the_request_names_no_function_of_the_file() -> None:
    assert unasked_changes(WORDS, REWRITTEN, RequestFacts.read("Make words.py handle double spaces.")) == []


def test_a_helper_the_named_function_uses_is_left_alone() -> None:
    uses_helper = REWRITTEN.replace("return len(text.split())", "return len(longest_word(text))")
    assert unasked_changes(WORDS, uses_helper, RequestFacts.read("Fix count_words")) == ["shout"]
    called_below = REWRITTEN + "\n\nprint(shout('hi'))\n"
    assert unasked_changes(WORDS, called_below, RequestFacts.read("Fix count_words")) == ["longest_word"]


def test_a_parameter_added_unasked_is_found_unless_another_file_of_the_run_uses_the_function() -> None:
    new_parameter = REWRITTEN.replace("def shout(text):", "def shout(text, mark='!'):")
    assert unasked_changes(WORDS, new_parameter, RequestFacts.read("Fix count_words")) == [
        "longest_word",
        "shout",
    ]
    assert unasked_changes(
        WORDS, new_parameter, RequestFacts.read("Fix count_words"), {"shout", "print"}
    ) == ["longest_word"]


def test_putting_back_changes_that_function_only() -> None:
    text = put_back(REWRITTEN, WORDS, "shout")
    assert text == REWRITTEN.replace("text.upper()\n", "text.upper()  # kept as it is\n")
    assert put_back(REWRITTEN, WORDS, "gone") is None


LEDGER = """class Ledger:
    def __init__(self):
        self.items = []

    def add(self, amount):
        self.items.append(amount)

    def total(self):
        return sum(self.items)  # the user's own
"""
# remove() added as asked; total() rewritten unasked, __init__ given what remove() needs.
LEDGER_NOW = (
    LEDGER.replace("return sum(self.items)  # the user's own", "return round(sum(self.items), 2)").replace(
        "self.items = []", "self.items = []\n        self.removed = 0"
    )
    + "\n    def remove(self, index):\n        self.removed += 1\n        return self.items.pop(index)\n"
)


def test_a_method_changed_but_not_named_is_found_where_the_request_names_a_method() -> None:
    asked = RequestFacts.read("Add a method remove(index) to Ledger in ledger.py.")
    assert unasked_method_changes(LEDGER, LEDGER_NOW, asked) == ["Ledger.total"]
    assert unasked_method_changes(LEDGER, LEDGER_NOW, RequestFacts.read("Add remove() and fix total()")) == []
    assert unasked_method_changes(LEDGER, LEDGER_NOW, RequestFacts.read("Make ledger.py better.")) == []
    assert unasked_changes(LEDGER, LEDGER_NOW, asked) == []  # no top-level function there


def test_putting_back_a_method_changes_that_method_only() -> None:
    text = put_back(LEDGER_NOW, LEDGER, "Ledger.total")
    assert text == LEDGER_NOW.replace(
        "return round(sum(self.items), 2)", "return sum(self.items)  # the user's own"
    )
    assert (
        put_back(LEDGER_NOW, LEDGER, "Ledger.gone") is None
        and put_back(LEDGER_NOW, LEDGER, "Nope.total") is None
    )
