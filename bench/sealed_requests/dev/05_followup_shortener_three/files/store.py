import json

from shortener import Shortener


def save(shortener, path):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"counter": shortener.counter, "urls": shortener.urls}, fh)


def load(path):
    shortener = Shortener()
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    shortener.counter = data["counter"]
    shortener.urls = data["urls"]
    return shortener
