from pathlib import Path

import pytest
import sales

HERE = Path(__file__).parent


def test_the_projects_file():
    totals = sales.totals_by_region(str(HERE / "sales.csv"))
    assert set(totals) == {"north", "south", "east"}
    assert totals["north"] == pytest.approx(150.5)
    assert totals["south"] == pytest.approx(100)
    assert totals["east"] == pytest.approx(45.25)


def test_another_file(tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("region,amount\nwest,1\nwest,2.5\n")
    assert sales.totals_by_region(str(other)) == {"west": pytest.approx(3.5)}
