from bowling import score


def results(games):
    """games: {player: rolls} -> [(player, score)], best first."""
    return sorted(((player, score(rolls)) for player, rolls in games.items()), key=lambda r: -r[1])


def winner(games):
    return results(games)[0][0]


def print_results(games):
    for place, (player, points) in enumerate(results(games), start=1):
        print(f"{place}. {player:<10} {points:>3}")
