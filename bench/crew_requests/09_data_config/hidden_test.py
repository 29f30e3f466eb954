import json
from pathlib import Path

import settings

HERE = Path(__file__).parent


def test_the_projects_config():
    data = settings.load_settings(str(HERE / "config.json"))
    assert data == {"host": "localhost", "port": 8080, "debug": True}
    assert settings.get_port(str(HERE / "config.json")) == 8080


def test_no_port_gives_8000(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"host": "example.org"}))
    assert settings.get_port(str(other)) == 8000


def test_port_as_text(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"port": "9000"}))
    assert settings.get_port(str(other)) == 9000
