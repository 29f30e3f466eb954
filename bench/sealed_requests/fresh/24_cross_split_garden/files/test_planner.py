import shutil
from datetime import date
from pathlib import Path

from garden import Plant
from planner import todays_list, water_all, week_ahead

HERE = Path(__file__).parent


def test_todays_list():
    plants = [Plant("mint", 2, date(2024, 7, 1)), Plant("fern", 3, date(2024, 7, 1))]
    assert todays_list(plants, date(2024, 7, 3)) == ["mint"]


def test_week_ahead():
    plants = [Plant("fern", 3, date(2024, 7, 1)), Plant("mint", 2, date(2024, 7, 1)), Plant("oak", 30, date(2024, 7, 1))]
    assert week_ahead(plants, date(2024, 7, 1)) == {"mint": date(2024, 7, 3), "fern": date(2024, 7, 4)}


def test_water_all(tmp_path):
    path = tmp_path / "garden.json"
    shutil.copy(HERE / "garden.json", path)
    assert water_all(path, date(2024, 7, 3)) == ["basil", "tomatoes"]
    assert water_all(path, date(2024, 7, 3)) == []
