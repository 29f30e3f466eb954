import json


def load_settings(path):
    with open(path) as fh:
        return json.load(fh)


def get_port(path):
    return int(load_settings(path).get("port", 8000))
