from bookings import Booking, overlaps


class Hotel:
    def __init__(self, rooms):
        self.rooms = set(rooms)
        self.bookings = []

    def book(self, guest, room, check_in, check_out):
        if room not in self.rooms:
            raise KeyError(f"no room {room}")
        new = Booking(guest, room, check_in, check_out)
        for existing in self.bookings:
            if overlaps(existing, new):
                raise ValueError(f"room {room} is taken by {existing.guest}")
        self.bookings.append(new)
        return new

    def free_rooms(self, night):
        taken = {b.room for b in self.bookings if b.check_in <= night < b.check_out}
        return sorted(self.rooms - taken)
