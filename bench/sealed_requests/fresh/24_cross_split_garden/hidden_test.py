import ast
import hashlib
import json
from datetime import date
from pathlib import Path

import garden
import planner
import storage
import watering
from test_planner import test_todays_list, test_water_all, test_week_ahead  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_planner.py": "4ac4feaecbd155dbd56c54e298da2c3223695586fbacbd1f865c1cb2b51501e4", "garden.json": "0f90122b5d879679070c69b84748b693ce1a40ab76484654757bae15d74f6aef"}
MOVED = {"storage.py": {"load_garden", "save_garden"}, "watering.py": {"needs_water", "next_watering"}}


def test_the_tests_and_the_data_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _defined(name):
    tree = ast.parse((HERE / name).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}


def test_each_function_lives_in_its_new_module():
    for module, names in MOVED.items():
        assert names <= _defined(module), module
    assert "Plant" in _defined("garden.py")
    assert not (_defined("garden.py") & (MOVED["storage.py"] | MOVED["watering.py"]))


def test_planner_imports_from_the_new_modules():
    for node in ast.walk(ast.parse((HERE / "planner.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "garden":
            assert not {alias.name for alias in node.names} & (MOVED["storage.py"] | MOVED["watering.py"])


def test_the_moved_functions_work(tmp_path):
    plants = storage.load_garden(HERE / "garden.json")
    assert [plant.name for plant in plants] == ["basil", "tomatoes", "lavender", "cactus"]
    assert isinstance(plants[0], garden.Plant)
    assert watering.next_watering(plants[2]) == date(2024, 7, 5)
    assert watering.needs_water(plants[0], date(2024, 7, 2)) and not watering.needs_water(plants[2], date(2024, 7, 4))
    assert watering.next_watering(plants[3]) == date(2024, 7, 11)
    plants[3].water(date(2024, 7, 2))
    storage.save_garden(plants, tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text())[3]["last_watered"] == "2024-07-02"
    assert planner.todays_list(storage.load_garden(tmp_path / "g.json"), date(2024, 7, 3)) == ["basil", "tomatoes"]
