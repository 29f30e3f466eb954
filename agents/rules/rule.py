"""What a rule is: a function in its own file under agents/rules/<stage>/, declared with `@rule`.

    @rule("stray_methods", Stage.WRITE, reason="methods written at the top level go back into their
          class", evidence="bench/results/2026-11-26-crew-0.5b-stray-methods")
    def stray_methods(draft: WriteDraft) -> None: ...

The decorator records the rule (name, stage, why, what justified it, its test) and returns the
function unchanged, so a home asks `rules.on(stray_methods)` of the function it calls: no rule is
looked up by a string. A stage package's `__init__` imports its rules in the order they run;
agents/rules/registry.py loads the stages and holds nothing else but their order and the table
docs/crew.md is generated from. This module imports nothing of the project, so any rule, and any
part of the runner, can take a `RuleSwitches` without an import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar


class Stage(StrEnum):
    PROMPT = "prompt"  # what the coder is shown
    PARSE = "parse reply"  # how its answer becomes files
    WRITE = "write"  # what a write keeps or refuses
    STATIC = "static problems"  # what is wrong without running anything
    CHECKS = "checks"  # what runs, and what counts as passing
    SETTLE = "settle failed checks"  # what is done about the reviewer's own failed checks
    ROUNDS = "rounds"  # when to try again, how, and what is kept at the end


@dataclass(frozen=True)
class Rule:
    name: str
    stage: Stage
    reason: str
    evidence: str  # a bench/results folder or a test file
    test: str  # the rule's own test file
    default: bool = True
    function: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    per_file: bool = False  # static problems: the rule looks at one written file at a time

    @property
    def home(self) -> str:
        """The file the rule is declared in."""
        module = getattr(self.function, "__module__", "")
        return module.replace(".", "/") + ".py"


DECLARED: dict[str, Rule] = {}  # in declaration order: each stage package imports its rules in order
F = TypeVar("F", bound=Callable[..., Any])


def rule(
    name: str, stage: Stage, *, reason: str, evidence: str, test: str = "", default: bool = True,
    per_file: bool = False,
) -> Callable[[F], F]:  # fmt: skip
    """Declare the function below as the rule `name` of `stage`."""

    def declare(function: F) -> F:
        if name in DECLARED:
            raise ValueError(
                f"rule {name} is declared twice: {DECLARED[name].home} and {function.__module__}"
            )
        found = Rule(
            name, stage, reason, evidence, test or f"tests/test_{name}.py", default, function, per_file
        )
        DECLARED[name] = found
        function.rule = found  # type: ignore[attr-defined]
        return function

    return declare


def rule_of(switch: Rule | Callable[..., Any]) -> Rule:
    found = switch if isinstance(switch, Rule) else getattr(switch, "rule", None)
    if not isinstance(found, Rule):
        raise TypeError(f"{switch!r} is not a rule: declare it with @rule")
    return found


@dataclass(frozen=True)
class RuleSwitches:
    """Which rules are on: each rule's default, less `disabled`, plus `enabled` (by name; the names
    are checked against the registry where switches come from a user: agents/rules/registry.py)."""

    disabled: frozenset[str] = frozenset()
    enabled: frozenset[str] = frozenset()

    def on(self, switch: Rule | Callable[..., Any]) -> bool:
        found = rule_of(switch)
        if found.name in self.disabled:
            return False
        return found.name in self.enabled or found.default

    def describe(self) -> dict[str, list[str]]:
        """For a benchmark's JSON line: what differs from the defaults."""
        return {"without": sorted(self.disabled), "with": sorted(self.enabled)}
