import hashlib
from pathlib import Path

from headings import find_headings
from test_toc import test_slugify, test_toc  # noqa: F401
from toc import make_toc

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_toc.py": "17abc085fb50a4af641c9e4a76130e7ba79b4ea6436127fad3b0a071acf5ead6", "slug.py": "b8b0eea421ef91a13858fc884cda8d7961eacfa3d13398ec29e74f69750c727c", "toc.py": "fd9f4bb16cfefe227fe642f0c909f9c13b0167c95282a589bd6f9bcc3d3e1be8"}
DOC = """# Guide

Some text.

```python
# not a heading
x = 1
## nor this
```

## Install

```
# shell comment
```

### Use it
"""


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_code_blocks_are_skipped():
    assert find_headings(DOC) == [(1, "Guide"), (2, "Install"), (3, "Use it")]


def test_a_heading_after_a_block_counts():
    assert find_headings("```\n# a\n```\n# b\n") == [(1, "b")]


def test_no_blocks_as_before():
    assert find_headings("# One\n## Two ##\ntext #3\n") == [(1, "One"), (2, "Two")]
    assert make_toc(DOC) == "- [Guide](#guide)\n  - [Install](#install)\n    - [Use it](#use-it)"
