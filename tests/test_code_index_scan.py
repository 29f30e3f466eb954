"""Workspace scan: ignores, .gitignore, binaries, size limit, symlinks; globs; file decoding."""

import os
import re

import pytest

from tools.code_index.globs import glob_to_sql_like, path_matches
from tools.code_index.ignore import parse_gitignore
from tools.code_index.scan import (
    SKIP_BINARY,
    SKIP_IGNORED,
    SKIP_SYMLINK,
    SKIP_TOO_LARGE,
    SKIP_UNDECODABLE,
    read_text_file,
    scan_workspace,
)


def write(root, rel, data="x = 1\n"):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def paths(result):
    return [f.path for f in result.files]


def test_fixed_ignores(tmp_path):
    write(tmp_path, "src/app.py")
    write(tmp_path, ".git/config", "[core]\n")
    write(tmp_path, "node_modules/lib/index.js")
    write(tmp_path, ".localcrew/index/x.json", "{}")
    write(tmp_path, "__pycache__/app.cpython-311.pyc", b"\x00\x01")
    write(tmp_path, ".venv/lib/site.py")
    write(tmp_path, "myenv/pyvenv.cfg", "home = /usr\n")  # a venv under any name
    write(tmp_path, "myenv/lib/mod.py")
    write(tmp_path, "package-lock.json", "{}")
    write(tmp_path, "logo.png", b"\x89PNG\r\n")
    result = scan_workspace(tmp_path)
    assert paths(result) == ["src/app.py"]
    assert sorted(result.skipped[SKIP_IGNORED]) == [
        ".git/",
        ".venv/",
        "__pycache__/",
        "myenv/",
        "node_modules/",
        "package-lock.json",
    ]
    assert result.skipped[SKIP_BINARY] == ["logo.png"]


def test_gitignore_rules(tmp_path):
    write(
        tmp_path,
        ".gitignore",
        "# build output\n*.log\n!keep.log\nbuild/\n/secret.txt\ndocs/**/draft_*.md\n",
    )
    for rel in [
        "a.log",
        "sub/b.log",
        "keep.log",
        "build/out.py",
        "src/build/gen.py",
        "secret.txt",
        "sub/secret.txt",
        "docs/x/y/draft_1.md",
        "docs/final.md",
        "main.py",
    ]:
        write(tmp_path, rel)
    write(tmp_path, "sub/.gitignore", "local_only.py\n")
    write(tmp_path, "sub/local_only.py")
    write(tmp_path, "local_only.py")  # the nested rule does not apply above its folder
    assert paths(scan_workspace(tmp_path)) == [
        ".gitignore",
        "docs/final.md",
        "keep.log",
        "local_only.py",
        "main.py",
        "sub/.gitignore",
        "sub/secret.txt",
    ]


def test_gitignore_dir_only_rule_and_negation_order():
    rules = parse_gitignore("logs/\n*.tmp\n!important.tmp\n", base="")

    def ignored(path, is_dir=False):
        result = False
        for r in rules:
            if r.matches(path, is_dir):
                result = not r.negate
        return result

    assert ignored("logs", is_dir=True)
    assert not ignored("logs", is_dir=False)  # a file named logs
    assert ignored("a/b.tmp") and not ignored("a/important.tmp")


def test_size_limit_and_binary_content(tmp_path):
    write(tmp_path, "big.txt", "a" * 1_000_001)
    write(tmp_path, "ok.txt", "a" * 1_000_000)
    result = scan_workspace(tmp_path)
    assert paths(result) == ["ok.txt"]
    assert result.skipped[SKIP_TOO_LARGE] == ["big.txt"]
    blob = write(tmp_path, "data.txt", b"abc\x00def")
    assert read_text_file(blob).skip_reason == SKIP_BINARY


def test_undecodable_and_mostly_utf8_files(tmp_path):
    bad = write(tmp_path, "latin.txt", bytes(range(0x80, 0x100)) * 4)
    assert read_text_file(bad).skip_reason == SKIP_UNDECODABLE
    mostly = write(tmp_path, "mostly.py", ("x = 'caf\xe9'\n".encode("latin-1")) + b"y = 2\n" * 200)
    content = read_text_file(mostly)
    assert content.skip_reason is None and content.replaced_chars == 1
    assert "\ufffd" in content.text
    bom = write(tmp_path, "bom.py", "\ufeffx = 'ü'\n".encode())
    assert read_text_file(bom).text == "x = 'ü'\n"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlinks_are_not_followed_and_loops_do_not_hang(tmp_path):
    write(tmp_path, "pkg/mod.py")
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")  # points back to the root
    os.symlink(tmp_path / "self", tmp_path / "self")  # a link to itself
    os.symlink(tmp_path / "pkg" / "mod.py", tmp_path / "alias.py")
    result = scan_workspace(tmp_path)
    assert paths(result) == ["pkg/mod.py"]
    assert sorted(result.skipped[SKIP_SYMLINK]) == ["alias.py", "pkg/loop", "self"]


def test_excluded_index_folder(tmp_path):
    write(tmp_path, "a.py")
    write(tmp_path, "custom_index/t.lance/data.txt", "x")
    result = scan_workspace(tmp_path, exclude=[tmp_path / "custom_index"])
    assert paths(result) == ["a.py"]


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("*.py", "a.py", True),
        ("*.py", "deep/down/a.py", True),
        ("*.py", "a.pyc", False),
        ("tools/*.py", "tools/a.py", True),
        ("tools/*.py", "tools/sub/a.py", False),
        ("tools/**", "tools/sub/a.py", True),
        ("tools/", "tools/sub/a.py", True),
        ("tools/**/*.py", "tools/a.py", True),
        ("tools/**/*.py", "tools/x/y/a.py", True),
        ("/a.py", "sub/a.py", False),
        ("test_?.py", "tests/test_1.py", True),
        ("[ab].py", "c.py", False),
        ("[!ab].py", "c.py", True),
        ("src/*/models.py", "src/app/models.py", True),
    ],
)
def test_path_glob(pattern, path, expected):
    assert path_matches(pattern, path) is expected
    if expected:  # the SQL pre-filter never drops what the glob keeps
        like = glob_to_sql_like(pattern)
        regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in like)
        assert re.fullmatch(regex, path, re.DOTALL), (pattern, like, path)
