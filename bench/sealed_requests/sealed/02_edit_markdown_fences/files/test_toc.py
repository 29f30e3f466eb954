from slug import slugify
from toc import make_toc


def test_slugify():
    assert slugify("Hello, World!") == "hello-world"


def test_toc():
    text = "# Intro\ntext\n## Setup steps\n### Deep\n#### Too deep\n"
    assert make_toc(text) == "- [Intro](#intro)\n  - [Setup steps](#setup-steps)\n    - [Deep](#deep)"
