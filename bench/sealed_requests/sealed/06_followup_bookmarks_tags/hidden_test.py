import hashlib
from pathlib import Path

from importer import from_lines
from test_bookmarks import test_html, test_no_duplicates  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_bookmarks.py": "e69f873ce00e3796ec9ae1982c72428b2fb363fac0c6abfef363eaf800becc8f", "importer.py": "466b6ec07527e6c334949141d49de5531d1de62caafb5f7c56d0240d44344df5", "export.py": "4e87c6841372a2a443886fd5a25d282493374ee661ba0712f35425d0ba7c6b89"}
LINES = [
    "https://docs.python.org | Python docs | Python, docs",
    "https://flask.test | Flask | python, Web",
    "https://mdn.test | MDN | web, docs",
    "",
    "https://django.test | Django | PYTHON, web, framework",
]


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def urls(found):
    return sorted(b["url"] for b in found)


def test_one_tag_any_case():
    marks = from_lines(LINES)
    assert urls(marks.search("python")) == ["https://django.test", "https://docs.python.org", "https://flask.test"]
    assert urls(marks.search("DOCS")) == ["https://docs.python.org", "https://mdn.test"]
    assert marks.search("rust") == []


def test_several_tags_all_needed():
    marks = from_lines(LINES)
    assert urls(marks.search("python", "web")) == ["https://django.test", "https://flask.test"]
    assert urls(marks.search("Web", "DOCS")) == ["https://mdn.test"]
    assert urls(marks.search("python", "web", "framework")) == ["https://django.test"]


def test_tags_are_kept_as_typed():
    marks = from_lines(LINES)
    assert marks.items[0]["tags"] == ["Python", "docs"]
    marks.remove("https://flask.test")
    assert len(marks.items) == 3
