"""Every rule of the crew, by stage, in the order it runs: one line each.

A rule is a small unit with a name, a stage, a one-line reason and a pointer to what justified it
(a bench/results folder or a test). Rules of the write and static-problems stages name their
function (`apply`, "module:function"); the write tool and the runner iterate those. Rules of the
other stages are decisions their one home asks about by name (`switches.on(...)`): the prompt and
parse rules in agents/run/coder_turn.py, the checks in agents/run/checks.py, the settling in
agents/run/settling.py, the rounds in agents/run/round_policy.py. Adding a rule: one function and
one line here; removing it: both lines go. docs/crew.md is generated from this table
(`python -m agents.rules.registry --markdown`).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


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
    apply: str = ""  # "module:function" for iterated stages
    default: bool = True

    def function(self) -> Callable[..., Any]:
        module, _, name = self.apply.partition(":")
        return getattr(importlib.import_module(module), name)


_R = Rule
_P, _A, _W, _S, _C, _T, _O = (
    Stage.PROMPT, Stage.PARSE, Stage.WRITE, Stage.STATIC, Stage.CHECKS, Stage.SETTLE, Stage.ROUNDS,
)  # fmt: skip
_WR = "agents.rules.write.write_rules:"
_ST = "agents.rules.static.static_rules:"

# fmt: off
RULES: tuple[Rule, ...] = (
    # ---- prompt ----
    _R("follow_up_memory", _P, "a follow-up is shown the previous request and the files it changed",
       "tests/test_follow_up_memory.py", "tests/test_follow_up_memory.py"),
    _R("work_files", _P, "a request naming files may write those it asks to change and the modules they "
       "import; naming only a test or a file to leave, the project's code", "tests/test_work_files.py",
       "tests/test_work_files.py"),
    _R("small_project_files", _P, "with no file named, a small project's files are shown whole",
       "bench/results/2026-11-25-crew-1.5b", "tests/test_small_project_files.py"),
    _R("retrieved_context", _P, "code found by search is shown when no file is",
       "bench/results/2026-11-25-crew-0.5b", "tests/test_retrieved_context.py"),
    _R("api_docs_lookup", _P, "a check failing on a library call brings the API's signature and docstring",
       "tests/test_api_docs.py", "tests/test_api_docs_lookup.py"),
    _R("api_docs_named", _P, "the APIs the request names come with their signature and docstring",
       "tests/test_api_docs_named.py", "tests/test_api_docs_named.py", default=False),
    _R("broken_files_shown", _P, "a project file the run broke (its imports or calls) is shown, and may "
       "be written, in the next round", "bench/results/2026-11-28-ide-use-rename",
       "tests/test_broken_files_shown.py"),
    _R("focused_retry", _P, "after an unchanged answer, only the functions at issue are shown",
       "bench/results/2026-11-26-crew-1.5b-class-checks", "tests/test_focused_retry.py"),
    _R("failure_evidence", _P, "a failing test is shown as its assertion, the value got and the one "
       "expected, and the project's own frames; round 1 of a request about failing tests sees them fail, "
       "and the code they call is shown whole", "bench/results/2026-11-28-test-judged-candidates",
       "tests/test_failure_evidence.py"),
    _R("code_under_test", _P, "a request judged by failing tests is told the tests are right and which "
       "of the project's functions they run (and the passing ones do not) is where the fix goes",
       "tests/test_code_under_test.py", "tests/test_code_under_test.py"),
    _R("ask_missing_file", _P, "a request to change a file the project does not have, and not to make it, "
       "gets a question before anything is written", "tests/test_ask_missing_file.py",
       "tests/test_ask_missing_file.py"),
    _R("ask_vague_request", _P, "a request that names nothing to change and nothing to check ('make it "
       "faster') gets a question before anything is written", "tests/test_ask_vague_request.py",
       "tests/test_ask_vague_request.py"),
    # ---- parse reply ----
    _R("path_lines_dropped", _A, "`# calc.py` lines the coder adds are not written into the file",
       "tests/test_path_lines_dropped.py", "tests/test_path_lines_dropped.py"),
    _R("nameless_block_follow_up", _A, "a follow-up's block without a file name goes to the last run's file",
       "tests/test_nameless_block_follow_up.py", "tests/test_nameless_block_follow_up.py"),
    _R("nameless_block_owner", _A, "a block without a file name, among several files, goes to the one "
       "shown file that defines what it defines", "bench/results/2026-11-28-ide-use-rename",
       "tests/test_nameless_block_owner.py"),
    _R("one_file_per_block", _A, "a block under a line naming several files is written to none, and the "
       "coder told why", "tests/test_one_file_per_block.py", "tests/test_one_file_per_block.py"),
    # ---- write ----
    _R("data_files_kept", _W, "a data file the request does not ask to change is never rewritten",
       "tests/test_edit_guard.py", "tests/test_data_files_kept.py", _WR + "data_files_kept"),
    _R("definitions_kept", _W, "a write that drops definitions is merged in place or refused",
       "tests/test_definition_merge.py", "tests/test_definitions_kept.py", _WR + "definitions_kept"),
    _R("user_tests_kept", _W, "the user's tests are ground truth: never edited unless the request asks",
       "tests/test_user_tests_kept.py", "tests/test_user_tests_kept.py", _WR + "user_tests_kept"),
    _R("untouched_text", _W, "a whole-file answer keeps the file's blank lines, docstring and the comments "
       "of the code it did not change",
       "tests/test_untouched_text.py", "tests/test_untouched_text.py", _WR + "untouched_text"),
    _R("example_usage", _W, "example code appended to a module goes under if __name__ == '__main__'",
       "tests/test_example_usage.py", "tests/test_example_usage.py", _WR + "example_usage"),
    _R("stray_methods", _W, "methods written at the top level go back into their class",
       "bench/results/2026-11-26-crew-0.5b-stray-methods", "tests/test_stray_methods.py",
       _WR + "stray_methods"),
    _R("imports_added", _W, "a name the file uses unbound, which one other module defines, gets its import",
       "tests/test_imports_added.py", "tests/test_imports_added.py", _WR + "imports_added"),
    # ---- static problems ----
    _R("unbound_names", _S, "a name the new code reads that nothing binds, with the import that would",
       "bench/results/2026-11-26-crew-1.5b-house", "tests/test_unbound_names.py", _ST + "unbound_names"),
    _R("methods_outside_classes", _S, "a method written at the top level is sent back",
       "bench/results/2026-11-26-crew-1.5b-class-checks", "tests/test_methods_outside_classes.py",
       _ST + "methods_outside_classes"),
    _R("read_before_assigned", _S, "a name read in its own first assignment (UnboundLocalError)",
       "tests/test_request_checks.py", "tests/test_read_before_assigned.py", _ST + "read_before_assigned"),
    _R("echoed_answer", _S, "an answer that leaves the files exactly as they were is sent back",
       "bench/results/2026-11-25-crew-0.5b", "tests/test_echoed_answer.py", _ST + "echoed_answer"),
    _R("named_files_written", _S, "the files the request names must be written",
       "tests/test_crew_logic.py", "tests/test_named_files_written.py", _ST + "named_files_written"),
    _R("undefined_calls", _S, "a function the request writes as a call that no file defines",
       "tests/test_request_checks.py", "tests/test_undefined_calls.py", _ST + "undefined_calls"),
    _R("ints_not_made", _S, "a function said to return 'an int' that never makes one",
       "bench/results/2026-11-26-crew-1.5b-put-back", "tests/test_ints_not_made.py", _ST + "ints_not_made"),
    _R("project_imports", _S, "every module of the project still imports what it imports from the others",
       "tests/test_project_imports.py", "tests/test_project_imports.py", _ST + "project_imports"),
    _R("project_calls", _S, "every call of a project function still fits its parameters after the run",
       "bench/results/2026-11-27-project-calls-static", "tests/test_project_calls.py", _ST + "project_calls"),
    _R("files_parse", _S, "a Python file written must parse: Markdown in a .py is sent back",
       "tests/test_files_parse.py", "tests/test_files_parse.py", _ST + "files_parse"),
    _R("self_imports", _S, "a module that imports itself is sent back",
       "tests/test_self_imports.py", "tests/test_self_imports.py", _ST + "self_imports"),
    # ---- checks ----
    _R("tests_before_run", _C, "the project's tests run once before the run: failures that were there "
       "before and the request is not about do not keep the run going",
       "tests/test_tests_before_run.py", "tests/test_tests_before_run.py"),
    _R("expects_output", _C, "a program asked to print that prints nothing fails",
       "tests/test_crew_tools.py", "tests/test_expects_output.py"),
    _R("docstring_examples", _C, "examples in docstrings run as asserts",
       "bench/results/2026-11-25-humaneval-qwen2.5-coder-1.5b-dev", "tests/test_docstring_examples.py"),
    _R("reviewer_checks", _C, "where no example exists, the reviewer writes asserts from the request",
       "bench/results/2026-11-23-reviewer", "tests/test_reviewer_checks.py"),
    _R("checks_beside_tests", _C, "in a project with tests, the asked behaviour is checked too (off: not "
       "yet measured on dev; the project's tests alone approved a follow-up that never changed median())",
       "tests/test_checks_beside_tests.py", "tests/test_checks_beside_tests.py", default=False),
    _R("modules_import", _C, "each Python file changed, and each module importing one, still imports in the "
       "sandbox, and each entry point still starts: pytest imports only what the tests do",
       "tests/test_modules_import.py", "tests/test_modules_import.py"),
    # ---- settle failed checks ----
    _R("plain_calls", _T, "a check wanting a value the request never promises runs as a plain call",
       "tests/test_mutator_checks.py", "tests/test_plain_calls.py"),
    _R("outside_checks", _T, "a check on untouched code failing as before the run is dropped",
       "bench/results/2026-11-26-crew-0.5b-outside-checks-narrowed", "tests/test_outside_checks.py"),
    _R("second_opinion", _T, "a check the model, asked without the code, answers as the code does is dropped",
       "bench/results/2026-11-26-crew-1.5b-second-opinion", "tests/test_second_opinion.py"),
    _R("reviewer_version", _T, "the reviewer's own version is used where it passes every check",
       "bench/results/2026-11-26-crew-1.5b-reviewers-version", "tests/test_reviewer_version.py"),
    _R("put_back_unasked", _T, "functions the run changed unasked are put back where checks allow",
       "bench/results/2026-11-26-crew-1.5b-put-back", "tests/test_put_back_unasked.py"),
    # ---- rounds ----
    _R("plan_retries", _O, "the planner plans each retry (off: it added time and nothing measured)",
       "bench/results/2026-11-25-crew-1.5b-retries-without-planner", "tests/test_plan_retries.py",
       default=False),
    _R("plain_retry", _O, "after round 1 fails on a one-file request, one plain round more",
       "bench/results/2026-11-26-humaneval-qwen2.5-coder-1.5b-plain-and-sampled",
       "tests/test_plain_retry.py"),
    _R("sampled_retries", _O, "retries are sampled (seeded), not greedy: greedy repeats itself",
       "bench/results/2026-11-26-crew-0.5b-plain-and-sampled", "tests/test_sampled_retries.py"),
    _R("candidates", _O, "a sampled retry decodes several candidates in one batch and tries each in turn",
       "tests/test_candidates.py", "tests/test_candidates.py"),
    _R("test_judged_candidates", _O, "where failing project tests judge the request, after a greedy first "
       "try each round decodes several candidates in one batch, runs those tests then the suite on each, "
       "stops at the first that passes, and starts the next round from the best",
       "bench/results/2026-11-28-test-judged-candidates", "tests/test_test_judged_candidates.py"),
    _R("fresh_after_repeat", _O, "a retry that repeats an earlier try is asked again afresh at once",
       "bench/results/2026-11-25-crew-0.5b", "tests/test_fresh_after_repeat.py"),
    _R("asked_tests_stop", _O, "asked for tests that fail on code the run did not change, the run stops",
       "tests/test_crew_logic.py", "tests/test_asked_tests_stop.py"),
    _R("keep_best", _O, "the best of {the project as it was, each round} is what stays on disk",
       "tests/test_keep_best.py", "tests/test_keep_best.py"),
    _R("worse_never_kept", _O, "a round that leaves a problem the project did not have (a file that does "
       "not parse or import, an unbound name, an entry point that no longer starts) ranks below the "
       "project as it was", "tests/test_worse_never_kept.py", "tests/test_worse_never_kept.py"),
    _R("checked_approval", _O, "a run is approved only on a check of its change: the project's tests "
       "passing as they did before the run are none", "bench/results/2026-11-27-checked-approval",
       "tests/test_checked_approval.py"),
    _R("rename_verified", _O, "a rename the request asks for, found complete in the files (old name used "
       "nowhere, new one defined), is a change the project's tests check",
       "bench/results/2026-11-28-rename-verified-sealed-dev-1.5b",
       "tests/test_rename_verified.py"),
)
# fmt: on

_BY_NAME = {rule.name: rule for rule in RULES}


def rule(name: str) -> Rule:
    return _BY_NAME[name]


def rules_of(stage: Stage) -> list[Rule]:
    return [r for r in RULES if r.stage == stage]


def unknown(names: Iterable[str]) -> list[str]:
    return sorted(set(names) - _BY_NAME.keys())


@dataclass(frozen=True)
class RuleSwitches:
    """Which rules are on: each rule's default, less `disabled`, plus `enabled`."""

    disabled: frozenset[str] = frozenset()
    enabled: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        bad = unknown(self.disabled | self.enabled)
        if bad:
            raise ValueError(f"no such rule: {', '.join(bad)} (python -m bench.crew --list-rules)")

    def on(self, name: str) -> bool:
        if name not in _BY_NAME:
            raise KeyError(f"no such rule: {name}")
        if name in self.disabled:
            return False
        return name in self.enabled or _BY_NAME[name].default

    def active(self, stage: Stage) -> list[Rule]:
        return [r for r in rules_of(stage) if self.on(r.name)]

    def describe(self) -> dict[str, list[str]]:
        """For a benchmark's JSON line: what differs from the defaults."""
        return {"without": sorted(self.disabled), "with": sorted(self.enabled)}


def parse_names(text: str) -> frozenset[str]:
    """`--without a,b` -> {a, b}; a name that is no rule is refused with the list to choose from."""
    names = frozenset(part.strip() for part in text.split(",") if part.strip())
    bad = unknown(names)
    if bad:
        raise ValueError(f"no such rule: {', '.join(bad)}; rules: {', '.join(_BY_NAME)}")
    return names


def registry_json() -> str:
    rows = [{**asdict(r), "stage": str(r.stage), "default": "on" if r.default else "off"} for r in RULES]
    return json.dumps({"rules": rows})


def markdown() -> str:
    """docs/crew.md: the stages and their rules, from this table."""
    lines = [
        "# The crew's stages and rules",
        "",
        "Generated by `python -m agents.rules.registry --markdown > docs/crew.md` from",
        "`agents/rules/registry.py`; a test fails when this file is stale.",
        "",
        "A run reads the request once (`agents/request.py`: `RequestFacts`), then goes round:",
        "the coder is prompted (prompt), its answer becomes files (parse reply), each file is written",
        "(write), what is wrong without running is found (static problems), the checks run (checks),",
        "the reviewer's own failed checks are settled (settle failed checks), and the round policy",
        "decides whether to try again and what stays on disk (rounds).",
        "",
        "**Where does a rule that rejects X go?** A write that must be refused: a function in",
        "`agents/rules/write/write_rules.py` and a `write` line in `agents/rules/registry.py`; a problem found",
        "without running code: `agents/rules/static/static_rules.py` and a `static problems` line. Give it a test",
        "file named after it. Switch any rule off with `--without NAME` on `bench.crew` and",
        "`bench.humaneval` (or `CrewSettings(rules=RuleSwitches(disabled=...))`).",
        "",
    ]
    for stage in Stage:
        lines += [f"## {stage}", "", "| rule | on | why | evidence | test |", "|---|---|---|---|---|"]
        for r in rules_of(stage):
            on = "yes" if r.default else "no"
            lines.append(f"| `{r.name}` | {on} | {r.reason} | [{r.evidence}](../{r.evidence}) | `{r.test}` |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown() if "--markdown" in sys.argv else registry_json())
