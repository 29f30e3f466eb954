def clamp(x, low, high):
    if x < low:
        return high
    if x > high:
        return low
    return x


def in_range(x, low, high):
    return low <= x <= high
