def mean(values):
    return sum(values) / len(values)


def deltas(values):
    return [values[i + 1] - values[i] for i in range(len(values) - 1)]


def clip(values, low, high):
    return [min(max(v, low), high) for v in values]
