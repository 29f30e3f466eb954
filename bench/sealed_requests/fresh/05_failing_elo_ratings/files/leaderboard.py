def ranked(ratings):
    """[(rank, name, rating)], best first; players with the same rating share a rank (1, 2, 2, 4)."""
    order = sorted(ratings.items(), key=lambda item: (-item[1], item[0]))
    return [(place, name, rating) for place, (name, rating) in enumerate(order, start=1)]


def top(ratings, n=3):
    return [name for _rank, name, _rating in ranked(ratings)[:n]]
