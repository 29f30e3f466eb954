import hashlib
from pathlib import Path

import badges
from signups import dedupe, load, shirt_order
from test_signups import test_badge, test_load, test_save_and_load, test_shirt_order  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_signups.py": "dbaa7fa6c72eac9bbd1dac57c72315c569abc89a3fd9276aa94353a1fc9ad2da", "signups.csv": "7be00a1d436f84066ce2d51e163f6af328611031bbc5b309f3a3d2e2ec491d33", "badges.py": "99ffe4423701a559f8d0e32de95103a8bb43b5b41e48a31ba2f4b786cddeb42a"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _s(name, email, shirt=""):
    return {"name": name, "email": email, "shirt": shirt}


def _names_and_sizes(signups):
    return [(s["name"], s["shirt"].strip()) for s in signups]


def test_first_of_each_email_in_order():
    people = [_s("A", "a@x.io", "S"), _s("B", "b@x.io", "M"), _s("A2", "a@x.io", "L"), _s("C", "c@x.io")]
    assert _names_and_sizes(dedupe(people)) == [("A", "S"), ("B", "M"), ("C", "")]
    assert dedupe([]) == []


def test_case_and_spaces_do_not_matter():
    people = [_s("A", "Ann@X.io ", "S"), _s("A2", " ann@x.IO", "M"), _s("B", "bob@x.io", "L"), _s("B2", "BOB@X.IO")]
    kept = dedupe(people)
    assert [s["name"] for s in kept] == ["A", "B"]
    assert [s["email"].strip().lower() for s in kept] == ["ann@x.io", "bob@x.io"]


def test_a_missing_size_comes_from_a_later_duplicate():
    people = [_s("A", "a@x.io"), _s("A2", "A@x.io", ""), _s("A3", "a@x.io", "XL")]
    assert _names_and_sizes(dedupe(people)) == [("A", "XL")]
    people = [_s("B", "b@x.io", "S"), _s("B2", "b@x.io", "L")]
    assert _names_and_sizes(dedupe(people)) == [("B", "S")]


def test_the_export_file():
    kept = dedupe(load(HERE / "signups.csv"))
    assert _names_and_sizes(kept) == [("Maria Lopez", "S"), ("Tom Baker", "L"), ("Priya Nair", "M")]
    assert shirt_order(kept) == {"S": 1, "M": 1, "L": 1, "XL": 0}
    assert badges.badge(kept[0]) == "MARIA LOPEZ (S)"
