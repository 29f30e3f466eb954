from collections import Counter

from recipes import RECIPES, scale


def shopping_list(plan):
    """plan: (recipe name, people) pairs -> total of each ingredient."""
    total = Counter()
    for name, people in plan:
        total.update(scale(RECIPES[name], people)["ingredients"])
    return dict(total)
