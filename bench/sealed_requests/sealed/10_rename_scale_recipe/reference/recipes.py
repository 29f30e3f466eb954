from fractions import Fraction

RECIPES = {
    "pancakes": {"serves": 4, "ingredients": {"flour g": 200, "milk ml": 300, "eggs": 2}},
    "omelette": {"serves": 1, "ingredients": {"eggs": 3, "butter g": 10}},
}


def scale(recipe, people):
    factor = Fraction(people, recipe["serves"])
    return {"serves": people, "ingredients": {k: v * factor for k, v in recipe["ingredients"].items()}}


def ingredient_names(recipe):
    return sorted(recipe["ingredients"])
