import ast
import hashlib
from datetime import date
from pathlib import Path

import feed
import pages
import posts
import textutil
from test_pages import test_feed, test_urls  # noqa: F401
from test_posts import test_newest_first, test_parse_post, test_reading_minutes  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_posts.py": "441f7be3aab14005e423245a6969eca57e270197a414b83c0331f55ea776922e", "test_pages.py": "006103eb7fc7b3b2a88355c419f587cad47248d43b9b32fdafb888aea1e54a03"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _tree(name):
    return ast.parse((HERE / name).read_text(encoding="utf-8"))


def test_slugify_lives_in_textutil():
    assert textutil.slugify("Hello, World!") == "hello-world"
    assert textutil.slugify("  C3PO & R2-D2  ") == "c3po-r2-d2"
    assert "slugify" in {node.name for node in _tree("textutil.py").body if isinstance(node, ast.FunctionDef)}


def test_posts_no_longer_defines_it():
    defined = {node.name for node in ast.walk(_tree("posts.py")) if isinstance(node, ast.FunctionDef)}
    assert "slugify" not in defined


def test_nobody_imports_it_from_posts():
    for path in HERE.glob("*.py"):
        if path.name.startswith("test_"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "posts":
                assert "slugify" not in {alias.name for alias in node.names}, path.name


def test_the_site_still_works():
    post = posts.parse_post("Ten Things: A List\n2023-12-31\n\nOne two three.")
    assert post.slug == "ten-things-a-list"
    assert pages.post_url(post) == "https://blog.example.org/2023/ten-things-a-list/"
    assert pages.tag_url("Python 3") == "https://blog.example.org/tags/python-3/"
    assert "urn:blog:2023-12-31:ten-things-a-list" in feed.feed([post])
    assert pages.index_lines([post]) == ["2023-12-31  Ten Things: A List  (1 min)"]
    assert posts.Post("x", date(2024, 1, 1), "").reading_minutes() == 1
