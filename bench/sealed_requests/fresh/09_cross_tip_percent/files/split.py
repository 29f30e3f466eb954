"""Splitting a restaurant bill so the shares add up to the cent."""


def split_evenly(total, people):
    """Each person's share; when the cents don't divide evenly the first ones pay a cent more."""
    if people < 1:
        raise ValueError("somebody has to pay")
    cents = round(total * 100)
    base, extra = divmod(cents, people)
    return [(base + (1 if i < extra else 0)) / 100 for i in range(people)]
