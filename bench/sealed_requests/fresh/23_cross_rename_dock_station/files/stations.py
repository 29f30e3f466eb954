class Dock:
    """A place where bikes are parked: it holds up to `capacity` of them."""

    def __init__(self, name, capacity, bikes=0):
        if not 0 <= bikes <= capacity:
            raise ValueError(f"{name}: {bikes} bikes do not fit in {capacity} slots")
        self.name = name
        self.capacity = capacity
        self.bikes = bikes

    def free_slots(self):
        return self.capacity - self.bikes

    def take(self):
        if self.bikes == 0:
            raise RuntimeError(f"no bike at {self.name}")
        self.bikes -= 1

    def park(self):
        if self.free_slots() == 0:
            raise RuntimeError(f"{self.name} is full")
        self.bikes += 1

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.bikes}/{self.capacity})"
