from dataclasses import dataclass, field
from datetime import date

from vaccines import age_in_months


@dataclass
class Pet:
    name: str
    species: str
    born: date
    vaccines: list = field(default_factory=list)


def life_stage(pet, today=None):
    months = age_in_months(pet.born, today)
    if months < 12:
        return "young"
    return "senior" if months >= 96 else "adult"


def describe(pet, today=None):
    months = age_in_months(pet.born, today)
    years, rest = divmod(months, 12)
    age = f"{years} y {rest} m" if years else f"{rest} m"
    return f"{pet.name} ({pet.species}, {age}, {life_stage(pet, today)})"
