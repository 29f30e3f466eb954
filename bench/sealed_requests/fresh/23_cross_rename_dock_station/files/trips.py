from stations import Dock


def ride(start: Dock, end: Dock):
    """Take a bike at start and park it at end; if end is full the bike stays at start."""
    start.take()
    try:
        end.park()
    except RuntimeError:
        start.park()
        raise


def rebalance(source: Dock, target: Dock, count):
    """Move up to `count` bikes by van from source to target; returns how many moved."""
    moved = 0
    while moved < count and source.bikes and target.free_slots():
        source.take()
        target.park()
        moved += 1
    return moved


def is_place(thing):
    return isinstance(thing, Dock)
