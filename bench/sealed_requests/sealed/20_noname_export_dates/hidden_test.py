import csv
import hashlib
import io
from pathlib import Path

import main
from export import export_rows
from test_export import test_amount, test_balance  # noqa: F401
from transactions import SAMPLE

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_export.py": "4722089c59249c949e89035589ef558523bd3c5993d3736ffc63881b69689d18", "transactions.py": "9613ef4d8a614d51dffffeb88e6df201438b619cafd0ec0a7543f6b5966d0160", "main.py": "95adb268460420832715bc97d12c1428fec9961147d96613fedd6d51fcad6aa8"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_iso_dates_in_the_export():
    rows = list(csv.reader(io.StringIO(export_rows(SAMPLE))))
    assert rows[0] == ["date", "description", "amount"]
    assert [row[0] for row in rows[1:]] == ["2024-03-05", "2024-03-12", "2024-11-01"]
    assert rows[3][1:] == ["bike repair", "-85.50"]


def test_main_prints_them(capsys):
    assert main.main([]) == 0
    out = capsys.readouterr().out
    assert "2024-03-05" in out and "5/3/2024" not in out and "balance: 1364.50" in out
