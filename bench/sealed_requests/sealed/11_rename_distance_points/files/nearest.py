import geo
from places import PLACES


def nearest(point, exclude=()):
    best = None
    for name, (lat, lon) in PLACES.items():
        if name in exclude:
            continue
        km = geo.distance(point[0], point[1], lat, lon)
        if best is None or km < best[1]:
            best = (name, km)
    return best[0]
