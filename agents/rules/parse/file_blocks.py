"""The coder's edit format: each file whole, its path on the line before a Markdown code block.

Small coders write code better in a Markdown block than inside a JSON string (no escaping, no
stray closing brace; Aider measured the same). The runner, not the model, then writes each block
with the write tool, so the workspace checks, the snapshot and the lost-definition check apply.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import PurePosixPath

from agents.rules.rule import Stage, rule

FORMAT_RULES = (
    "Write each file you create or change whole: its path alone on one line, then the complete new "
    "content in one ```python code block. Nothing after the last block."
)
_OPEN = re.compile(r"^```[ \t]*([\w+-]*)[^\n`]*$")
_CLOSE = re.compile(r"^```[ \t]*$")
_PATH = re.compile(
    r"([A-Za-z0-9_][A-Za-z0-9_.-]{0,40}(?:/[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}){0,2}\.[A-Za-z0-9]{1,5})"
)
_NOT_FILES = {"text", "console", "shell", "bash", "sh", "output", "diff"}
# What a file's name ends with. `Store.add` or `inventory.store` on a header line is code, not a
# file: "I'll fix the `Store.add` method ... the updated `inventory/store.py`" counted as naming
# two files, and a right fix was not written (IDE use, 2026-11-29).
_SUFFIXES = """py pyi pyx ipynb txt md rst json jsonl toml yaml yml cfg ini conf env csv tsv xml html
htm css scss less js mjs cjs ts tsx jsx vue svelte sh bash zsh fish bat cmd ps1 c h cc cpp cxx hpp rs go
java kt kts swift rb php pl lua r sql svg lock log tex mk cmake gradle properties cs fs scala dart ex exs
erl hs ml clj el vim nix tf proto graphql gql j2 jinja tmpl tpl in out dat pem crt gitignore dockerignore
editorconfig sample bak orig patch diff"""
_FILE_SUFFIXES = frozenset(_SUFFIXES.split())


@dataclass(frozen=True)
class FileBlock:
    path: str
    content: str


def _blocks(reply: str) -> list[tuple[str, str, str]]:
    """(text before, language, code) of each closed fenced block. A fence opened twice in a row
    ("```" then "```python") counts once; a block left open at the end (cut off) is not returned."""
    found: list[tuple[str, str, str]] = []
    before: list[str] = []
    language, code, inside = "", [], False
    for line in reply.splitlines():
        if not inside:
            opened = _OPEN.match(line)
            if opened:
                language, code, inside = opened.group(1).lower(), [], True
            else:
                before.append(line)
        elif _CLOSE.match(line) and code:
            found.append(("\n".join(before), language, "\n".join(code) + "\n"))
            before, inside = [], False
        elif not code and (opened := _OPEN.match(line)) and opened.group(1):
            language = opened.group(1).lower()  # the doubled opening fence
        elif (opened := _OPEN.match(line)) and opened.group(1) and _only_a_path(code):
            # "```markdown", "textutil.py", "```python": the 0.5B wraps the path in a block of its
            # own; the path belongs before the real block, not inside the file.
            before, language, code = [*before, *code], opened.group(1).lower(), []
        elif not (_CLOSE.match(line) and not code):
            code.append(line)
    return found


def _only_a_path(code: list[str]) -> bool:
    lines = [line for line in code if line.strip()]
    return len(lines) == 1 and _PATH.fullmatch(lines[0].strip().strip("`*#: ")) is not None


def _path_before(text: str) -> str | None:
    """The file path on the last non-empty line before a fence (`mathx.py`, `**File: a/b.py**`)."""
    found = _paths_before(text)
    return found[-1] if found else None


def _paths_before(text: str) -> list[str]:
    """The distinct file paths on the last non-empty line before a fence."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    named = _PATH.findall(lines[-1].replace("`", " ").replace("*", " "))
    return list(dict.fromkeys(name for name in named if _is_file_name(name)))


def _is_file_name(name: str) -> bool:
    return name.rpartition(".")[2].lower() in _FILE_SUFFIXES


@rule(
    "one_file_per_block",
    Stage.PARSE,
    reason="a block under a line naming several files is written to none, and the coder told why",
    evidence="tests/test_one_file_per_block.py",
)
def refusals(reply: str) -> list[str]:
    """Why blocks were not written (rule one_file_per_block): the line before each names several
    files. Written to the last one named, a right total() meant for ledger.py went into models.py
    and made a circular import, and a rename meant for three modules went whole into main.py."""
    told = []
    for before, language, block in _blocks(reply):
        named = _paths_before(before)
        if len(named) > 1 and language not in _NOT_FILES and block.strip():
            told.append(
                f"The code block after the line naming {' and '.join(named)} was not written: a block is"
                " one file; put each file's path alone on the line before its own block."
            )
    return told


def _path_inside(code: str) -> str | None:
    first = code.splitlines()[0] if code.strip() else ""
    # `# calc.py`, `# File: calc.py`, or the bare path (the 0.5B put `counter.py` inside the block).
    match = re.fullmatch(r"\s*(?:#\s*)?(?:file:?\s*)?" + _PATH.pattern + r"\s*", first, re.I)
    return match.group(1) if match else None


def file_blocks(
    reply: str,
    expected: list[str],
    fallback: str | None = None,
    shown: Mapping[str, str] | None = None,
    owners: bool = False,
    one_file: bool = True,
) -> list[FileBlock]:
    """The files a reply writes, last version of each. A block without a path belongs to the one
    expected file when there is exactly one (else to `fallback`: the file a follow-up is about);
    output or shell blocks are never files. With expected files, only those may be written.
    `shown`: the files as the coder was shown them; a later block that changes nothing of one does
    not replace an earlier block that changed it (the 0.5B wrote todo.py three times: as it was,
    with the asked-for method, then part of it as it was). `owners`: a block without a path, among
    several expected files, goes to the one shown file that defines what it defines. `one_file`: a
    block whose header line names several files is written to none (`refusals` says why)."""
    found: dict[str, str] = {}
    for before, language, block in _blocks(reply):
        if language in _NOT_FILES or not block.strip() or (one_file and len(_paths_before(before)) > 1):
            continue
        for number, code in enumerate(_split_at_headers(block, expected)):
            named = (_path_before(before) if number == 0 else None) or _path_inside(code)
            if named is None and owners and len(expected) > 1 and shown:
                named = owner_of(code, {rel: shown[rel] for rel in expected if rel in shown})
            placed = _file_of(found, code, language, named, expected, fallback)
            if placed is None:
                continue
            path, text = placed
            if not (path in found and shown and path in shown and _repeats(text, found[path], shown[path])):
                found[path] = text
    return [FileBlock(path, content) for path, content in found.items()]


@rule(
    "nameless_block_owner",
    Stage.PARSE,
    reason=(
        "a block without a file name, among several files, goes to the one shown file that defines what "
        "it defines"
    ),
    evidence="bench/results/2026-11-28-ide-use-rename",
)
def owner_of(code: str, files: Mapping[str, str]) -> str | None:
    """The one file that defines at its top level something `code` defines (a rename across two
    files: the 0.5B answered report.py's summary() in a block with no path), or None."""
    defined = _top_level_names(code)
    owners = [rel for rel, text in files.items() if defined & _top_level_names(text)]
    return owners[0] if defined and len(owners) == 1 else None


def _top_level_names(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in tree.body if isinstance(node, kinds)}


def _repeats(later: str, earlier: str, shown: str) -> bool:
    """`later` changes nothing of the file as shown, and `earlier` does."""
    return _changes_nothing(later, shown) and not _changes_nothing(earlier, shown)


def _changes_nothing(code: str, shown: str) -> bool:
    """Every top-level statement of `code` is one of the shown file's, as it was: the whole file
    again, or some of it (the rest is kept in place, agents/source/definition_merge.py). The module
    docstring does not count (the 0.5B drops it); text that is not Python must be equal."""
    new, old = _statements(code), _statements(shown)
    if new is None or old is None:
        return code.strip() == shown.strip()
    return set(new) <= set(old)


def _statements(text: str) -> list[str] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    body = tree.body[1:] if ast.get_docstring(tree, clean=False) is not None else tree.body
    return [ast.dump(node) for node in body]


def _split_at_headers(code: str, expected: list[str]) -> list[str]:
    """One block holding several files, each under a `# main.py` comment line (the 0.5B's way with
    a two-file request), cut into one part per file. A header counts when it names an expected
    file (any .py file when none is expected) other than the part it would end."""
    parts: list[list[str]] = [[]]
    current = _path_inside(code)
    for line in code.splitlines(keepends=True):
        header = _path_inside(line) if line.startswith("#") else None
        named = header is not None and (header in expected if expected else header.endswith(".py"))
        if named and header != current and any(part.strip() for part in parts[-1]):
            parts.append([])
            current = header
        parts[-1].append(line)
    return ["".join(part) for part in parts]


def _file_of(
    found: dict[str, str],
    code: str,
    language: str,
    path: str | None,
    expected: list[str],
    fallback: str | None,
) -> tuple[str, str] | None:
    """The path and text of one file's code, if it is a file the reply may write (`found`: the
    files the reply wrote before it)."""
    if not code.strip():
        return None
    nameless = path is None
    if path is None and len(expected) == 1:
        path = expected[0]
    elif path is None and not expected:
        path = fallback
    if nameless and path in found and _usage_only(code):
        # A nameless block of tests or example calls after the code (the 0.5B's habit) is not
        # a new version of the file: written, it replaced the class the block before defined.
        return None
    elif path is not None and expected and path not in expected:
        path = _misspelt(path, expected) or path
    if path is None or (expected and path not in expected):
        return None
    if language in ("python", "py", "") and not path.endswith(".py"):
        # Python code headed "# scores.csv" must not overwrite the user's data file; when the
        # request names one Python file, code that defines something is that file's (the 0.5B
        # heads its grades.py with the data file it reads).
        python_files = [f for f in expected if f.endswith(".py")]
        if len(python_files) != 1 or not _defines_something(code):
            return None
        path = python_files[0]
    return path, _without_pasted_prefix(code) if path.endswith(".py") else code


_CODE_START = re.compile(r"^(?:def |async def |class |import |from |@)")


def _without_pasted_prefix(code: str) -> str:
    """Python that does not parse because lines that are not code come before its first
    definition or import (the 0.5B pasted the rows of the log file it was shown above its
    function), without those lines. Code that parses, or that still fails without them, is kept."""
    if _parses(code):
        return code
    lines = code.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _CODE_START.match(line)), 0)
    prefix, rest = "".join(lines[:start]), "".join(lines[start:])
    if start and not _parses(prefix) and _parses(rest):
        return rest
    return code


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _misspelt(path: str, expected: list[str]) -> str | None:
    """The one expected file `path` misspells (date.py for dates.py: the 0.5B took the planner's
    spelling), or None. A test file is never another file misspelt."""
    name = PurePosixPath(path)
    if name.stem.startswith("test") or name.stem.endswith("_test"):
        return None
    near = [
        f
        for f in expected
        if PurePosixPath(f).suffix == name.suffix
        and SequenceMatcher(None, PurePosixPath(f).stem, name.stem).ratio() >= 0.8
    ]
    return near[0] if len(near) == 1 else None


def _usage_only(code: str) -> bool:
    """Python that defines nothing but test functions: example calls, prints, asserts, tests."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = [node.name for node in tree.body if isinstance(node, kinds)]
    return bool(tree.body) and all(name.startswith(("test", "Test")) for name in defined)


def _defines_something(code: str) -> bool:
    """Python that parses and defines or imports something ('name,score' rows parse as tuples)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    return any(isinstance(node, kinds) for node in tree.body)


def unclosed_block(reply: str) -> bool:
    """A reply cut off inside its code block (the cap was reached): its file would be truncated."""
    return reply.count("```") % 2 == 1


_CLOSED_BLOCK = re.compile(r"^```[^\n`]*\n(.*?)\n```[ \t]*$", re.M | re.S)


def repeats_a_block(reply: str) -> bool:
    """Whether the block the reply just closed repeats one it already wrote. Sampled retries of the
    0.5B wrote todo.py's block again and again until the reply cap (83 s and 176 s where one block
    took 10); the blocks before are all the answer holds."""
    if not reply.rstrip().endswith("```"):
        return False
    blocks = [block.strip() for block in _CLOSED_BLOCK.findall(reply)]
    # Not a short one: two packages' empty __init__.py files are alike by right.
    return len(blocks) > 1 and len(blocks[-1]) >= 40 and blocks[-1] in blocks[:-1]
