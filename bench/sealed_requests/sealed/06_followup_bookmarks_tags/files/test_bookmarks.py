import pytest
from bookmarks import Bookmarks
from export import to_html


def test_no_duplicates():
    marks = Bookmarks()
    marks.add("https://a.test", "A")
    with pytest.raises(ValueError):
        marks.add("https://a.test", "A again")


def test_html():
    marks = Bookmarks()
    marks.add("https://a.test", "A")
    assert '<a href="https://a.test">A</a>' in to_html(marks)
