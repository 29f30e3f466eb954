from collections import defaultdict


def read_times(path):
    """Lines 'GET /users 120' -> {'/users': [120, ...]}"""
    times = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 3:
                times[parts[1]].append(int(parts[2]))
    return dict(times)
