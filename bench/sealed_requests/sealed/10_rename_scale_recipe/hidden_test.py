import hashlib
import re
from pathlib import Path

import cli
import planner
import recipes
from test_planner import test_names, test_shopping_list  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_planner.py": "922fb966bc990cdb6eb652b5d89b32e03d276835a9a8034c0d99fc9e1712afe1"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_scale():
    doubled = recipes.scale(recipes.RECIPES["pancakes"], 8)
    assert doubled["serves"] == 8 and doubled["ingredients"]["flour g"] == 400
    assert not hasattr(recipes, "scale_recipe")


def test_no_file_uses_the_old_name():
    for path in HERE.glob("*.py"):
        if not path.name.startswith("test_"):
            assert not re.search(r"\bscale_recipe\b", path.read_text()), path.name


def test_the_callers_work():
    assert planner.shopping_list([("pancakes", 2)]) == {"flour g": 100, "milk ml": 150, "eggs": 1}
    assert "eggs: 6" in cli.show("omelette", 2)
