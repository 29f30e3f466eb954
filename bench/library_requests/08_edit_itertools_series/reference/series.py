from itertools import accumulate, groupby, islice


def mean(values):
    return sum(values) / len(values)


def deltas(values):
    return [values[i + 1] - values[i] for i in range(len(values) - 1)]


def clip(values, low, high):
    return [min(max(v, low), high) for v in values]


def running_total(values):
    return list(accumulate(values))


def runs(values):
    return [(value, len(list(group))) for value, group in groupby(values)]


def first_even(values, n):
    return list(islice((v for v in values if v % 2 == 0), n))
