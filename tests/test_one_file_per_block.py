"""Rule one_file_per_block: a code block whose header line names several files is written to none,
with a one-line reason for the coder."""

from agents.file_blocks import FileBlock, file_blocks, refusals

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
