from pathlib import Path

import logstats

HERE = Path(__file__).parent


def test_the_projects_log():
    assert logstats.count_levels(str(HERE / "app.log")) == {"INFO": 2, "WARNING": 1, "ERROR": 2}


def test_another_log(tmp_path):
    other = tmp_path / "other.log"
    other.write_text("2024-01-01 00:00:00 DEBUG a\n2024-01-01 00:00:01 DEBUG b c\n")
    assert logstats.count_levels(str(other)) == {"DEBUG": 2}
