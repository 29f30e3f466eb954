import subprocess
import sys
from pathlib import Path

import areas
import pytest

HERE = Path(__file__).parent


def test_rect_area():
    assert areas.rect_area(3, 4) == 12
    assert areas.rect_area(2.5, 2) == pytest.approx(5)


def test_main_prints_the_area():
    run = subprocess.run([sys.executable, "main.py"], cwd=HERE, capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    assert "12" in run.stdout
