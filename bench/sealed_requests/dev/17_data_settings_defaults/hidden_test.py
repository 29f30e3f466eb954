import hashlib
import json
from pathlib import Path

import server
from settings import DEFAULTS, load_settings
from test_server import test_banner, test_health  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_server.py": "60aef162433e53274691675dcad478b2d59d7dcf2ec87fb967fc67e994f29cba", "config.json": "2222d1f818f899968cd9e2d132f47ff206d1a1e3e54df2122e7718649e7484a7", "server.py": "23fada8fc79729d6db09b49d2a40d678841dd730dcc945dea2593dfd15e0a1c6", "routes.py": "68d8013d53bd869f0f605ab752bed221d8d6b74f97b99e94db6b30ca70fc45e2"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_the_users_config_loads():
    settings = load_settings(str(HERE / "config.json"))
    assert settings["host"] == "0.0.0.0" and settings["port"] == 9090 and settings["workers"] == 4
    assert settings["debug"] is False


def test_every_missing_key_falls_back(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"port": "7000"}))
    settings = load_settings(str(path))
    assert settings["port"] == 7000
    assert settings["host"] == DEFAULTS["host"] and settings["workers"] == DEFAULTS["workers"]
    path.write_text("{}")
    assert load_settings(str(path)) == DEFAULTS


def test_values_in_the_file_still_win(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"host": "h", "port": 1, "debug": True, "workers": 9}))
    assert load_settings(str(path)) == {"host": "h", "port": 1, "debug": True, "workers": 9}
    assert "(debug)" in server.banner(load_settings(str(path)))
    assert DEFAULTS == {"host": "127.0.0.1", "port": 8000, "debug": False, "workers": 2}
