"""The checks stage: what runs, and what counts as passing.
Its rules, in the order they run (as docs/crew.md lists them); each home asks
`rules.on(<the rule's function>)` where the rule applies."""

from __future__ import annotations

from agents.rules.checks.checks_beside_tests import checks_beside_tests
from agents.rules.checks.entry_commands import broken_commands
from agents.rules.checks.expects_output import expects_output
from agents.rules.checks.module_starts import broken_now
from agents.rules.checks.named_commands import named_command_check
from agents.rules.checks.tests_before_run import tests_before_run
from agents.rules.checks.written_checks import example_checks, parse_checks

ORDER = (
    tests_before_run,
    expects_output,
    example_checks,
    parse_checks,
    checks_beside_tests,
    broken_now,
    broken_commands,
    named_command_check,
)
