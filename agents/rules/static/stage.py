"""The static-problems stage: what is wrong with the coder's answer without running anything. The
order below is the order the rules run in (per-file rules file by file first, then the others)."""

from __future__ import annotations

from agents.request import is_test_file
from agents.rules.rule import RuleSwitches, rule_of
from agents.rules.static import (  # the rules, in the order below
    defined_twice,
    echoed_answer,
    files_parse,
    ints_not_made,
    methods_outside_classes,
    named_files_written,
    new_parameters_used,
    pasted_tests,
    project_calls,
    project_imports,
    read_before_assigned,
    self_imports,
    unbound_names,
    undefined_calls,
)
from agents.rules.static.project_calls import broken_calls
from agents.rules.static.project_imports import broken_imports
from agents.rules.static.scan import StaticScan, sources_before

ORDER = (
    unbound_names.unbound_names,
    methods_outside_classes.methods_outside_classes,
    defined_twice.defined_twice,
    read_before_assigned.read_before_assigned,
    new_parameters_used.new_parameters_used,
    echoed_answer.echoed_answer,
    named_files_written.named_files_written,
    undefined_calls.undefined_calls,
    ints_not_made.ints_not_made,
    project_imports.project_imports,
    project_calls.project_calls,
    files_parse.files_parse,
    self_imports.self_imports,
    pasted_tests.pasted_tests,
)


def static_problems(scan: StaticScan, rules: RuleSwitches) -> list[str]:
    active = [each for each in ORDER if rules.on(each)]
    files = [f for f in active if rule_of(f).per_file]
    problems: list[str] = []
    for rel in [p for p in scan.written if p in scan.sources]:
        for each in files:
            problems += each(scan, rel)
    for each in [f for f in active if f not in files]:
        problems += each(scan)
    return problems


def files_broken(scan: StaticScan, rules: RuleSwitches) -> list[str]:
    """The project files whose imports or calls this run broke (by the checks switched on), tests
    left out: the files the coder must change too, which a request naming one file keeps it from."""
    before, after = sources_before(scan), scan.sources
    found: set[str] = set()
    if rules.on(project_imports.project_imports):
        found |= {rel for rel, _, _ in broken_imports(after) - broken_imports(before)}
    if rules.on(project_calls.project_calls):
        found |= {broken[0] for broken in broken_calls(after) - broken_calls(before)}
    return sorted(rel for rel in found if not is_test_file(rel))
