"""A football league table: 3 points for a win, 1 for a draw."""

WIN, DRAW = 3, 1


def empty_row():
    return {"played": 0, "won": 0, "drawn": 0, "lost": 0, "for": 0, "against": 0, "points": 0}


def record(table, home, away, home_goals, away_goals):
    """Add one result to the table (a dict team -> row), creating rows as needed."""
    h = table.setdefault(home, empty_row())
    a = table.setdefault(away, empty_row())
    for row, scored, conceded in ((h, home_goals, away_goals), (a, away_goals, home_goals)):
        row["played"] += 1
        row["for"] += scored
        row["against"] += conceded
    if home_goals > away_goals:
        h["won"] += 1
        a["lost"] += 1
        h["points"] += WIN
    elif home_goals < away_goals:
        a["won"] += 1
        h["lost"] += 1
        a["points"] += WIN
    else:
        h["drawn"] += 1
        a["drawn"] += 1
        h["points"] += DRAW


def standings(table):
    """Team names, best first: points, then goal difference, then goals scored, then name."""
    return sorted(
        table,
        key=lambda team: (
            -table[team]["points"],
            -(table[team]["for"] - table[team]["against"]),
            -table[team]["for"],
            team,
        ),
    )
