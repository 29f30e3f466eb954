class Counter:
    def __init__(self, start=0):
        self.value = start

    def increment(self, step=1):
        self.value += 1

    def reset(self):
        self.value = 0


def make_counters(n):
    return [Counter() for _ in range(n)]
