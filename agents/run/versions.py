"""What each round left on disk, how far it got, and which one stays when no round passed."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from agents.events import EventBus, FileChanged, Notice
from agents.rules.checks.module_starts import import_failures
from agents.rules.checks.written_checks import CheckOutcome
from agents.rules.rounds.broken_new_tests import broken_new_tests
from agents.rules.rounds.round_damage import damage, sources_before
from agents.rules.write.edit_guard import definitions
from agents.run.crew_tools import Check, ToolContext
from agents.run.tests_before import REGRESSED
from tools.workspace_files import python_sources


@dataclass
class Version:
    """The files a round left, and how far it got: (failed runs, problems and failed imports,
    negated; checks that crashed in the code, negated; asserts passed; asked-for functions
    defined). A program that does not run or import is worse than any that does."""

    round: int
    score: tuple[int, int, int, int]
    contents: dict[str, str]
    check_lines: list[str]
    outputs: tuple[str, ...] = ()  # the failed checks with what the code gave: equal, the tries agree
    # What the round left broken that the project had whole (agents/rules/rounds/round_damage.py, and the
    # sandbox's import check): such a round ranks below the project as it was.
    damage: tuple[str, ...] = ()
    # The failing tests the request is about that the round left failing (None: not known).
    still_failing: frozenset[str] | None = None


def same_code(a: dict[str, str], b: dict[str, str]) -> bool:
    """The same files with the same code: Python compared by syntax tree, so a path comment or a
    blank line more does not make a repeated answer new."""
    return a.keys() == b.keys() and all(code_of(a[rel]) == code_of(b[rel]) for rel in a)


def code_of(text: str, *, imports: bool = True) -> str:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text.strip()
    if not imports:
        tree.body = [node for node in tree.body if not isinstance(node, ast.Import | ast.ImportFrom)]
    return ast.dump(tree)


def crashed(failure: str) -> bool:
    """A check that failed inside the code, not on purpose (`raise ValueError` is the code's
    answer): the code is wrong there whatever the check expected. A value the
    reviewer expected is often the reviewer's mistake (bench.reviewer: 30 % of asserts right)."""
    located = re.search(r"\(at \S+ line \d+: (.*)\)$", failure)
    return bool(located and not located.group(1).startswith("raise"))


def files_now(context: ToolContext) -> dict[str, str]:
    contents = {}
    for rel in dict.fromkeys(context.written):
        try:
            contents[rel] = context.files.read_text(rel)
        except (ValueError, OSError):
            continue
    return contents


def version_of(
    context: ToolContext,
    round_number: int,
    results: list[Check],
    outcome: CheckOutcome | None,
    problems: list[str],
) -> Version:
    contents = files_now(context)
    runs = results[:-1] if outcome else results  # the written checks' run is the last one
    # Between equals by the checks, the version that defines more of the functions the request
    # names: an earlier try that skipped the asked-for function must not win the tie.
    defined = {name for text in contents.values() for name in definitions(text) or []}
    asked = sum(name in defined for name in context.facts.calls)
    failures = outcome.failures if outcome else []
    imports = sum(f.startswith("import ") for f in failures)
    score = (
        -(sum(not r.passed for r in runs) + len(problems) + imports),
        -sum(map(crashed, failures)),
        outcome.passed if outcome else 0,
        asked,
    )
    lines = [r.summary() for r in results]
    known = [set(r.still_failing) for r in results if r.still_failing is not None]
    still = frozenset().union(*known) if known else None
    damage = damage_of(context, results)
    return Version(round_number, score, contents, lines, tuple(sorted(failures)), damage, still)


def damage_of(context: ToolContext, results: list[Check]) -> tuple[str, ...]:
    """What the project as the round leaves it has broken that it had whole before the run."""
    after = python_sources(context.files)
    found = damage(sources_before(after, context.originals), after) + import_failures(results)
    if context.rules.on(broken_new_tests):
        found += broken_new_tests(context, results)
    return tuple(dict.fromkeys(found))


def regressed(version: Version) -> bool:
    """The round broke a test that passed before the run (agents/run/tests_before.py)."""
    return any(REGRESSED in line for line in version.check_lines)


def agreement(version: Version, versions: list[Version]) -> int:
    """How many other tries of its round give the same results on the same checks (the checks'
    calls are the shared inputs: CodeT / MBR-exec's vote, on candidates decoded together)."""
    return sum(
        v is not version and v.round == version.round and v.outputs == version.outputs for v in versions
    )


def best(versions: list[Version]) -> Version | None:
    """The try that got furthest; among equals, the one most others of its round agree with, then
    the earliest."""
    if not versions:
        return None
    return max(versions, key=lambda v: (v.score, agreement(v, versions), -v.round))


def restore_round(context: ToolContext, start: dict[str, str], written: list[str], bus: EventBus) -> None:
    """Puts the files a candidate wrote back as the round found them (`start`: the run's files
    then), so the next candidate starts where it did."""
    for rel in written:
        try:
            if rel in start:
                if text_of(context, rel) != start[rel]:
                    context.files.write_text(rel, start[rel])
            else:
                restore(context, {rel}, bus)
        except (ValueError, OSError) as exc:
            bus.emit(Notice(level="warning", message=f"Could not put back {rel} between candidates: {exc}"))


@dataclass(frozen=True)
class Kept:
    """What stays on disk after a run no round of which passed: a round (0: the project as it was)
    and its check lines."""

    round: int
    check_lines: list[str]
    as_before: bool = False  # every file the run touched is back as it was before the run
    worse: tuple[str, ...] = ()  # the rounds not kept for what they broke, each with its first break


def text_of(context: ToolContext, rel: str) -> str | None:
    try:
        return context.files.read_text(rel)
    except (ValueError, OSError):
        return None


def restore(context: ToolContext, paths: set[str], bus: EventBus) -> None:
    """Puts these files back as they were before the run (a file the run created is deleted);
    straight to disk, past the write rules: the text is the user's own."""
    for rel in sorted(paths):
        original = context.originals.get(rel)
        try:
            if original is not None and text_of(context, rel) != original:
                written = context.files.write_text(rel, original)
                bus.emit(FileChanged(path=written.rel, action="modified", diff=written.diff()))
            elif original is None and rel in context.created and context.files.resolve(rel).exists():
                context.files.delete(rel)
                bus.emit(FileChanged(path=rel, action="deleted", diff=""))
        except (ValueError, OSError) as exc:
            bus.emit(Notice(level="warning", message=f"Could not put back {rel} as it was: {exc}"))


def ending_message(
    passed: bool,
    round_number: int,
    versions: list[Version],
    kept: Kept | None = None,
    *,
    out_of_time: bool = False,
) -> str:
    if passed:
        return f"Approved after {round_number} round(s); checks passed."
    used = (
        f"The run's time was spent after {round_number} round(s)"
        if out_of_time
        else f"Rounds used up ({round_number})"
    )
    message = f"{used} without passing checks; see the last run output."
    worse = f" Not kept, for what it broke: {'; '.join(kept.worse)}." if kept and kept.worse else ""
    if kept is not None and kept.round == 0 and kept.worse:
        return message + " Nothing was changed: every try left the project worse than it was." + worse
    if kept is not None and kept.round == 0:
        fixed_none = any("no try fixed" in line for line in kept.check_lines)  # rule fix_or_leave
        why = (
            "no try made the failing tests it was asked about pass"
            if fixed_none
            else ("every try broke a test that passed before the run")
        )
        return message + f" Nothing was changed: {why}."
    if kept is not None and kept.round != round_number and kept.as_before:
        message += f" Nothing was changed: round {kept.round}, the best try, left the files as they were."
    elif kept is not None and kept.round != round_number:
        message += f" The files are as round {kept.round} left them."
    message += worse
    shown = best([v for v in versions if not v.damage])
    if shown and shown.score[:2] == (0, 0) and shown.score[2] > 0:
        # It runs and crashes nowhere; only expected values differ, and on small models the
        # reviewer is wrong more often than the code (bench.reviewer). Say so plainly.
        message += (
            " The code kept runs without errors; the checks that failed disagree with it,"
            " and the reviewer can be wrong: read them before trusting either."
        )
    return message
