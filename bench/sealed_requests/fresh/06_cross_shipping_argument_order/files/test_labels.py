from labels import cheapest_split, label
from test_checkout import ORDER


def test_label_has_the_postage():
    text = label(ORDER)
    assert text.splitlines()[0] == "Mia Jansen"
    assert "6.90" in text


def test_split_parcels():
    assert cheapest_split(ORDER) == 4.5 + 4.5 + 1.2
