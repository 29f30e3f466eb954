"""The write stage: each rule takes the draft of one file write (agents/rules/write/draft.py) and
keeps, changes or refuses it. The imports below are the order the rules run in."""

from __future__ import annotations

from agents.rules.rule import RuleSwitches
from agents.rules.write import (  # the rules, in the order below
    data_files_kept,
    definitions_kept,
    example_usage,
    imports_added,
    stray_methods,
    untouched_text,
    user_tests_kept,
)
from agents.rules.write.draft import WriteDraft

ORDER = (
    data_files_kept.data_files_kept,
    definitions_kept.definitions_kept,
    user_tests_kept.user_tests_kept,
    untouched_text.untouched_text,
    example_usage.example_usage,
    stray_methods.stray_methods,
    imports_added.imports_added,
)


def write_rules(draft: WriteDraft, rules: RuleSwitches) -> None:
    """Each rule switched on, in order: each may refuse the write (ValueError) or change it; the
    first that finds the answer repeats the file (`draft.as_it_was`) ends the stage."""
    for each in ORDER:
        if rules.on(each):
            each(draft)
            if draft.as_it_was:
                return
