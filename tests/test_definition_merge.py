"""A coder's partial answer (only the changed functions) is applied to the file in place."""

import ast

from agents.source.definition_merge import merge_definitions

SHAPES = '''"""Shapes."""
import math


PI2 = 2 * math.pi


def area_circ(r):
    return math.pi * r * r


def circumference(r):
    return PI2 * r


@staticmethod
def rectangle_area(w, h):
    return w * h


class Box:
    def __init__(self, w):
        self.w = w

    def volume(self):
        return self.w ** 3

    def label(self):
        return "box"


def square(x):
    return x * x


if __name__ == "__main__":
    print(square(3))
'''

FIXED_CIRCUMFERENCE = '''```python
def circumference(r):
    """Now documented."""
    return 2 * math.pi * r
'''


def _names(source: str) -> list[str]:
    return [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef | ast.ClassDef)]


def _without(source: str, name: str) -> str:
    """The source minus one top-level definition, for comparing the untouched rest."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    node = next(n for n in tree.body if getattr(n, "name", "") == name)
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return "".join(lines[: first - 1] + lines[node.end_lineno :])


def test_one_changed_function_replaces_its_namesake_and_nothing_else() -> None:
    answer = 'def circumference(r):\n    """Now documented."""\n    return 2 * math.pi * r\n'
    merge = merge_definitions(SHAPES, answer)
    assert merge is not None
    assert merge.replaced == ["circumference"] and not merge.added and not merge.removed
    assert _names(merge.text) == _names(SHAPES)  # same definitions, same order
    assert '"""Now documented."""' in merge.text
    assert _without(merge.text, "circumference") == _without(SHAPES, "circumference")


def test_a_rename_puts_the_new_name_where_the_old_one_stood() -> None:
    answer = "def circle_area(r):\n    return math.pi * r ** 2\n"
    merge = merge_definitions(SHAPES, answer, removable={"area_circ", "circle_area", "Rename"})
    assert merge is not None and merge.removed == ["area_circ"] and merge.added == ["circle_area"]
    assert _names(merge.text) == ["circle_area", *_names(SHAPES)[1:]]
    # Without leave to remove, the old function stays and the new one is added after the last.
    kept = merge_definitions(SHAPES, answer)
    assert kept is not None and _names(kept.text) == [*_names(SHAPES), "circle_area"]
    assert "area_circ" in kept.kept


def test_a_new_function_brings_its_import_and_lands_before_the_main_block() -> None:
    answer = "import statistics\nimport math\n\n\ndef middle(xs):\n    return statistics.median(xs)\n"
    merge = merge_definitions(SHAPES, answer)
    assert merge is not None and merge.added == ["middle"]
    assert merge.text.count("import math") == 1 and "import statistics\n" in merge.text
    assert merge.text.index("import statistics") < merge.text.index("PI2 =")
    assert merge.text.index("def middle") < merge.text.index('if __name__ == "__main__"')
    namespace: dict[str, object] = {"__name__": "shapes"}
    exec(compile(merge.text, "shapes.py", "exec"), namespace)
    assert namespace["middle"]([3, 1, 2]) == 2  # type: ignore[operator]


def test_a_class_given_with_some_methods_keeps_the_others() -> None:
    answer = (
        "class Box:\n"
        "    def volume(self):\n        return self.w * self.w * self.w\n\n"
        "    def area(self):\n        return 6 * self.w ** 2\n"
    )
    merge = merge_definitions(SHAPES, answer)
    assert merge is not None and merge.replaced == ["Box"]
    namespace: dict[str, object] = {"__name__": "shapes"}
    exec(compile(merge.text, "shapes.py", "exec"), namespace)
    box = namespace["Box"](2)  # type: ignore[operator]
    assert (box.volume(), box.area(), box.label()) == (8, 24, "box")
    assert _without(merge.text, "Box") == _without(SHAPES, "Box")


def test_example_prints_are_left_out_unless_the_request_asks_for_output() -> None:
    answer = "def square(x):\n    return x ** 2\n\n\nprint(square([]))\n"
    merge = merge_definitions(SHAPES, answer)
    assert merge is not None and merge.skipped == 1 and "print(square([]))" not in merge.text
    asked = merge_definitions(SHAPES, answer, keep_statements=True)
    assert asked is not None and asked.text.rstrip().endswith("print(square([]))")


def test_what_cannot_be_merged_says_so_with_none() -> None:
    assert merge_definitions(SHAPES, "def broken(:\n") is None
    assert merge_definitions("def f(:\n", "def f():\n    pass\n") is None
    assert merge_definitions(SHAPES, "print(1)\n") is None  # defines nothing: not an edit of the file
    assert merge_definitions(SHAPES, FIXED_CIRCUMFERENCE) is None  # a stray fence does not parse


def test_a_files_first_import_gets_the_two_blank_lines_above_its_code() -> None:
    words = (
        'def count(text):\n    return len(text.split(" "))\n\n\ndef shout(text):\n    return text.upper()\n'
    )
    answer = 'import re\n\ndef count(text):\n    return len(re.findall(r"\\S+", text))\n'
    merge = merge_definitions(words, answer)
    assert merge is not None
    assert merge.text.startswith(
        'import re\n\n\ndef count(text):\n    return len(re.findall(r"\\S+", text))\n'
    )
    assert merge.text.endswith("\n\n\ndef shout(text):\n    return text.upper()\n")
