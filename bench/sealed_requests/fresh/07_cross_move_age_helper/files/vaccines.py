from datetime import date

SCHEDULE = {
    "dog": [("distemper", 2), ("parvovirus", 3), ("rabies", 4), ("booster", 12)],
    "cat": [("cat flu", 2), ("enteritis", 3), ("rabies", 4), ("booster", 12)],
}


def age_in_months(born, today=None):
    """Whole months from `born` to `today` (a month counts once its day is reached)."""
    today = today or date.today()
    months = (today.year - born.year) * 12 + today.month - born.month
    if today.day < born.day:
        months -= 1
    return max(months, 0)


def due(species, born, given, today=None):
    """The vaccines the animal is old enough for and has not had yet."""
    age = age_in_months(born, today)
    return [name for name, months in SCHEDULE[species] if months <= age and name not in given]
