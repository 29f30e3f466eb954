"""The coder's Markdown edit format: which blocks are files, and under which path."""

from agents.rules.parse.file_blocks import FileBlock, file_blocks, unclosed_block

F = "```"


def test_the_path_line_before_each_block_names_its_file() -> None:
    reply = f"Here you go.\n\na.py\n{F}python\nx = 1\n{F}\n\n**File: `pkg/b.py`**\n{F}python\ny = 2\n{F}\n"
    assert [(b.path, b.content) for b in file_blocks(reply, [])] == [
        ("a.py", "x = 1\n"),
        ("pkg/b.py", "y = 2\n"),
    ]


def test_a_nameless_block_belongs_to_the_one_expected_file_and_shell_blocks_are_not_files() -> None:
    reply = f"{F}python\ndef f():\n    return 1\n{F}\nRun it:\n{F}bash\npython m.py\n{F}\n"
    assert [(b.path, b.content) for b in file_blocks(reply, ["m.py"])] == [
        ("m.py", "def f():\n    return 1\n")
    ]
    assert file_blocks(reply, []) == []  # no name and nothing expected: nothing is guessed


def test_only_expected_files_are_written_and_the_last_version_wins() -> None:
    reply = f"m.py\n{F}python\nv = 1\n{F}\nother.py\n{F}python\nw = 2\n{F}\nm.py\n{F}python\nv = 2\n{F}\n"
    assert [(b.path, b.content) for b in file_blocks(reply, ["m.py"])] == [("m.py", "v = 2\n")]


def test_a_doubled_opening_fence_counts_once_and_a_comment_path_names_the_file() -> None:
    assert file_blocks(f"m.py\n{F}\n{F}python\nv = 1\n{F}\n", [])[0].content == "v = 1\n"
    assert file_blocks(f"{F}python\n# tools/x.py\nv = 1\n{F}\n", [])[0].path == "tools/x.py"


def test_a_block_cut_off_by_the_cap_is_not_a_file() -> None:
    reply = f"m.py\n{F}python\ndef f():\n    return ["
    assert file_blocks(reply, ["m.py"]) == [] and unclosed_block(reply)


def test_python_code_headed_by_a_data_file_name_never_becomes_that_file() -> None:
    # The 0.5B headed its grades.py code "# scores.csv": written, it replaced the user's data.
    reply = f"{F}python\n# scores.csv\nimport csv\n{F}\nconfig.json\n{F}python\nx = 1\n{F}\n"
    assert file_blocks(reply, []) == [] and file_blocks(reply, ["scores.csv"]) == []
    assert file_blocks(f'config.json\n{F}json\n{{"a": 1}}\n{F}\n', [])[0].path == "config.json"
    # With one Python file named by the request, code that parses is that file's.
    [block] = file_blocks(reply, ["scores.csv", "grades.py"])
    assert block.path == "grades.py" and "import csv" in block.content
    csv_rows = f"{F}python\n# scores.csv\nname,score\nAda,91\n{F}\n"  # not Python: nobody's
    assert file_blocks(csv_rows, ["scores.csv", "grades.py"]) == []


def test_a_path_wrapped_in_a_block_of_its_own_heads_the_next_block() -> None:
    # As the 0.5B answered an edit of textutil.py: the path in a markdown block, then the code.
    reply = "```markdown\ntextutil.py\n```python\ndef shout(text, times=1):\n    return text.upper()\n```\n"
    [block] = file_blocks(reply, ["textutil.py"])
    assert block.path == "textutil.py" and block.content.startswith("def shout(")
    assert "```" not in block.content


def test_one_block_holding_two_files_under_comment_headers_is_cut_in_two() -> None:
    # The 0.5B's answer to "Write areas.py ... and main.py that imports rect_area ...".
    reply = (
        f"{F}python\n# areas.py\ndef rect_area(width, height):\n    return width * height\n\n"
        f"# main.py\nfrom areas import rect_area\n\nprint(rect_area(3, 4))\n{F}\n"
    )
    blocks = {b.path: b.content for b in file_blocks(reply, ["areas.py", "main.py"])}
    assert list(blocks) == ["areas.py", "main.py"]
    assert "print" not in blocks["areas.py"] and blocks["main.py"].startswith("# main.py\nfrom areas")
    # A comment naming a file nobody expects is just a comment.
    [only] = file_blocks(reply.replace("# main.py", "# helper.py"), ["areas.py", "main.py"])
    assert only.path == "areas.py" and "# helper.py" in only.content


def test_data_rows_pasted_above_the_code_are_dropped_only_when_they_break_it() -> None:
    pasted = "# app.log:1-2\n2024-05-01 10:00:01 INFO started\n2024-05-01 10:00:02 ERROR x\n"
    code = "def count(path):\n    return 0\n"
    reply = f"logstats.py\n```python\n{pasted}{code}```\n"
    assert file_blocks(reply, ["logstats.py"]) == [FileBlock("logstats.py", code)]
    # Lines above the code that run are the user's program, not a paste: kept.
    kept = "LIMIT = 3\n# rows below\n" + code
    assert file_blocks(f"logstats.py\n```python\n{kept}```\n", ["logstats.py"])[0].content == kept
    # Code broken below its first definition is left as written: the check reports the error.
    broken = pasted + "def count(path):\n    return (\n"
    assert file_blocks(f"logstats.py\n```python\n{broken}```\n", ["logstats.py"])[0].content == broken


def test_a_misspelt_name_of_the_one_expected_file_writes_that_file() -> None:
    block = "```python\n# date.py\ndef is_leap(year):\n    return year % 4 == 0\n```\n"
    assert [b.path for b in file_blocks(block, ["dates.py"])] == ["dates.py"]
    # A test file, or a name not near any expected one, is still not written.
    tests = "```python\n# test_dates.py\ndef test_x():\n    pass\n```\n"
    assert file_blocks(tests, ["dates.py"]) == []
    other = "```python\n# calendar.py\nX = 1\n```\n"
    assert file_blocks(other, ["dates.py"]) == []


def test_a_nameless_block_of_tests_or_calls_after_the_code_is_not_the_file() -> None:
    code = "class Account:\n    def __init__(self):\n        self.balance = 0\n"
    tests = "def test_deposit():\n    assert Account().balance == 0\n"
    reply = f"```python\n{code}```\n\n```python\n{tests}```\n"
    assert file_blocks(reply, ["bank.py"]) == [FileBlock("bank.py", code)]
    calls = f"```python\n{code}```\n\n```python\nprint(Account().balance)\n```\n"
    assert file_blocks(calls, ["bank.py"]) == [FileBlock("bank.py", code)]
    # Alone, a block of calls is the program asked for; and a block that names its file is that
    # file's, even when it holds only calls.
    script = "```python\nprint(sum(range(11)))\n```\n"
    assert file_blocks(script, ["total.py"]) == [FileBlock("total.py", "print(sum(range(11)))\n")]
    named = "main.py\n```python\nprint(Account().balance)\n```\n"
    assert file_blocks(named, ["main.py", "bank.py"])[0].path == "main.py"


def test_a_later_block_repeating_the_file_as_shown_does_not_undo_an_earlier_change() -> None:
    shown = {"todo.py": '"""To-dos."""\n\n\nclass TodoList:\n    pass\n'}
    changed = "class TodoList:\n    def done(self, i):\n        return i\n"
    as_shown = "# todo.py\nclass TodoList:\n    pass\n"  # the docstring dropped, a path comment added
    reply = "".join(f"todo.py\n{F}python\n{code}{F}\n\n" for code in (as_shown, changed, as_shown))
    assert [b.content for b in file_blocks(reply, ["todo.py"], shown=shown)] == [changed]
    assert [b.content for b in file_blocks(reply, ["todo.py"])] == [as_shown]  # nothing shown to compare
    # Part of the file as it was changes nothing either.
    shown["todo.py"] += "\n\ndef fmt(item):\n    return str(item)\n"
    reply = "".join(f"todo.py\n{F}python\n{code}{F}\n\n" for code in (changed, as_shown))
    assert [b.content for b in file_blocks(reply, ["todo.py"], shown=shown)] == [changed]
    # Two changed versions: the last one still wins.
    other = changed.replace("return i", "return -i")
    reply = "".join(f"todo.py\n{F}python\n{code}{F}\n\n" for code in (changed, other))
    assert [b.content for b in file_blocks(reply, ["todo.py"], shown=shown)] == [other]


def test_a_reply_that_closes_a_block_it_already_wrote_has_enough() -> None:
    from agents.rules.parse.file_blocks import repeats_a_block

    block = "todo.py\n```python\ndef count(self):\n    return len(self.items)\n```\n"
    assert not repeats_a_block(block)
    assert repeats_a_block(block + block)
    assert not repeats_a_block(block + block.replace("len(", "sum("))
    assert not repeats_a_block(block + block[:-5])  # not closed yet
    empty = "a/__init__.py\n```python\n```\nb/__init__.py\n```python\n```\n"
    assert not repeats_a_block(empty)  # short blocks may be alike by right
