"""The people on the rota, in the order they take turns."""

STAFF = [
    {"name": "Ana", "weekends": False},
    {"name": "Ben", "weekends": True},
    {"name": "Chloe", "weekends": False},
    {"name": "Dev", "weekends": True},
]


def names(people, weekends_only=False):
    return [p["name"] for p in people if p["weekends"] or not weekends_only]
