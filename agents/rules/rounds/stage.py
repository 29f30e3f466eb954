"""The rounds stage: when to try again, how, and what is kept at the end.
Its rules, in the order they run (as docs/crew.md lists them); each home asks
`rules.on(<the rule's function>)` where the rule applies."""

from __future__ import annotations

from agents.rules.rounds.broken_new_tests import broken_new_tests
from agents.rules.rounds.checked_approval import unchecked_approval
from agents.rules.rounds.fix_or_leave import fixed_nothing
from agents.rules.rounds.keep_best import keep_best
from agents.rules.rounds.plan_retries import plan_retries
from agents.rules.rounds.rename_check import rename_done
from agents.rules.rounds.round_policy import (
    asked_tests_fail,
    candidate_settings,
    coder_for,
    plain_round,
    repeats,
)
from agents.rules.rounds.test_search import judge_of
from agents.rules.rounds.worse_never_kept import worse_rounds

ORDER = (
    plan_retries,
    plain_round,
    coder_for,
    candidate_settings,
    judge_of,
    repeats,
    asked_tests_fail,
    broken_new_tests,
    keep_best,
    worse_rounds,
    fixed_nothing,
    unchecked_approval,
    rename_done,
)
