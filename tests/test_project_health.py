"""bench.project_health: what a run broke that worked before, measured in the sandbox."""

from __future__ import annotations

from pathlib import Path

from bench.project_health import measure

TEST = "from shapes import area\n\n\ndef test_area():\n    assert area(2) == 4\n"


def test_a_broken_test_and_a_module_that_no_longer_imports_are_worse(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text("def area(side):\n    return side * side\n")
    (tmp_path / "main.py").write_text("from shapes import area\n\nprint(area(3))\n")
    (tmp_path / "test_shapes.py").write_text(TEST)
    before = measure(tmp_path)
    assert before.passing == {"test_shapes.py::test_area"}
    assert {"shapes", "main", "test_shapes"} <= before.importing
    assert measure(tmp_path).worse_than(before) == []
    (tmp_path / "shapes.py").write_text("def surface(side):\n    return side * side\n")
    worse = measure(tmp_path).worse_than(before)
    assert any("test_shapes.py::test_area" in line for line in worse)
    assert any(line.startswith("main imported before") for line in worse)


def test_what_was_broken_before_does_not_count(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text("import no_such_module\n")
    (tmp_path / "test_shapes.py").write_text(TEST)
    before = measure(tmp_path)
    assert before.passing == frozenset() and "shapes" not in before.importing
    (tmp_path / "shapes.py").write_text("def area(side):\n    return side * side\n")
    after = measure(tmp_path)
    assert after.worse_than(before) == [] and after.passing == {"test_shapes.py::test_area"}
