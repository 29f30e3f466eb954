def count_levels(path):
    counts = {}
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if len(parts) >= 3:
                counts[parts[2]] = counts.get(parts[2], 0) + 1
    return counts
