def average(scores):
    if not scores:
        raise ValueError("no scores")
    return sum(scores) / len(scores)


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
