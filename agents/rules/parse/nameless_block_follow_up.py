"""Rule nameless_block_follow_up: a follow-up's block without a file name goes to the last run's file."""

from __future__ import annotations

from agents.rules.rule import Stage, rule


@rule(
    "nameless_block_follow_up",
    Stage.PARSE,
    reason="a follow-up's block without a file name goes to the last run's file",
    evidence="tests/test_nameless_block_follow_up.py",
)
def nameless_block_follow_up(earlier: list[str]) -> str | None:
    """The file a block without a path is about: the one file the last run changed, if one."""
    return earlier[0] if len(earlier) == 1 else None
