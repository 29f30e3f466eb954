"""Rule checks_beside_tests: in a project with tests, the asked behaviour is checked too."""

from __future__ import annotations

from agents.rules.rule import RuleSwitches, Stage, rule


@rule(
    "checks_beside_tests",
    Stage.CHECKS,
    reason=(
        "in a project with tests, the asked behaviour is checked too (off: not yet measured on dev; the "
        "project's tests alone approved a follow-up that never changed median())"
    ),
    evidence="tests/test_checks_beside_tests.py",
    default=False,
)
def checks_beside_tests(rules: RuleSwitches, modules: list[str], user_tests: bool) -> bool:
    """Whether written checks (docstring examples, the reviewer's asserts) run on the modules
    written: always where the project has no tests of its own; beside them, only with this rule."""
    return bool(modules) and (not user_tests or rules.on(checks_beside_tests))
