"""Who is coming to the party."""


class GuestList:
    def __init__(self, capacity):
        self.capacity = capacity
        self.coming = []  # names, in the order they answered

    def headcount(self):
        return len(self.coming)

    def is_coming(self, name):
        return name in self.coming

    def rsvp(self, name):
        if self.is_coming(name):
            raise ValueError(f"{name} already answered")
        if self.headcount() + 1 > self.capacity:
            raise RuntimeError("the venue is full")
        self.coming.append(name)

    def cancel(self, name):
        if not self.is_coming(name):
            raise KeyError(name)
        self.coming.remove(name)

    def seats_left(self):
        return self.capacity - self.headcount()
