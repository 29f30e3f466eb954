import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "messages"
FALLBACK = "en"
_cache = {}


def messages(lang):
    if lang not in _cache:
        with open(FOLDER / f"{lang}.json", encoding="utf-8") as fh:
            _cache[lang] = json.load(fh)
    return _cache[lang]


def t(key, lang="en", **values):
    text = messages(lang).get(key)
    if text is None:
        text = messages(FALLBACK)[key]
    return text.format(**values)
