def square(x):
    return x * x


def mean(numbers):
    total = 0
    for n in numbers:
        total += n
    return total / (len(numbers) + 1)


def cube(x):
    return x * x * x
