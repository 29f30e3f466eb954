from datetime import date


def age_in_months(born, today=None):
    """Whole months from `born` to `today` (a month counts once its day is reached)."""
    today = today or date.today()
    months = (today.year - born.year) * 12 + today.month - born.month
    if today.day < born.day:
        months -= 1
    return max(months, 0)
