from dates import age_in_months

SCHEDULE = {
    "dog": [("distemper", 2), ("parvovirus", 3), ("rabies", 4), ("booster", 12)],
    "cat": [("cat flu", 2), ("enteritis", 3), ("rabies", 4), ("booster", 12)],
}


def due(species, born, given, today=None):
    """The vaccines the animal is old enough for and has not had yet."""
    age = age_in_months(born, today)
    return [name for name, months in SCHEDULE[species] if months <= age and name not in given]
