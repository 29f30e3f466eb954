import csv


def load_menu(path="menu.csv"):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return [
        {"dish": r["dish"], "price": float(r["price"]), "vegetarian": r["vegetarian"].strip().lower() == "yes"}
        for r in rows
    ]


def vegetarian(menu):
    return [item["dish"] for item in menu if item["vegetarian"]]
