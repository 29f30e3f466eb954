from planner import shopping_list
from recipes import RECIPES, ingredient_names


def test_shopping_list():
    assert shopping_list([("omelette", 2), ("pancakes", 2)])["eggs"] == 7


def test_names():
    assert ingredient_names(RECIPES["omelette"]) == ["butter g", "eggs"]
