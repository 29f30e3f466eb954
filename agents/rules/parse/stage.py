"""The parse stage: how the coder's answer becomes files.
Its rules, in the order they run (as docs/crew.md lists them); each home asks
`rules.on(<the rule's function>)` where the rule applies."""

from __future__ import annotations

from agents.rules.parse.file_blocks import owner_of, refusals
from agents.rules.parse.nameless_block_follow_up import nameless_block_follow_up
from agents.rules.parse.path_lines_dropped import path_lines_dropped

ORDER = (
    path_lines_dropped,
    nameless_block_follow_up,
    owner_of,
    refusals,
)
