import json

DEFAULTS = {"host": "127.0.0.1", "port": 8000, "debug": False, "workers": 2}


def load_settings(path="config.json"):
    with open(path, encoding="utf-8") as fh:
        data = {**DEFAULTS, **json.load(fh)}
    return {
        "host": data["host"],
        "port": int(data["port"]),
        "debug": bool(data["debug"]),
        "workers": int(data["workers"]),
    }
