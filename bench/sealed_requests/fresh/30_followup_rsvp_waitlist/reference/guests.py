"""Who is coming to the party."""


class GuestList:
    def __init__(self, capacity):
        self.capacity = capacity
        self.coming = []  # names, in the order they answered
        self.party = {}  # name -> how many people they bring (themselves included)
        self.waitlist = []  # names that did not fit, in the order they answered

    def headcount(self):
        return sum(self.party[name] for name in self.coming)

    def is_coming(self, name):
        return name in self.coming

    def rsvp(self, name, plus_ones=0):
        if self.is_coming(name) or name in self.waitlist:
            raise ValueError(f"{name} already answered")
        self.party[name] = 1 + plus_ones
        if self.headcount() + self.party[name] > self.capacity:
            self.waitlist.append(name)
        else:
            self.coming.append(name)

    def cancel(self, name):
        if not self.is_coming(name):
            raise KeyError(name)
        self.coming.remove(name)
        del self.party[name]
        while self.waitlist and self.party[self.waitlist[0]] <= self.seats_left():
            self.coming.append(self.waitlist.pop(0))

    def seats_left(self):
        return self.capacity - self.headcount()
