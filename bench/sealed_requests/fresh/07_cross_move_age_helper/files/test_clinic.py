from datetime import date

from billing import visit_price
from pets import Pet, describe, life_stage
from vaccines import due

TODAY = date(2025, 4, 15)
REX = Pet("Rex", "dog", date(2024, 12, 20))
MOG = Pet("Mog", "cat", date(2015, 3, 1))


def test_due():
    assert due("dog", REX.born, [], TODAY) == ["distemper", "parvovirus"]
    assert due("dog", REX.born, ["distemper"], TODAY) == ["parvovirus"]


def test_describe():
    assert describe(REX, TODAY) == "Rex (dog, 3 m, young)"
    assert describe(MOG, TODAY) == "Mog (cat, 10 y 1 m, senior)"
    assert life_stage(Pet("Bo", "dog", date(2020, 4, 15)), TODAY) == "adult"


def test_visit_price():
    assert visit_price(REX, ["parvovirus"], TODAY) == 22.5 + 28
    assert visit_price(MOG, [], TODAY) == 45
