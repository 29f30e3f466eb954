import hashlib
from datetime import datetime
from pathlib import Path

import pytest
from test_timesheet import test_amount, test_hours, test_projects  # noqa: F401
from timesheet import Timesheet
from week import demo_week

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_timesheet.py": "f0508e6cf59bf4cc7ace0ff54d963cb121e1729091be9e8e42a36af948461743", "invoice.py": "eecbcf2e1d3b7b6b6b64748d7de084e8ef7738890a74595148439fffc139897b", "week.py": "942927438db3d0cbda7660820a6e6f2d353cf810ff22a63d012c1492880d5ba2"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_hours_by_project():
    totals = demo_week().hours_by_project()
    assert set(totals) == {"website", "app"}
    assert totals["website"] == pytest.approx(5.5)
    assert totals["app"] == pytest.approx(4.0)
    assert Timesheet("x").hours_by_project() == {}


def test_an_entry_ending_before_it_starts():
    sheet = Timesheet("x")
    with pytest.raises(ValueError):
        sheet.add("app", datetime(2024, 6, 3, 12), datetime(2024, 6, 3, 11))
    assert sheet.entries == []
    sheet.add("app", datetime(2024, 6, 3, 12), datetime(2024, 6, 3, 12, 45))
    assert sheet.hours() == 0.75
