import time


class Sensor:
    def __init__(self, name, unit="C"):
        self.name = name
        self.unit = unit
        self.readings = []  # (timestamp, value)

    def add(self, value, timestamp=None):
        self.readings.append((time.time() if timestamp is None else timestamp, float(value)))

    def latest(self):
        if not self.readings:
            return None
        return self.readings[-1][1]

    def values(self):
        return [value for _, value in self.readings]

    def average(self, last=None):
        values = self.values()
        if last is not None:
            values = values[-last:]
        if not values:
            raise ValueError(f"{self.name} has no readings")
        return sum(values) / len(values)
