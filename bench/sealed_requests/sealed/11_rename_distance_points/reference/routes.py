from geo import distance
from places import PLACES


def route_length(stops):
    total = 0.0
    for here, there in zip(stops, stops[1:]):
        total += distance(PLACES[here], PLACES[there])
    return round(total, 1)
