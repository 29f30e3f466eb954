import hashlib
from datetime import date
from pathlib import Path

import cli
from readings import Reading, parse_lines
from summary import summarize
from test_summary import test_parse, test_summary  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_summary.py": "8f6c7ff74cdcee3d3210cc347815f38c0e34860a987f14c4d7137c14b3421de4", "readings.py": "19754924c8375f10d8a971f541d7fa32a01daa20bc45a262d18414843fcfdb91", "cli.py": "9e6e0b159bc0d8466d67db59e9f2306716dfbba97733d8bed58f2261d34c74ed", "may.csv": "9436de9c5c02209f093a606b27b39658d49a848e9368be83396a60cab6bf454f"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_rainy_days_in_the_data():
    with open(HERE / "may.csv", encoding="utf-8") as fh:
        result = summarize(parse_lines(fh))
    assert result["rainy_days"] == 2
    assert (result["days"], result["min"], result["max"]) == (5, 9.5, 18.5)


def test_no_rain():
    readings = [Reading(date(2024, 6, d), 20.0, c) for d, c in ((1, "sunny"), (2, "cloudy"), (3, "Rain"))]
    assert summarize(readings)["rainy_days"] == 1
    assert summarize(readings[:2])["rainy_days"] == 0


def test_the_cli_prints_it(capsys):
    assert cli.main([str(HERE / "may.csv")]) == 0
    assert "rainy_days: 2" in capsys.readouterr().out
