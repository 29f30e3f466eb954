from geo import distance
from places import PLACES


def route_length(stops):
    total = 0.0
    for here, there in zip(stops, stops[1:]):
        (lat1, lon1), (lat2, lon2) = PLACES[here], PLACES[there]
        total += distance(lat1, lon1, lat2, lon2)
    return round(total, 1)
