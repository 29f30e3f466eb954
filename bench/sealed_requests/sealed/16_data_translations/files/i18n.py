import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "messages"
_cache = {}


def messages(lang):
    if lang not in _cache:
        with open(FOLDER / f"{lang}.json", encoding="utf-8") as fh:
            _cache[lang] = json.load(fh)
    return _cache[lang]


def t(key, lang="en", **values):
    return messages(lang)[key].format(**values)
