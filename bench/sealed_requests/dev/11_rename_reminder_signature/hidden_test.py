import hashlib
from pathlib import Path

import billing
import cli
from reminders import reminder_text
from test_billing import test_overdue_skips_paid  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_billing.py": "9d0df167d3a33895c978f5c80f11546641f23939d28a7ac0bcf412d1fd065690"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_one_invoice_dict():
    friendly = reminder_text({"customer": "Kim", "amount": 10, "days_late": 5})
    assert "Kim" in friendly and "10.00" in friendly and "5 days" in friendly
    firm = reminder_text({"customer": "Lee", "amount": 2.5, "days_late": 31})
    assert "Lee" in firm and "2.50" in firm and "7 days" in firm


def test_extra_keys_are_fine():
    text = reminder_text({"customer": "Kim", "amount": 10, "days_late": 5, "paid": False, "id": 7})
    assert "Kim" in text


def test_the_callers_work(capsys):
    texts = billing.overdue_reminders(billing.INVOICES)
    assert len(texts) == 2 and "Ada Byron" in texts[0] and "75.50" in texts[1]
    assert cli.main([]) == 0
    assert cli.main(["preview"]) == 0
    out = capsys.readouterr().out
    assert "Alan Tur" in out and "Sample Customer" in out and "99.99" in out
