class Lot:
    def __init__(self, capacity):
        self.capacity = capacity
        self.cars = {}  # plate -> minute of arrival

    def enter(self, plate, minute):
        if self.full():
            raise RuntimeError("lot is full")
        self.cars[plate] = minute

    def leave(self, plate, minute):
        return minute - self.cars.pop(plate)

    def full(self):
        return len(self.cars) > self.capacity
