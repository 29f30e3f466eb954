"""One crew run: snapshot, retrieve context, then coder -> checks -> reviewer rounds; a failed
check sends the coder back (with the planner first, where CrewSettings.plan_retries asks).

Each step is a one-agent CrewAI crew on the local model. The coder answers with whole files in
Markdown blocks (agents/file_blocks.py) that the runner writes through the write tool. The checks
between coder and reviewer are run here, not left to the model: a small model forgets to run its
code, and the reviewer must see real results.
"""

from __future__ import annotations

import ast
import re
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from agents.check_settling import CheckSettler
from agents.context_retrieval import Retriever, text_search_retriever
from agents.crew_tools import (
    Check,
    ToolContext,
    WriteFileTool,
    describe_run,
    run_check,
    run_written_checks,
    workspace_relative,
)
from agents.edit_guard import definitions
from agents.events import (
    AgentFinished,
    AgentStarted,
    ContextRetrieved,
    EventBus,
    Notice,
    ReviewVerdict,
    RunFinished,
    RunOutcome,
    RunStarted,
    ToolCallFailed,
    ToolCallFinished,
    preview,
)
from agents.file_blocks import FORMAT_RULES, FileBlock, file_blocks, repeats_a_block, unclosed_block
from agents.focused_retry import focus_on, focus_rules, focus_text
from agents.local_llm import EmptyModelOutputError, LocalLLM, RunCancelledError
from agents.project_texts import ProjectTexts
from agents.request_checks import (
    imports_for,
    ints_not_made,
    methods_outside_classes,
    read_before_assigned,
    unbound_names,
    undefined_calls,
    unused_parameters,
)
from agents.roles import (
    PLAN_SCHEMA,
    Plan,
    Role,
    asks_for_output,
    asks_for_tests,
    checks_task,
    coder_task,
    expected_files,
    files_named_in,
    parse_plan,
    plain_task,
    planner_task,
    roles_for,
)
from agents.written_checks import (
    CheckOutcome,
    enough_checks,
    example_checks,
    modules_of,
    parse_checks,
    signatures,
)
from models.engine import Engine
from models.reply_budget import reply_budget_for
from tools.run_snapshot import RunInfo, RunSnapshots, SnapshotError
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

RETRY_TEMPERATURE = 0.7
MAX_SCANNED_FILES = 200  # Python files searched for what the request asks for


@dataclass
class CrewSettings:
    rounds: int = 3
    temperature: float = 0.0
    seed: int = 42
    context_chars: int = 1500  # retrieved context shown to the planner and coder (~400 tokens)
    current_files_chars: int = 6000  # files to change, shown whole to the coder (~1,500 tokens)
    limits: RunLimits = field(default_factory=lambda: RunLimits(wall_s=10.0))
    # After a failed check: "fresh" asks again from the files as they were, sampled, the failures
    # as a warning; "fix" shows the failing files and asks for a fix (a repeated answer is then
    # asked again afresh). Small models repair worse than they resample (bench.crew, README).
    retry: str = "fresh"
    # The planner plans each retry from the failed check. Off: on HumanEval 0-81 (0.5B) the crew
    # passed as many problems without it in four fifths of the time, and the 1.5B's plans for an
    # edit said "Create a new file named mathx.py" (bench.humaneval/bench.crew --plan-retries).
    plan_retries: bool = False
    # After round 1's checks fail on a one-file request, one round more asks plainly, greedy,
    # without the rules or the failures, before the sampled retries: on HumanEval the 1.5B's crew
    # lost problems one plain call solved (its rule-laden first try failed the docstring examples,
    # and sampled retries did too), while a plain try instead of a sampled one lost others.
    plain_retry: bool = True


@dataclass
class RunSummary(RunOutcome):
    """The run's outcome (what RunFinished says) and what it cost."""

    llm_seconds: float
    llm_calls: int
    prompt_tokens_sent: int
    prompt_tokens_evaluated: int
    tokens_generated: int
    tool_calls_ok: int
    tool_calls_malformed: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def kickoff_one_agent(role: Role, llm: Any, tools: list[Any], description: str, expected: str) -> str:
    """One step of the crew: a one-agent, one-task CrewAI crew, no memory, planning or tracing."""
    from crewai import Agent, Crew, Process, Task

    agent = Agent(
        role=role.role,
        goal=role.goal,
        backstory=role.backstory,
        llm=llm,
        tools=tools,
        allow_delegation=False,
        max_iter=role.max_iter,
        verbose=False,
    )
    # kickoff() without inputs does not interpolate {placeholders}: code and JSON stay literal.
    task = Task(description=description, expected_output=expected, agent=agent)
    crew = Crew(
        agents=[agent],
        tasks=[task],
        process=Process.sequential,
        memory=False,
        planning=False,
        tracing=False,
        verbose=False,
    )
    return str(crew.kickoff().raw)


@dataclass
class _Version:
    """The files a round left, and how far it got: (failed runs, problems and failed imports,
    negated; checks that crashed in the code, negated; asserts passed; asked-for functions
    defined). A program that does not run or import is worse than any that does."""

    round: int
    score: tuple[int, int, int, int]
    contents: dict[str, str]
    check_lines: list[str]


def _same_code(a: dict[str, str], b: dict[str, str]) -> bool:
    """The same files with the same code: Python compared by syntax tree, so a path comment or a
    blank line more does not make a repeated answer new."""
    return a.keys() == b.keys() and all(_code_of(a[rel]) == _code_of(b[rel]) for rel in a)


def _code_of(text: str, *, imports: bool = True) -> str:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text.strip()
    if not imports:
        tree.body = [node for node in tree.body if not isinstance(node, ast.Import | ast.ImportFrom)]
    return ast.dump(tree)


def _crashed(failure: str) -> bool:
    """A check that failed inside the code, not on purpose (`raise ValueError` is the code's
    answer): the code is wrong there whatever the check expected. A value the
    reviewer expected is often the reviewer's mistake (bench.reviewer: 30 % of asserts right)."""
    located = re.search(r"\(at \S+ line \d+: (.*)\)$", failure)
    return bool(located and not located.group(1).startswith("raise"))


def _called_in(request: str) -> set[str]:
    """Names the request writes as calls: `div(a, b)`."""
    return set(re.findall(r"\b([A-Za-z_]\w*)\(", request))


def _is_test_file(rel: str) -> bool:
    name = Path(rel).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


class CrewRunner:
    def __init__(
        self,
        engine: Engine,
        workspace: Path,
        bus: EventBus,
        settings: CrewSettings | None = None,
        retriever: Retriever | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        self.engine = engine
        self.workspace = Path(workspace).resolve()
        self.bus = bus
        self.settings = settings or CrewSettings()
        self.cancel = cancel or threading.Event()
        self.snapshots = RunSnapshots(self.workspace)
        self.files = WorkspaceFiles(self.workspace, before_write=self.snapshots.record_write)
        self.retriever = retriever or text_search_retriever(self.files, self.settings.context_chars)
        budget = reply_budget_for(engine.info, engine.settings.n_ctx)
        self.roles = roles_for(budget, self.settings.temperature, self.settings.seed)
        self._llms: list[LocalLLM] = []
        self.memory = ""  # the previous request, for follow-ups
        self.context_text = ""  # retrieved code
        self.previous: RunInfo | None = None
        self._earlier: list[str] = []  # files the previous run changed that are still there
        self._echoed = False  # the coder's last try wrote every file back as it was before the run
        self._rounds = self.settings.rounds  # as they stand: a plain try adds one (AgentStarted)
        self.texts = ProjectTexts(self.files)
        self.settler = self._new_settler()

    # ---------- the run ----------
    def run(self, request: str, *, fresh: bool = False) -> RunSummary:
        """`fresh`: a new conversation (the IDE's "New conversation"): no earlier run is a follow-up's
        previous request, though it stays undoable."""
        started = time.perf_counter()
        request = request.strip()
        if not request:
            return self._finish("", started, completed=False, message="The request is empty.")
        try:
            # Before this run becomes the last one.
            self.previous = None if fresh else self.snapshots.last_run()
            run_id = self.snapshots.begin_run(request)
        except (SnapshotError, OSError) as exc:
            return self._finish(
                "",
                started,
                completed=False,
                message=f"Could not snapshot the workspace before the run: {exc}",
            )
        self.bus.emit(
            RunStarted(
                run_id=run_id, request=request, workspace=str(self.workspace), rounds=self.settings.rounds
            )
        )
        context = ToolContext(self.files, self.bus, self.settings.limits, request=request)
        try:
            return self._run_rounds(run_id, request, context, started)
        except RunCancelledError:
            return self._finish(run_id, started, context=context, message="Stopped by the user.")
        except EmptyModelOutputError as exc:
            return self._finish(
                run_id,
                started,
                context=context,
                message=f"The run ended: {exc}. Try rephrasing the request or a larger model.",
            )
        except Exception as exc:  # noqa: BLE001 - report, keep the app up; undo still works
            return self._finish(
                run_id,
                started,
                context=context,
                completed=False,
                message=f"The run failed: {type(exc).__name__}: {exc}",
            )
        finally:
            try:
                self.snapshots.end_run(run_id)
            except (SnapshotError, OSError) as exc:  # the store vanished mid-run: say so, stay up
                self.bus.emit(Notice(level="warning", message=f"Could not close the run's snapshot: {exc}"))

    def _run_rounds(self, run_id: str, request: str, context: ToolContext, started: float) -> RunSummary:
        source, chunks, context_text = self.retriever(request)
        self.bus.emit(ContextRetrieved(query=request, source=source, chunks=chunks))
        files = self.files.list_files()
        self._remember_previous(files, request)
        self.context_text = context_text
        plan: Plan | None = None
        allowed_files = files_named_in(request)
        user_tests = any(_is_test_file(f) for f in files)
        # The docstring examples of the files the request names, before the coder can drop them.
        examples_before = self._example_checks(modules_of([f for f in allowed_files if f in files]))
        written_checks: str | None = None  # the reviewer's asserts, asked once the first code exists
        reviewer_wrote = False  # the checks are the reviewer's, not docstring examples
        versions: list[_Version] = []
        feedback, passed, check_lines = "", False, []
        fresh_tried = False  # a try from the files as they were, after a repeated answer
        failures: list[str] = []
        self._echoed = False
        self.settler = self._new_settler()
        round_number = 0
        tests_fail = ""
        problems: list[str] = []
        plain_tried = False
        self._rounds = self.settings.rounds
        while round_number < self._rounds:
            round_number += 1
            if round_number > 1 and self.settings.plan_retries:
                # Never before the first try: planning first cost real coders time and accuracy.
                plan = self._plan(request, feedback, round_number)
                allowed_files = expected_files(request, plan) or allowed_files
            written_before = len(context.written)
            fresh = round_number > 1 and self.settings.retry == "fresh"
            # Only after a try whose checks failed: a refused write or a missing file is told. A
            # follow-up that names no file is about the one file the last run changed.
            one_file = len(allowed_files or self._earlier) == 1
            plain = round_number == 2 and self.settings.plain_retry and one_file and not problems
            if plain:
                plain_tried, self._rounds = True, self._rounds + 1
            sampled = round_number - 1 - (plain_tried and not plain)  # the sampled retries so far
            problems = self._code(
                context,
                request,
                plan,
                feedback,
                round_number,
                allowed_files,
                fresh=fresh,
                failures=failures,
                plain=plain,
                sampled=sampled,
            )
            wrote = len(context.written) > written_before
            if wrote and versions and not fresh and not fresh_tried and self._repeats(context, versions):
                # Shown its failing files, the 0.5B wrote them back unchanged in 25 of 35 requests:
                # ask again at once, from the files as they were, with the failures as a warning.
                fresh_tried = True
                self.bus.emit(Notice(level="info", message="The same code again; asking for a fresh try."))
                problems = self._code(
                    context, request, plan, feedback, round_number, allowed_files, fresh=True, sampled=sampled
                )
            this_round = list(dict.fromkeys(context.written[written_before:]))
            results = self._checks(context, this_round, asks_for_output(request))
            modules = modules_of(self.texts.python_written(context.written))
            outcome: CheckOutcome | None = None
            if modules and not user_tests:
                if written_checks is None:
                    # Examples the docstrings already give are the checks; the reviewer writes some
                    # only where there are none.
                    written_checks = examples_before or self._example_checks(modules)
                    if not written_checks:
                        reviewer_wrote = True
                        written_checks = self.write_checks(request, modules, round_number)
                if written_checks:
                    check, outcome = run_written_checks(context, modules, written_checks)
                    if reviewer_wrote and outcome.failures:
                        # Only the reviewer's own checks: docstring examples are the spec.
                        settled = self.settler.settle(
                            context,
                            request,
                            modules,
                            written_checks,
                            check,
                            outcome,
                            round_number,
                            code_problems=bool(problems),
                        )
                        check, outcome, written_checks = settled.check, settled.outcome, settled.checks
                        if settled.rewrote:
                            results = self._checks(context, this_round, asks_for_output(request))
                            check, outcome = run_written_checks(context, modules, written_checks)
                    if written_checks:
                        results.append(check)
                    else:
                        outcome = None
            passed = bool(results) and all(r.passed for r in results) and not problems
            check_lines = [r.summary() for r in results] or ["no check ran: no Python file was written"]
            failures = outcome.failures if outcome else []
            self.bus.emit(ReviewVerdict(round=round_number, approved=passed, fixes=problems + failures))
            versions.append(self._version(context, round_number, results, outcome, problems))
            if passed:
                break
            tests_fail = self._asked_tests_fail(context, request, results, problems)
            if tests_fail:
                self.bus.emit(Notice(level="info", message=tests_fail))
                break
            last = versions[-1].contents
            repeated = this_round and any(_same_code(v.contents, last) for v in versions[:-1])
            if repeated and self.settings.retry == "fix":
                # The fresh try repeated too: a further round would cost minutes for the same code.
                # (Fresh tries are sampled with a new seed each round: the next may differ.)
                self.bus.emit(
                    Notice(level="info", message="This try left the code as an earlier one did; stopping.")
                )
                break
            feedback = workspace_relative(self._feedback(problems, results, outcome, failures), context.root)
        if not passed:
            check_lines = self._keep_best(context, versions) or check_lines
        if written_checks and modules:
            self.settler.put_back_unasked(context, request, modules, written_checks, approved=passed)
        message = self._ending_message(passed, round_number, versions)
        if not passed and tests_fail:  # the notice above says why at length
            message = (
                f"Stopped after round {round_number}: the tests ran, and fail on code this run did not"
                " change (see above)."
            )
        return self._finish(
            run_id,
            started,
            context=context,
            approved=passed,
            checks_passed=passed,
            rounds_used=round_number,
            checks=check_lines,
            message=message,
        )

    def _asked_tests_fail(
        self, context: ToolContext, request: str, results: list[Check], problems: list[str]
    ) -> str:
        """Asked for tests, the run changed only test files, and they ran with failing asserts: what
        to tell the user ('' otherwise). The code under test may be wrong, or a test: the user is to
        say which. Asked for tests of a stats.py whose mean() has a bug, the 1.5B's tests were right
        and failed; the next rounds copied mean() into the test file to make them pass."""
        if problems or not asks_for_tests(request):
            return ""
        changed = self._changed_files(context)
        if not changed or not all(_is_test_file(f) for f in changed):
            return ""
        for result in [r.result for r in results if "pytest" in r.result.command_text()]:
            tail = result.stdout_tail.strip().splitlines()
            last = tail[-1] if tail else ""
            failed = re.search(r"\b(\d+) failed\b", last)
            if result.limit_hit is None and failed and not re.search(r"\berrors?\b", last):
                tests = ", ".join(changed)
                return (
                    f"the tests in {tests} ran, and {failed.group(1)} failed on code this run did not"
                    " change. The request asks for tests, so the crew stopped rather than change that"
                    " code or bend the tests to it: read the failures above; if a test is right, the"
                    " code under test is wrong, and you can ask to fix it."
                )
        return ""

    def _remember_previous(self, files: list[str], request: str) -> None:
        """A follow-up ("now make it ignore case") means the previous run's files: name them, and
        show them to the coder when the request names none itself. A request that names files of
        its own, none of them the previous run's, starts a new topic: told of the previous request
        ("make count_words ignore punctuation"), the 0.5B's fix of mean() in stats.py stripped
        punctuation from the numbers."""
        earlier = [f for f in self.previous.files_written if f in files] if self.previous else []
        named = files_named_in(request)
        new_topic = bool(named) and not any(f in earlier for f in named)
        self._earlier = [] if new_topic else [f for f in earlier if f.endswith(".py")][:3]
        self.memory = (
            f"Previous request in this project: {self.previous.label[:300]}\n"
            f"It changed: {', '.join(earlier) or 'no file'}."
            if self.previous and not new_topic
            else ""
        )

    @staticmethod
    def _ending_message(passed: bool, round_number: int, versions: list[_Version]) -> str:
        if passed:
            return f"Approved after {round_number} round(s); checks passed."
        message = f"Rounds used up ({round_number}) without passing checks; see the last run output."
        best = max(versions, key=lambda v: (v.score, -v.round)) if versions else None
        if best and best.score[:2] == (0, 0) and best.score[2] > 0:
            # It runs and crashes nowhere; only expected values differ, and on small models the
            # reviewer is wrong more often than the code (bench.reviewer). Say so plainly.
            message += (
                " The code kept runs without errors; the checks that failed disagree with it,"
                " and the reviewer can be wrong: read them before trusting either."
            )
        return message

    def _repeats(self, context: ToolContext, versions: list[_Version]) -> bool:
        """Whether the files written so far hold the code of an earlier round's version."""
        now = {}
        for rel in dict.fromkeys(context.written):
            try:
                now[rel] = self.files.read_text(rel)
            except (ValueError, OSError):
                continue
        return any(_same_code(v.contents, now) for v in versions)

    @staticmethod
    def _feedback(
        problems: list[str], results: list[Check], outcome: CheckOutcome | None, failures: list[str]
    ) -> str:
        """What the next try is told: the problems, the runs that failed, each failed check once."""
        runs = results[:-1] if outcome else results  # the written checks' run is the last one
        failed_runs = [describe_run(r)[:800] for r in runs if not r.passed]
        if outcome and not failures and not outcome.ok:  # the check program itself crashed
            failed_runs.append(describe_run(results[-1])[:800])
        return (
            "\n".join(
                [f"- {p}" for p in problems]
                + failed_runs
                + ([f"Failed checks:\n{chr(10).join(failures)}"] if failures else [])
            )
            or "The checks did not pass."
        )

    def _example_checks(self, modules: list[str]) -> str:
        found = []
        for module in modules[:3]:
            try:
                found.append(example_checks(self.files.read_text(module.replace(".", "/") + ".py")))
            except (ValueError, OSError):
                continue
        return "\n".join(f for f in found if f)

    def _signatures_text(self, modules: list[str]) -> str:
        shown = []
        for module in modules[:3]:
            rel = module.replace(".", "/") + ".py"
            try:
                shown.append(f"# {module}\n{signatures(self.files.read_text(rel))}")
            except (ValueError, OSError):
                continue
        return "\n".join(shown)

    def _new_settler(self) -> CheckSettler:
        def ask(task: str, round_number: int) -> str:
            return self._step(self.roles.reviewer, round_number, task, "one Python expression")

        return CheckSettler(self.bus, self.texts, self.settings.limits, ask)

    def write_checks(self, request: str, modules: list[str], round_number: int) -> str:
        """The reviewer's turn: assert lines from the request and the code's signatures."""
        task = checks_task(request, self._signatures_text(modules), self.texts.data_files_text(request))
        reply = self._step(self.roles.reviewer, round_number, task, "assert lines", enough=enough_checks)
        checks = parse_checks(reply)
        if not checks:
            self.bus.emit(Notice(level="info", message="The reviewer wrote no usable check: runs decide."))
        return checks

    def _version(
        self,
        context: ToolContext,
        round_number: int,
        results: list[Check],
        outcome: CheckOutcome | None,
        problems: list[str],
    ) -> _Version:
        contents = {}
        for rel in dict.fromkeys(context.written):
            try:
                contents[rel] = self.files.read_text(rel)
            except (ValueError, OSError):
                continue
        runs = results[:-1] if outcome else results  # the written checks' run is the last one
        # Between equals by the checks, the version that defines more of the functions the request
        # names: an earlier try that skipped the asked-for function must not win the tie.
        defined = {name for text in contents.values() for name in definitions(text) or []}
        asked = sum(name in defined for name in _called_in(context.request))
        failures = outcome.failures if outcome else []
        imports = sum(f.startswith("import ") for f in failures)
        score = (
            -(sum(not r.passed for r in runs) + len(problems) + imports),
            -sum(map(_crashed, failures)),
            outcome.passed if outcome else 0,
            asked,
        )
        return _Version(round_number, score, contents, [r.summary() for r in results])

    def _keep_best(self, context: ToolContext, versions: list[_Version]) -> list[str]:
        """No round passed: leave the files as the round that passed most checks wrote them (the
        earliest of equals), not as the last try left them. Returns that round's check lines."""
        if len(versions) < 2:
            return []
        best = max(versions, key=lambda v: (v.score, -v.round))
        if best.contents == versions[-1].contents:
            return []
        context.agent = "crew"
        writer = WriteFileTool().bind(context)
        failed = [
            rel
            for rel, text in best.contents.items()
            if writer.run(path=rel, content=text).startswith("Error")
        ]
        if failed:
            self.bus.emit(
                Notice(
                    level="warning", message=f"Could not put back round {best.round}'s {', '.join(failed)}."
                )
            )
            return []
        self.bus.emit(
            Notice(
                level="info",
                message=f"Kept round {best.round}'s version: it passed more checks than the last try.",
            )
        )
        return best.check_lines

    # ---------- steps ----------
    def _plan(self, request: str, feedback: str, round_number: int) -> Plan:
        task = planner_task(request) + (f"\nThe last try failed:\n{feedback[:1200]}" if feedback else "")
        return parse_plan(self._step(self.roles.planner, round_number, task, "JSON plan", schema=PLAN_SCHEMA))

    def _code(
        self,
        context: ToolContext,
        request: str,
        plan: Plan | None,
        feedback: str,
        round_number: int,
        allowed_files: list[str],
        *,
        fresh: bool = False,
        failures: list[str] | None = None,
        plain: bool = False,
        sampled: int = 0,
    ) -> list[str]:
        """The coder's turn: files whole in Markdown blocks, written here with the write tool (its
        events, workspace checks and lost-definition check). Returns what went wrong, for feedback.
        `fresh`: the coder sees the files as they were before the run, the feedback as a warning.
        After a try that wrote the files back as they were, it is shown only the definitions the
        request names or the failed checks call (agents/focused_retry), where there are such.
        `sampled`: which sampled retry this is (its seed), the plain try not counted."""
        coder = self.roles.coder
        if round_number > 1 and coder.generation.temperature == 0 and not plain:
            # Greedy decoding answers feedback with the same bytes (on the 0.5B, rounds 2 and 3
            # rewrote the failing file unchanged); a sampled retry tries something else, and the
            # best round's files are kept anyway. Seeded, so a rerun gives the same tries.
            seed = coder.generation.seed + sampled + 1
            coder = replace(
                coder, generation=replace(coder.generation, temperature=RETRY_TEMPERATURE, seed=seed)
            )
        shown_files = self._current_files(
            allowed_files or self._earlier, context.originals if fresh or plain else None
        )
        focus = focus_on(request, shown_files, failures or []) if self._echoed and not plain else []
        if focus:
            names = ", ".join(name for f in focus for name in f.names)
            self.bus.emit(
                Notice(level="info", message=f"The code came back unchanged; asking for {names} alone.")
            )
        shown = focus_text(focus) if focus else self._current_files_text(shown_files)
        if plain:
            self.bus.emit(Notice(level="info", message="Asking again as plainly as one chat call would."))
        task = (
            plain_task(request, shown, self.memory)
            if plain
            else coder_task(
                request,
                plan,
                feedback,
                shown,
                self.memory,
                self.context_text,
                fix=not fresh and not focus,
                rules=focus_rules(focus) if focus else FORMAT_RULES,
            )
        )
        reply = self._step(
            coder,
            round_number,
            task,
            "the files, each whole in a code block",
            enough=repeats_a_block,
            plain=plain,
        )
        context.agent = "coder"
        # A follow-up's code block without a file name is about the one file the last run changed.
        fallback = self._earlier[0] if len(self._earlier) == 1 else None
        # A focused try writes the files it was shown part of, and a block without a path in it
        # is about its one file (the 0.5B answered clamp() alone, with no path).
        expected = [f.path for f in focus] or allowed_files
        blocks = file_blocks(reply, expected, fallback, shown_files)
        problems: list[str] = []
        if not blocks:
            cut = (
                " Your reply was cut off inside its code block; write less." if unclosed_block(reply) else ""
            )
            problems.append(f"No file was written.{cut} {FORMAT_RULES}")
        writer = WriteFileTool().bind(context)
        written: list[str] = []
        for block in blocks:
            try:
                result = writer.run(path=block.path, content=self._without_path_line(block))
            except ValueError as exc:  # the path failed the tool's schema (absolute, '..', spaces)
                result = f"Error: {block.path}: {exc}"
            if result.startswith("Error"):
                problems.append(result.removeprefix("Error: "))
            else:
                written.append(block.path)
        sources = self._python_sources()  # after the writes: what the static checks below read
        problems += self._static_problems(context, written, sources)
        # A refused write left the file as it was, but the answer did not: it is told the refusal.
        unchanged = [b.path for b in blocks if b.path in written and self._as_before_the_run(context, b.path)]
        self._echoed = bool(blocks) and unchanged == [b.path for b in blocks]
        if self._echoed:
            # The 0.5B often copies the file it was shown back as it was: checks that passed before
            # would pass again and approve a run that did nothing.
            left = ", ".join(unchanged)
            problems.append(f"Your answer left {left} exactly as it was; make the change the request asks.")
        # Only what the user named must exist: a file the planner added may rightly not be written.
        missing = [f for f in files_named_in(request) if not self.files.resolve(f).exists()]
        if missing:
            problems.append(f"The request names {', '.join(missing)}, which was not written.")
        problems += self._request_problems(request, list(sources.values()))
        return problems

    def _static_problems(
        self, context: ToolContext, written: list[str], sources: dict[str, str]
    ) -> list[str]:
        """Names a file just written reads that nothing binds, and that were not so before the run
        (agents/request_checks.unbound_names), with the import where another file defines them;
        methods written at the top level (methods_outside_classes); and names a function reads in
        its own first assignment to them (read_before_assigned)."""
        problems = []
        for rel in [p for p in written if p in sources]:
            before = set(unbound_names(context.originals.get(rel) or ""))
            names = [name for name in unbound_names(sources[rel]) if name not in before]
            if names:
                others = {other: text for other, text in sources.items() if other != rel}
                imports = imports_for(names, others)
                hint = f" ({'; '.join(imports)})" if imports else ""
                them = "it" if len(names) == 1 else "them"
                problems.append(f"{rel} uses {', '.join(names)} without defining or importing {them}{hint}.")
            before = set(methods_outside_classes(context.originals.get(rel) or ""))
            for name, owner in methods_outside_classes(sources[rel]).items():
                if name not in before:
                    place = f"class {owner}" if owner else "its class"
                    problems.append(
                        f"In {rel}, {name}(self, ...) is written at the top level of the file: as a"
                        f" method it belongs inside {place}, indented under it."
                    )
            before = set(read_before_assigned(context.originals.get(rel) or ""))
            for found in [f for f in read_before_assigned(sources[rel]) if f not in before]:
                function, name = found.split(": ")
                problems.append(
                    f"In {rel}, {function}() assigns {name} from a value that reads {name}: that makes"
                    f" {name} local to {function}(), so the read fails (UnboundLocalError). Name the"
                    " result differently."
                )
        return problems

    def _python_sources(self) -> dict[str, str]:
        """The project's Python files (the first MAX_SCANNED_FILES), by path."""
        sources = {}
        for rel in [f for f in self.files.list_files() if f.endswith(".py")][:MAX_SCANNED_FILES]:
            try:
                sources[rel] = self.files.read_text(rel)
            except (ValueError, OSError):
                continue
        return sources

    def _request_problems(self, request: str, sources: list[str]) -> list[str]:
        """What the request plainly asks for and the Python files still lack (agents/request_checks)."""
        problems = []
        undefined = undefined_calls(request, sources)
        if undefined:
            # Asked to add done(item), the 0.5B changed remove() instead, and nothing said so.
            asked = ", ".join(f"{name}()" for name in undefined)
            problems.append(f"The request asks for {asked}, which no file defines.")
        unused = unused_parameters(request, sources)
        if unused:
            problems.append(f"These parameters are never used in their function: {', '.join(unused)}.")
        for name in ints_not_made(request, sources):
            problems.append(
                f"The request says {name}() returns an int, but nothing in {name}() makes one: a value"
                " read from a file or given as text stays text until int() converts it."
            )
        return problems

    def _as_before_the_run(self, context: ToolContext, path: str) -> bool:
        """The file's code is as it was before the run: an unused import or a comment more is no
        change (the 0.5B added `from typing import List` to the file it was to fix, and the
        reviewer's weak checks approved it)."""
        original = context.originals.get(path)
        try:
            now = self.files.read_text(path)
        except (ValueError, OSError):
            return False
        if original is None:
            return False
        return now == original or (
            path.endswith(".py") and _code_of(now, imports=False) == _code_of(original, imports=False)
        )

    def _without_path_line(self, block: FileBlock) -> str:
        """The content without lines that only name the file itself: `# calc.py` (the 0.5B adds one
        to every file it writes) or `# calc.py:1-3` (the 1.5B copied the way retrieved code was
        shown, at the top and inside), unless the file already had that line. A bare `calc.py`
        first line is never code meant: it went to the file and broke its import. The blank lines
        under a first such line go too: a new file does not start with one."""
        first, _, rest = block.content.partition("\n")
        if first.strip() == block.path and rest.strip():
            return rest.lstrip("\n")
        naming = re.compile(rf"#\s*{re.escape(block.path)}(?::\d+(?:-\d+)?|\s+lines\s+\d+-\d+)?")
        lines = block.content.splitlines(keepends=True)
        if not any(naming.fullmatch(line.strip()) for line in lines):
            return block.content
        try:
            had = set(self.files.read_text(block.path).splitlines())
        except (ValueError, OSError):  # a new file
            had = set()
        kept = [line for line in lines if line.rstrip("\n") in had or not naming.fullmatch(line.strip())]
        if not "".join(kept).strip():
            return block.content
        dropped_first = bool(lines) and kept[:1] != lines[:1]
        text = "".join(kept)
        return text.lstrip("\n") if dropped_first else text
        if first.strip() != f"# {block.path}" or not rest.strip():
            return block.content
        try:
            if self.files.read_text(block.path).startswith(first):
                return block.content
        except (ValueError, OSError):  # a new file
            pass
        return rest.lstrip("\n")

    def _llm(self, role: Role, schema: dict[str, Any] | None, *, plain: bool = False) -> LocalLLM:
        llm = LocalLLM(
            model=self.engine.model_path.name,
            engine=self.engine,
            agent_name=role.name,
            generation=role.generation,
            answer_schema=schema,
            bus=self.bus,
            cancel=self.cancel,
            task_only=True,
            plain=plain,
            context_window=self.engine.settings.n_ctx,
            temperature=role.generation.temperature,
        )
        self._llms.append(llm)
        return llm

    def _step(
        self,
        role: Role,
        round_number: int,
        description: str,
        expected: str,
        *,
        schema: dict[str, Any] | None = None,
        enough: Callable[[str], bool] | None = None,
        plain: bool = False,
    ) -> str:
        if self.cancel.is_set():
            raise RunCancelledError("stopped")
        self.bus.emit(AgentStarted(agent=role.name, round=round_number, rounds=self._rounds))
        began = time.perf_counter()
        # No tools: every agent answers in text (JSON for the planner and reviewer, Markdown files
        # for the coder), and the runner acts on it.
        llm = self._llm(role, schema, plain=plain)
        llm.enough = enough
        output = kickoff_one_agent(role, llm, [], description, expected)
        self.bus.emit(
            AgentFinished(
                agent=role.name,
                round=round_number,
                output=preview(output),
                duration_s=time.perf_counter() - began,
            )
        )
        return output

    def _checks(self, context: ToolContext, written: list[str], expects_output: bool) -> list[Check]:
        context.agent = "checks"
        all_files = self.files.list_files()
        if any(_is_test_file(f) for f in all_files):
            return [run_check(context, "tests", ".")]
        targets = [f for f in written if f.endswith(".py") and (self.workspace / f).is_file()][:3]
        # Output is asked of the one program written; with several files, a helper module is silent.
        expects_output = expects_output and len(targets) == 1
        return [run_check(context, "python", t, expects_output=expects_output) for t in targets]

    def _current_files(self, names: list[str], before: dict[str, str | None] | None = None) -> dict[str, str]:
        """The existing files the coder is to change, as it will be shown them: with no file in view
        (a new module), a small project's files are all shown, since a request may build on them or
        read a data file, and one plain coder call that saw them did better. `before`: what the files
        written in this run held before it (None: created by it)."""
        shown = {}
        for rel in names or self._small_project_files():
            try:
                if before is not None and rel in before:
                    text = before[rel]
                    if text is None:
                        continue
                else:
                    text = self.files.read_text(rel)
            except (ValueError, OSError):  # not there yet (a new file), or unreadable
                continue
            shown[rel] = text
        return shown

    def _current_files_text(self, files: dict[str, str]) -> str:
        """The files whole, within the budget (~1,500 tokens)."""
        parts, used = [], 0
        for rel, text in files.items():
            if used + len(text) > self.settings.current_files_chars:
                parts.append(f"{rel}: too long to show whole")
                continue
            # Data files go in a text block: a reply that copies one back is not taken for a file.
            language = "python" if rel.endswith(".py") else "text"
            parts.append(f"{rel}\n```{language}\n{text.rstrip(chr(10))}\n```")
            used += len(text)
        return "\n".join(parts)

    def _small_project_files(self) -> list[str]:
        names = self.files.list_files()[:20]
        sizes = [(self.workspace / rel).stat().st_size for rel in names if (self.workspace / rel).is_file()]
        return names if sum(sizes) <= self.settings.current_files_chars else []

    def _changes_text(self, written: list[str], limit: int = 1500) -> str:
        parts = []
        for rel in written:
            try:
                parts.append(f"--- {rel}\n{self.files.read_text(rel)[:limit]}")
            except (ValueError, OSError):
                parts.append(f"--- {rel} (deleted or unreadable)")
        return "\n".join(parts)

    # ---------- the end ----------
    def _changed_files(self, context: ToolContext) -> list[str]:
        """Files written whose text now differs from before the run: the 0.5B often writes a file
        back as it was, and "Files changed: stats.py" then told the user of a change never made."""
        changed = []
        for rel in sorted(set(context.written)):
            try:
                now: str | None = self.files.read_text(rel)
            except (ValueError, OSError):  # gone since, or unreadable: not the text it was
                now = None
            before = context.originals.get(rel)  # None: new, or not kept to compare
            if before is None or now != before:
                changed.append(rel)
        return changed

    def _finish(
        self,
        run_id: str,
        started: float,
        *,
        context: ToolContext | None = None,
        completed: bool = True,
        approved: bool = False,
        checks_passed: bool = False,
        rounds_used: int = 0,
        checks: list[str] | None = None,
        message: str,
    ) -> RunSummary:
        stats = [s for llm in self._llms for s in llm.call_stats]
        history = self.bus.history
        summary = RunSummary(
            run_id=run_id,
            completed=completed,
            approved=approved,
            checks_passed=checks_passed,
            rounds_used=rounds_used,
            files_changed=self._changed_files(context) if context else [],
            checks=checks or [],
            message=message,
            duration_s=time.perf_counter() - started,
            llm_seconds=sum(llm.llm_seconds for llm in self._llms),
            llm_calls=len(stats),
            prompt_tokens_sent=sum(s.prompt_tokens for s in stats),
            prompt_tokens_evaluated=sum(s.prompt_tokens_evaluated for s in stats),
            tokens_generated=sum(s.completion_tokens for s in stats),
            tool_calls_ok=sum(isinstance(e, ToolCallFinished) for e in history),
            tool_calls_malformed=sum(
                isinstance(e, ToolCallFailed) and e.name == "(malformed call)" for e in history
            ),
        )
        if not completed:
            self.bus.emit(Notice(level="error", message=message))
        self.bus.emit(RunFinished.of(summary))
        return summary
