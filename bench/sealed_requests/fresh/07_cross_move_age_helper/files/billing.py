from vaccines import age_in_months

CONSULT = 45.0
PER_VACCINE = 28.0


def visit_price(pet, vaccines_given, today=None):
    """Animals under six months get the consult at half price."""
    consult = CONSULT / 2 if age_in_months(pet.born, today) < 6 else CONSULT
    return consult + PER_VACCINE * len(vaccines_given)
