import statistics


def summary(scores):
    if not scores:
        raise ValueError("no scores")
    return {
        "mean": statistics.mean(scores),
        "median": statistics.median(scores),
        "mode": statistics.mode(scores),
        "pstdev": statistics.pstdev(scores),
        "quartiles": statistics.quantiles(scores, n=4),
    }
