def _present(scores):
    return [s for s in scores if s is not None]


def average(scores):
    scores = _present(scores)
    if not scores:
        raise ValueError("no scores")
    return sum(scores) / len(scores)


def median(scores):
    ordered = sorted(_present(scores))
    if not ordered:
        raise ValueError("no scores")
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def letter(score):
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    if score >= 60:
        return "D"
    return "F"
