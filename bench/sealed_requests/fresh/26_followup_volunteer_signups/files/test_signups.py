from pathlib import Path

from badges import badge
from signups import load, save, shirt_order

HERE = Path(__file__).parent


def test_load():
    signups = load(HERE / "signups.csv")
    assert len(signups) == 5
    assert signups[0] == {"name": "Maria Lopez", "email": "maria@example.com", "shirt": ""}


def test_save_and_load(tmp_path):
    rows = [{"name": "A", "email": "a@x.io", "shirt": "M"}]
    save(rows, tmp_path / "out.csv")
    assert load(tmp_path / "out.csv") == rows


def test_shirt_order():
    assert shirt_order(load(HERE / "signups.csv")) == {"S": 1, "M": 1, "L": 1, "XL": 0}


def test_badge():
    assert badge({"name": "Ann Lee", "email": "a@x.io", "shirt": "xl"}) == "ANN LEE (XL)"
    assert badge({"name": "Bo", "email": "b@x.io", "shirt": ""}) == "BO"
