"""The reviewer's own version of a function, tried where the coder's keeps failing the checks.

Asked what a disputed call must return, the model sometimes writes the function again
(agents/rules/settle/check_disputes). On acceptance request 17 the 1.5B could not fix count_words in three
rounds as the coder, yet wrote `len(s.split())` as the reviewer. Such a second implementation is
put in place of the failing function (the rest of the file kept byte for byte,
agents/source/definition_merge.py) and run against every check in a folder of its own; only a version
that passes them all is written to the workspace.

Only for a function the file had before the run, and only while a check still fails on the coder's
version as it failed on the code before the run: the bug is then plainly still there. A check and a
second implementation from the same model can share a mistake (the 1.5B took "variance" for the
sample variance in both); on a new function, or one whose behaviour the coder did change, that
pair must not outvote the coder.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from agents.rules.checks.written_checks import CheckOutcome, check_program, read_outcome
from agents.rules.rule import Stage, rule
from agents.rules.settle.check_disputes import run_beside
from agents.rules.write.edit_guard import definitions, lost_definitions
from agents.source.definition_merge import merge_definitions, top_level_functions
from tools.sandbox import RunLimits


@dataclass(frozen=True)
class Candidate:
    path: str
    text: str  # the whole file with the reviewer's functions in place
    names: list[str]  # the functions replaced


@rule(
    "reviewer_version",
    Stage.SETTLE,
    reason="the reviewer's own version is used where it passes every check",
    evidence="bench/results/2026-11-26-crew-1.5b-reviewers-version",
)
def candidates(
    implementations: dict[str, str],
    sources: dict[str, str],
    failures: list[str],
    originals: dict[str, str | None],
) -> list[Candidate]:
    """Per Python file, the file with the reviewer's version of each failing function it defines;
    only where that replaces a function the file had before the run (`originals`: the files' text
    then, None for a new file) and loses nothing else."""
    failing = {name for name in implementations if any(re.search(rf"\b{name}\(", f) for f in failures)}
    found = []
    for path, text in sources.items():
        before = definitions(originals.get(path) or "") or []
        text_now, names = text, []
        for name in sorted(failing & set(before)):
            code = with_parameters_of(implementations[name], name, originals.get(path) or "")
            merged = merge_definitions(text_now, code) if code else None
            # Only the failing function itself: the reviewer's copy of another one is not asked for.
            if merged is None or merged.replaced != [name] or merged.removed:
                continue
            if lost_definitions(text, merged.text):
                continue
            text_now, names = merged.text, names + [name]
        if names:
            found.append(Candidate(path, text_now, names))
    return found


def outcome_beside(
    files: dict[str, str], modules: list[str], checks: str, limits: RunLimits
) -> CheckOutcome | None:
    """The checks' outcome run in a folder holding only `files` (the project's modules, the data
    files), never in the workspace; None when the program could not report."""
    return read_outcome(run_beside(check_program(modules, checks), limits, files).stdout_tail)


def still_failing_as_before(failures: list[str], before: CheckOutcome | None) -> bool:
    """A check fails now with the very value it failed with on the code before the run."""
    return before is not None and bool(set(failures) & set(before.failures))


def passes_every_check(
    candidate: Candidate, beside: dict[str, str], modules: list[str], checks: str, limits: RunLimits
) -> bool:
    outcome = outcome_beside({**beside, candidate.path: candidate.text}, modules, checks, limits)
    return outcome is not None and outcome.ok


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, ast.arg]]:
    a = function.args
    kinds = [("positional only", p) for p in a.posonlyargs] + [("positional", p) for p in a.args]
    kinds += [("*", a.vararg)] if a.vararg else []
    kinds += [("keyword only", p) for p in a.kwonlyargs] + ([("**", a.kwarg)] if a.kwarg else [])
    return kinds


def with_parameters_of(code: str, name: str, original: str) -> str | None:
    """The implementation of function `name` with the original's parameter names (the 1.5B wrote
    `count_words(s)` for `count_words(text)`: a caller passing text= would break); None when the
    parameters differ in number or kind, or a new name would clash with one the body uses."""
    try:
        tree, old_tree = ast.parse(code), ast.parse(original)
    except (SyntaxError, ValueError):
        return None
    new, old = top_level_functions(tree).get(name), top_level_functions(old_tree).get(name)
    if new is None or old is None:
        return code  # a class: its methods' parameters are the merge's business
    new_params, old_params = _parameters(new), _parameters(old)
    if [k for k, _ in new_params] != [k for k, _ in old_params]:
        return None
    renames = {n.arg: o.arg for (_, n), (_, o) in zip(new_params, old_params, strict=True) if n.arg != o.arg}
    if not renames:
        return code
    used = {n.id for n in ast.walk(new) if isinstance(n, ast.Name)} | {p.arg for _, p in new_params}
    if any(target in used and target not in renames for target in renames.values()):
        return None
    for node in ast.walk(new):
        if isinstance(node, ast.Name) and node.id in renames:
            node.id = renames[node.id]
        elif isinstance(node, ast.arg) and node.arg in renames:
            node.arg = renames[node.arg]
    return ast.unparse(tree) + "\n"
