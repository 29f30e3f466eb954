"""The plants in the garden and when they were last watered."""


class Plant:
    def __init__(self, name, every_days, last_watered):
        self.name = name
        self.every_days = every_days  # how often it wants water
        self.last_watered = last_watered

    def water(self, day):
        self.last_watered = day

    def __repr__(self):
        return f"Plant({self.name!r}, every {self.every_days} days, last {self.last_watered})"
