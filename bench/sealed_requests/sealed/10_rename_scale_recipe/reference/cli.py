import sys

from recipes import RECIPES, scale


def show(name, people):
    recipe = scale(RECIPES[name], people)
    lines = [f"{name} for {people}:"]
    for ingredient, amount in recipe["ingredients"].items():
        lines.append(f"  {ingredient}: {float(amount):g}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(show(sys.argv[1], int(sys.argv[2])))
