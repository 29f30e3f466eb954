"""The static-problems stage: what is wrong with the coder's answer without running anything.

Each rule returns the problems it finds, as the coder will be told them. Rules marked `per_file`
look at one file just written at a time (run file by file, in the registry's order); the others
look at the whole answer. The runner calls `static_problems` after each coder turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.request import RequestFacts, is_test_file
from agents.rules.registry import RuleSwitches, Stage
from agents.rules.rounds.round_damage import parse_problems, self_import_problems
from agents.rules.static.project_calls import broken_calls, new_call_breaks
from agents.rules.static.project_imports import broken_imports, new_breaks
from agents.rules.static.request_checks import (
    imports_for,
)
from agents.rules.static.request_checks import (
    ints_not_made as _ints_not_made,
)
from agents.rules.static.request_checks import (
    methods_outside_classes as _methods_outside_classes,
)
from agents.rules.static.request_checks import (
    read_before_assigned as _read_before_assigned,
)
from agents.rules.static.request_checks import (
    unbound_names as _unbound_names,
)
from agents.rules.static.request_checks import (
    undefined_calls as _undefined_calls,
)


@dataclass(frozen=True)
class StaticScan:
    facts: RequestFacts
    originals: dict[str, str | None]  # the files before the run's first write to them
    written: list[str]  # the files this turn wrote
    sources: dict[str, str]  # the project's Python files after the writes
    echoed: list[str]  # the files the answer left exactly as they were, when it changed nothing
    exists: Callable[[str], bool]


def per_file(function: Callable[[StaticScan, str], list[str]]) -> Callable[[StaticScan, str], list[str]]:
    function.per_file = True  # type: ignore[attr-defined]
    return function


def static_problems(scan: StaticScan, rules: RuleSwitches) -> list[str]:
    active = [rule.function() for rule in rules.active(Stage.STATIC)]
    files = [f for f in active if getattr(f, "per_file", False)]
    problems: list[str] = []
    for rel in [p for p in scan.written if p in scan.sources]:
        for rule in files:
            problems += rule(scan, rel)
    for rule in [f for f in active if f not in files]:
        problems += rule(scan)
    return problems


@per_file
def unbound_names(scan: StaticScan, rel: str) -> list[str]:
    """Names the file reads that nothing binds and that were not so before the run, with the
    import where another file defines them (the 1.5B's signup.py called is_email unimported)."""
    before = set(_unbound_names(scan.originals.get(rel) or ""))
    names = [name for name in _unbound_names(scan.sources[rel]) if name not in before]
    if not names:
        return []
    others = {other: text for other, text in scan.sources.items() if other != rel}
    imports = imports_for(names, others)
    hint = f" ({'; '.join(imports)})" if imports else ""
    them = "it" if len(names) == 1 else "them"
    return [f"{rel} uses {', '.join(names)} without defining or importing {them}{hint}."]


@per_file
def methods_outside_classes(scan: StaticScan, rel: str) -> list[str]:
    before = set(_methods_outside_classes(scan.originals.get(rel) or ""))
    problems = []
    for name, owner in _methods_outside_classes(scan.sources[rel]).items():
        if name not in before:
            place = f"class {owner}" if owner else "its class"
            problems.append(
                f"In {rel}, {name}(self, ...) is written at the top level of the file: as a"
                f" method it belongs inside {place}, indented under it."
            )
    return problems


@per_file
def read_before_assigned(scan: StaticScan, rel: str) -> list[str]:
    before = set(_read_before_assigned(scan.originals.get(rel) or ""))
    problems = []
    for found in [f for f in _read_before_assigned(scan.sources[rel]) if f not in before]:
        function, name = found.split(": ")
        problems.append(
            f"In {rel}, {function}() assigns {name} from a value that reads {name}: that makes"
            f" {name} local to {function}(), so the read fails (UnboundLocalError). Name the"
            " result differently."
        )
    return problems


def echoed_answer(scan: StaticScan) -> list[str]:
    """The 0.5B often copies the file it was shown back as it was: checks that passed before would
    pass again and approve a run that did nothing."""
    if not scan.echoed:
        return []
    # "Exactly as it was" only of the same bytes: the code compares by syntax tree, and a round
    # said to leave report.py "exactly as it was" had dropped the user's comment.
    before = scan.originals  # None: not known here, so no difference to tell
    same = [rel for rel in scan.echoed if before.get(rel) in (None, scan.sources.get(rel, before.get(rel)))]
    told = []
    if same:
        left = ", ".join(same)
        told.append(f"Your answer left {left} exactly as it was; make the change the request asks.")
    if other := [rel for rel in scan.echoed if rel not in same]:
        told.append(
            f"Your answer left the code of {', '.join(other)} as it was (only imports, comments or layout"
            " differ); make the change the request asks."
        )
    return told


def named_files_written(scan: StaticScan) -> list[str]:
    """Only what the user named must exist: a file the planner added may rightly not be written."""
    missing = [f for f in scan.facts.files if not scan.exists(f)]
    return [f"The request names {', '.join(missing)}, which was not written."] if missing else []


def undefined_calls(scan: StaticScan) -> list[str]:
    """Asked to add done(item), the 0.5B changed remove() instead, and nothing said so."""
    undefined = _undefined_calls(scan.facts.text, list(scan.sources.values()))
    if not undefined:
        return []
    asked = ", ".join(f"{name}()" for name in undefined)
    return [f"The request asks for {asked}, which no file defines."]


def ints_not_made(scan: StaticScan) -> list[str]:
    return [
        f"The request says {name}() returns an int, but nothing in {name}() makes one: a value"
        " read from a file or given as text stays text until int() converts it."
        for name in _ints_not_made(scan.facts.text, list(scan.sources.values()))
    ]


def _sources_before(scan: StaticScan) -> dict[str, str]:
    before = dict(scan.sources)
    for rel, text in scan.originals.items():
        if rel.endswith(".py"):
            if text is None:
                before.pop(rel, None)
            else:
                before[rel] = text
    return before


def files_parse(scan: StaticScan) -> list[str]:
    """Each Python file written that no longer parses (the 0.5B wrote the README's Markdown into a
    new database.py, and pytest, which never imported it, passed)."""
    written = {rel: scan.sources[rel] for rel in scan.written if rel in scan.sources}
    return parse_problems(_sources_before(scan), written)


def self_imports(scan: StaticScan) -> list[str]:
    """A module written that imports itself (the 0.5B's report.py, asked to be called from main.py)."""
    written = {rel: scan.sources[rel] for rel in scan.written if rel in scan.sources}
    return self_import_problems(_sources_before(scan), written)


def project_imports(scan: StaticScan) -> list[str]:
    """Every module of the project still imports what it imports from the others."""
    return new_breaks(_sources_before(scan), scan.sources)


def project_calls(scan: StaticScan) -> list[str]:
    """Every call of a project function, outside the user's tests, still fits its parameters."""
    return new_call_breaks(_sources_before(scan), scan.sources)


def files_broken(scan: StaticScan, rules: RuleSwitches) -> list[str]:
    """The project files whose imports or calls this run broke (by the checks switched on), tests
    left out: the files the coder must change too, which a request naming one file keeps it from."""
    before, after = _sources_before(scan), scan.sources
    found: set[str] = set()
    if rules.on("project_imports"):
        found |= {rel for rel, _, _ in broken_imports(after) - broken_imports(before)}
    if rules.on("project_calls"):
        found |= {broken[0] for broken in broken_calls(after) - broken_calls(before)}
    return sorted(rel for rel in found if not is_test_file(rel))
