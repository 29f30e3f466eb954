"""Chunking: Python along ast boundaries, other text in overlapping line windows, token limits."""

from tools.code_index.chunking import Chunker, detect_language, line_tokens

PY = '''"""Module docstring."""
import os
from pathlib import Path

LIMIT = 3


# Adds two numbers.
@cache
def add(a, b):
    """Return the sum."""
    return a + b


class Store(Base):
    """Keeps things."""

    kind = "store"

    def __init__(self):
        self.items = []

    @property
    def size(self):
        def inner():
            return 1

        return len(self.items)

    class Meta:
        ordering = ["id"]


if __name__ == "__main__":
    print(add(1, 2))
'''


def spans(chunks):
    return [(c.start_line, c.end_line, c.symbol, c.kind) for c in chunks]


def test_python_chunks_follow_ast_boundaries():
    chunks = Chunker().chunk("pkg/store.py", PY)
    assert spans(chunks) == [
        (1, 5, "", "module"),  # docstring, imports, constant
        (8, 12, "add", "function"),  # comment + decorator belong to the function
        (15, 18, "Store", "class"),  # class header: line, docstring, attributes
        (20, 21, "Store.__init__", "method"),
        (23, 28, "Store.size", "method"),  # nested function stays inside
        (30, 31, "Store.Meta", "class"),
        (34, 35, "", "module"),
    ]
    assert all(c.language == "python" and c.path == "pkg/store.py" for c in chunks)
    lines = PY.splitlines()
    for c in chunks:  # text is exactly the file's lines
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])


def test_method_embed_text_names_its_class():
    chunks = Chunker().chunk("pkg/store.py", PY)
    size = next(c for c in chunks if c.symbol == "Store.size")
    assert size.embed_text.startswith("Store.size\n    @property")
    module = chunks[0]
    assert module.embed_text == module.text
    add = next(c for c in chunks if c.symbol == "add")  # the def line already names it
    assert add.embed_text == add.text


def test_python_with_syntax_error_falls_back_to_windows():
    chunks = Chunker().chunk("broken.py", "def f(:\n    pass\n")
    assert spans(chunks) == [(1, 2, "", "text")]


def test_empty_and_blank_files_give_no_chunks():
    assert Chunker().chunk("a.py", "") == []
    assert Chunker().chunk("a.md", "\n  \n\t\n") == []


def test_text_windows_overlap_and_cover_every_line():
    text = "\n".join(f"line {i}" for i in range(1, 101))
    chunks = Chunker(window_lines=30, overlap_lines=5).chunk("notes.txt", text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 30), (26, 55), (51, 80), (76, 100)]
    assert all(c.kind == "text" and c.symbol == "" for c in chunks)
    covered = set()
    for c in chunks:
        covered.update(range(c.start_line, c.end_line + 1))
    assert covered == set(range(1, 101))


def test_chunks_stay_within_the_token_limit():
    body = "\n".join(f"    total += compute_value(item_{i}, factor={i})" for i in range(200))
    src = f"def big():\n    total = 0\n{body}\n    return total\n"
    chunker = Chunker(max_tokens=64)
    chunks = chunker.chunk("big.py", src)
    assert len(chunks) > 5
    for c in chunks:
        assert c.symbol == "big" and c.kind == "function"
        assert sum(line_tokens(c.embed_text.split("\n"))) <= 64 - 2
    # consecutive windows overlap, and together they cover the function
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert b.start_line <= a.end_line
    assert chunks[0].start_line == 1 and chunks[-1].end_line == len(src.splitlines())


def test_an_over_long_line_is_cut_into_pieces():
    line = "x = '" + "abcdefghij" * 300 + "'"
    chunks = Chunker(max_tokens=100).chunk("minified.js", line)
    assert len(chunks) > 3
    assert all(c.start_line == c.end_line == 1 for c in chunks)
    assert "".join(c.text for c in chunks) == line  # pieces, each once (no overlap inside)


def test_real_tokenizer_counts_can_be_plugged_in():
    calls = []

    def count(lines):
        calls.append(len(lines))
        return [len(line.split()) for line in lines]  # one token per word

    chunks = Chunker(max_tokens=10, count_tokens=count).chunk("a.txt", "one two three\n" * 6)
    assert calls and all(sum(len(ln.split()) for ln in c.text.split("\n")) <= 8 for c in chunks)


def test_unicode_content_is_kept():
    src = 'def grüße(name):\n    """Sag Hallo — 你好 👋"""\n    return f"Hallo {name} ✓"\n'
    chunks = Chunker().chunk("unicode.py", src)
    assert spans(chunks) == [(1, 3, "grüße", "function")]
    assert "你好 👋" in chunks[0].text and chunks[0].content_hash


def test_language_detection():
    assert detect_language("a/b.py") == "python"
    assert detect_language("web/app.TSX") == "typescript"
    assert detect_language("Dockerfile") == "dockerfile"
    assert detect_language("README") == "text"
    assert detect_language(".bashrc") == "text"
