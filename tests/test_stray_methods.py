"""A new top-level function taking self goes into the file's one class
(agents/rules/write/stray_methods.py)."""

from agents.rules.write.stray_methods import into_class

STACK = "class Stack:\n    def __init__(self):\n        self.items = []\n\n\ndef helper(x):\n    return x\n"


def test_a_stray_method_moves_to_the_end_of_the_class_with_its_decorator() -> None:
    stray = "\n\n@property\ndef size(self):\n    return len(self.items)\n"
    text, moved = into_class(STACK + stray, STACK)
    assert moved == ["size"]
    assert text == (
        "class Stack:\n    def __init__(self):\n        self.items = []\n\n"
        "    @property\n    def size(self):\n        return len(self.items)\n"
        "\n\ndef helper(x):\n    return x\n"
    )
    compile(text, "stack.py", "exec")


def test_what_is_not_a_new_stray_method_stays() -> None:
    # A method of that name already, a function the user had, two classes, code that does not parse.
    own = STACK.replace("def helper(x)", "def helper(self)")
    assert into_class(own, own) == (own, [])
    twice = STACK.replace(
        "        self.items = []\n", "        self.items = []\n\n    def size(self):\n        return 0\n"
    )
    again = twice + "\n\ndef size(self):\n    return 1\n"
    assert into_class(again, STACK) == (again, [])
    two = STACK + "\n\nclass Queue:\n    pass\n\n\ndef size(self):\n    return 1\n"
    assert into_class(two, STACK) == (two, [])
    assert into_class("def size(self:\n", None) == ("def size(self:\n", [])
