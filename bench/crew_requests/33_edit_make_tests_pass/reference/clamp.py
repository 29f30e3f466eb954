def clamp(x, low, high):
    if x < low:
        return low
    if x > high:
        return high
    return x


def in_range(x, low, high):
    return low <= x <= high
