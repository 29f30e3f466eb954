"""All the places in the city, read from rows like 'Market Square,20,7' (name, capacity, bikes)."""

from stations import Dock


class Network:
    def __init__(self):
        self.places = {}

    def add(self, name, capacity, bikes=0):
        place = Dock(name, capacity, bikes)
        self.places[name] = place
        return place

    def get(self, name):
        return self.places[name]

    def with_bikes(self):
        return sorted(name for name, place in self.places.items() if place.bikes)

    def total_bikes(self):
        return sum(place.bikes for place in self.places.values())


def from_rows(lines):
    network = Network()
    for line in lines:
        if line.strip():
            name, capacity, bikes = (part.strip() for part in line.split(","))
            network.add(name, int(capacity), int(bikes))
    return network
