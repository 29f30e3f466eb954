"""Ten-pin bowling scores from the list of rolls (pins knocked down per ball)."""


def frame_scores(rolls):
    """The running total after each of the 10 frames."""
    if any(pins < 0 or pins > 10 for pins in rolls):
        raise ValueError("a roll knocks down 0 to 10 pins")

    def ball(n):
        if n >= len(rolls):
            raise ValueError("not enough rolls for 10 frames")
        return rolls[n]

    totals, total, i = [], 0, 0
    for _frame in range(10):
        if ball(i) == 10:  # strike: 10 plus the next two balls
            total += 10 + ball(i + 1) + ball(i + 2)
            i += 1
        elif ball(i) + ball(i + 1) == 10:  # spare: 10 plus the next ball
            total += 10 + ball(i + 2)
            i += 2
        elif ball(i) + ball(i + 1) > 10:
            raise ValueError("more than 10 pins in one frame")
        else:
            total += ball(i) + ball(i + 1)
            i += 2
        totals.append(total)
    return totals


def score(rolls):
    return frame_scores(rolls)[-1]
