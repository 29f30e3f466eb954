"""Rule one_file_per_block: a code block whose header line names several files is written to none,
with a one-line reason for the coder."""

from agents.rules.parse.file_blocks import FileBlock, file_blocks, refusals

F = "```"


def test_a_block_under_a_line_naming_two_files_is_written_to_neither() -> None:
    # Issue 58: written to the last file named, a right total() went into models.py (a circular
    # import) and a rename meant for three modules went whole into main.py.
    reply = f"ledger.py, models.py\n{F}python\ndef total(xs):\n    return sum(xs)\n{F}\n"
    assert file_blocks(reply, ["ledger.py", "models.py"]) == []
    assert file_blocks(reply, []) == []
    [why] = refusals(reply)
    assert "ledger.py and models.py" in why and "\n" not in why
    assert file_blocks(reply, [], one_file=False) == [
        FileBlock("models.py", "def total(xs):\n    return sum(xs)\n")
    ]


def test_the_coder_is_told_why_and_the_rule_switches_off(tmp_path) -> None:
    from tests.crew_script import crew

    (tmp_path / "ledger.py").write_text("def total(xs):\n    return 0\n")
    (tmp_path / "models.py").write_text("class Entry:\n    pass\n")
    both = f"ledger.py, models.py\n{F}python\ndef total(xs):\n    return sum(xs)\n{F}\n"
    _, _, engine = crew(tmp_path, "Fix total() in ledger.py so it sums xs", coder=[both, both], rounds=2)
    retry = engine.calls_of("coder")[1].prompt
    assert "a block is one file" in retry
    assert "sum(xs)" not in (tmp_path / "models.py").read_text()
    off = frozenset({"one_file_per_block"})
    _, _, engine = crew(
        tmp_path, "Fix total() in ledger.py so it sums xs", coder=[both, both], rounds=2, without=off
    )
    assert "a block is one file" not in engine.calls_of("coder")[1].prompt


def test_a_method_named_beside_the_file_is_not_a_second_file() -> None:
    # IDE use (2026-11-29): the 1.5B's right fix of Store.add, under "I'll fix the `Store.add`
    # method ... Here's the updated `inventory/store.py` file:", was refused as naming two files.
    code = "class Store:\n    def add(self, n):\n        self.n += n\n"
    header = "Sure, I'll fix the `Store.add` method. Here's the updated `inventory/store.py` file:"
    reply = f"{header}\n\n{F}python\n{code}{F}\n"
    assert refusals(reply) == []
    assert file_blocks(reply, ["inventory/store.py"]) == [FileBlock("inventory/store.py", code)]
    # Alone on the line, a dotted name is not taken for a path either: the block goes to the one file.
    alone = f"The fixed `inventory.store`:\n{F}python\n{code}{F}\n"
    assert file_blocks(alone, ["inventory/store.py"]) == [FileBlock("inventory/store.py", code)]
