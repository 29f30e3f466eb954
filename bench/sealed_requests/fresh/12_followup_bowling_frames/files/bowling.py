"""Ten-pin bowling scores from the list of rolls (pins knocked down per ball)."""


def score(rolls):
    total, i = 0, 0
    for _frame in range(10):
        if rolls[i] == 10:  # strike: 10 plus the next two balls
            total += 10 + rolls[i + 1] + rolls[i + 2]
            i += 1
        elif rolls[i] + rolls[i + 1] == 10:  # spare: 10 plus the next ball
            total += 10 + rolls[i + 2]
            i += 2
        else:
            total += rolls[i] + rolls[i + 1]
            i += 2
    return total
