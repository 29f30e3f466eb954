from datetime import date

from posts import Post, load_posts, parse_post


def test_parse_post():
    post = parse_post("Hello, World!\n2024-02-29\n\nFirst post.\nSecond line.")
    assert post.title == "Hello, World!" and post.published == date(2024, 2, 29)
    assert post.body == "First post.\nSecond line."
    assert post.slug == "hello-world"


def test_reading_minutes():
    assert Post("t", date(2024, 1, 1), "word " * 1000).reading_minutes() == 5
    assert Post("t", date(2024, 1, 1), "short").reading_minutes() == 1


def test_newest_first(tmp_path):
    (tmp_path / "a.txt").write_text("Old\n2023-01-01\n\nx")
    (tmp_path / "b.txt").write_text("New\n2024-01-01\n\ny")
    assert [post.title for post in load_posts(tmp_path)] == ["New", "Old"]
