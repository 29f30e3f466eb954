def accuracy(answers):
    """Percentage of right answers (a list of True/False), one decimal; 0.0 when there are none."""
    if not answers:
        return 0.0
    return round(100 * sum(answers) // len(answers), 1)


def per_box(cards, max_box=5):
    counts = {box: 0 for box in range(1, max_box + 1)}
    for card in cards:
        counts[card["box"]] += 1
    return counts
