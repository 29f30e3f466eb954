"""Splitting a restaurant bill so the shares add up to the cent."""


def split_evenly(total, people, tip_percent=0):
    """Each person's share of the total with the tip on top; when the cents don't divide evenly
    the first ones pay a cent more."""
    if people < 1:
        raise ValueError("somebody has to pay")
    cents = round(total * (100 + tip_percent))
    base, extra = divmod(cents, people)
    return [(base + (1 if i < extra else 0)) / 100 for i in range(people)]
