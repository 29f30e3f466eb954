import subprocess
import sys
from pathlib import Path

import convert
import pytest

HERE = Path(__file__).parent


def test_miles_to_km():
    assert convert.miles_to_km(1) == pytest.approx(1.609344)
    assert convert.miles_to_km(0) == pytest.approx(0)


def test_km_to_miles_stays():
    assert convert.km_to_miles(10) == pytest.approx(6.21371)


def test_main_prints_both():
    run = subprocess.run([sys.executable, "main.py"], cwd=HERE, capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    lines = [line.strip() for line in run.stdout.splitlines() if line.strip()]
    assert "6.21" in lines[0]
    assert "16.09" in lines[-1]
