import heapq
import itertools


class JobQueue:
    """Jobs by priority: 1 is the most urgent; equal priorities come out in the order they went in."""

    def __init__(self):
        self._heap = []
        self._order = itertools.count()

    def push(self, job, priority=5):
        if not 1 <= priority <= 9:
            raise ValueError("priority is 1 (urgent) to 9")
        heapq.heappush(self._heap, (priority, next(self._order), job))

    def pop(self):
        if not self._heap:
            raise IndexError("no jobs")
        return heapq.heappop(self._heap)[2]

    def peek(self):
        return self._heap[0][2] if self._heap else None

    def __len__(self):
        return len(self._heap)
