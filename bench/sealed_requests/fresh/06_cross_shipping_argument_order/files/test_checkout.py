from checkout import parcel_weight, shipping_for, zone_of

ORDER = {
    "name": "Mia Jansen",
    "address": "Kade 4, Utrecht",
    "country": "NL",
    "items": [("mug", 0.4, 2), ("teapot", 1.1, 1)],
}


def test_zones():
    assert [zone_of(c) for c in ("NL", "DE", "US")] == ["domestic", "eu", "world"]


def test_weight_includes_the_box():
    assert parcel_weight(ORDER["items"]) == 2.1


def test_shipping():
    assert shipping_for(ORDER) == 4.5 + 2 * 1.2
    assert shipping_for({**ORDER, "country": "US"}) == 16.0 + 2 * 4.75
