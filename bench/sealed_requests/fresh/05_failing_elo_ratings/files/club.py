from elo import updated

RESULTS = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}
START = 1200


def play(ratings, white, black, result):
    """Records a game ('1-0', '0-1' or '1/2-1/2') in the ratings dict; new players start at 1200."""
    a, b = ratings.get(white, START), ratings.get(black, START)
    ratings[white], ratings[black] = updated(a, b, RESULTS[result])
    return ratings


def replay(games):
    ratings = {}
    for white, black, result in games:
        play(ratings, white, black, result)
    return ratings
