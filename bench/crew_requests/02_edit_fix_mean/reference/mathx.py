def square(x):
    return x * x


def mean(numbers):
    if not numbers:
        raise ValueError("mean of an empty list")
    total = 0
    for n in numbers:
        total += n
    return total / len(numbers)


def cube(x):
    return x * x * x
