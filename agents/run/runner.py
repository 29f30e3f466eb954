"""One crew run: snapshot, retrieve context, then rounds of coder -> checks -> reviewer; a failed
check sends the coder back. Each stage's rules are named and switchable (agents/rules/registry.py,
docs/crew.md); this file only sequences them.

Each step is a one-agent CrewAI crew on the local model (agents/llm/crewai_call.py). The checks between
coder and reviewer are run here, not left to the model: a small model forgets to run its code, and
the reviewer must see real results.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from agents.context_retrieval import Retriever, text_search_retriever
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
    ToolCallFinished,
    preview,
)
from agents.llm.crewai_call import kickoff_one_agent
from agents.llm.local_llm import EmptyModelOutputError, LocalLLM, RunCancelledError
from agents.llm.roles import PLAN_SCHEMA, Role, parse_plan, planner_task, roles_for
from agents.request import RequestFacts, is_test_file, reads_as_answer
from agents.rules.checks.module_starts import with_import_checks
from agents.rules.checks.written_checks import modules_of
from agents.rules.prompt.answer_questions import answer_question
from agents.rules.prompt.api_lookup import docs_for, docs_named
from agents.rules.prompt.ask_first import question_before_writing
from agents.rules.prompt.follow_up_memory import follow_up_memory
from agents.rules.prompt.work_files import work_files
from agents.rules.registry import refuse_unknown
from agents.rules.rounds.checked_approval import unchecked_approval
from agents.rules.rounds.keep_best import keep_best
from agents.rules.rounds.plan_retries import plan_retries
from agents.rules.rounds.round_policy import (
    RETRY_TEMPERATURE,
    asked_tests_fail,
    changed_files,
    coder_for,
    feedback,
    plain_round,
    repeats,
    round_candidates,
)
from agents.rules.rounds.test_search import judge_of, judged_round
from agents.rules.rule import RuleSwitches
from agents.rules.settle.unasked_put_back import put_back_where_allowed
from agents.run.checks import RoundChecks
from agents.run.coder_turn import CoderTurn
from agents.run.crew_tools import ToolContext, workspace_relative
from agents.run.settling import CheckSettler
from agents.run.state import RunState
from agents.run.tests_before import judged_tests
from agents.run.time_budget import budget_spent
from agents.run.versions import files_now, restore_round, same_code, version_of
from agents.source.project_texts import ProjectTexts
from models.chat_engine import ChatEngine, GenerationSettings
from models.reply_budget import reply_budget_for
from tools.run_snapshot import RunInfo, RunSnapshots, SnapshotError
from tools.sandbox import RunLimits
from tools.web_docs import WebDocs
from tools.workspace_files import WorkspaceFiles


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
    retry_temperature: float = RETRY_TEMPERATURE  # the coder's, on a sampled retry
    # Candidates a sampled retry decodes together (rule "candidates"); 0: from the hardware
    # (agents/rules/rounds/round_policy.candidate_count), 1: one at a time.
    candidates: int = 0
    time_budget_s: float = 0.0  # no new round starts after it (agents/run/time_budget.py); 0: none
    # Which rules are on (agents/rules/registry.py): each rule's default, less those switched off.
    rules: RuleSwitches = field(default_factory=RuleSwitches)
    web_docs: WebDocs | None = None  # the web documentation lookup, when the user switched it on


@dataclass
class RunSummary(RunOutcome):
    """The run's outcome (what RunFinished says) and what it cost."""

    llm_seconds: float
    llm_calls: int
    prompt_tokens_sent: int
    prompt_tokens_evaluated: int
    tokens_generated: int
    tool_calls_ok: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class CrewRunner:
    def __init__(
        self,
        engine: ChatEngine,
        workspace: Path,
        bus: EventBus,
        settings: CrewSettings | None = None,
        retriever: Retriever | None = None,
        cancel: threading.Event | None = None,
        reviewer_engine: ChatEngine | None = None,
    ) -> None:
        self.engine = engine
        self.reviewer_engine = reviewer_engine or engine
        self.workspace = Path(workspace).resolve()
        self.bus = bus
        self.settings = settings or CrewSettings()
        self.rules = self.settings.rules
        refuse_unknown(self.rules)  # a misspelt --without must not pass as a rule switched off
        self.cancel = cancel or threading.Event()
        # The user's Stop also kills a program the checks are running, not only the model's reply.
        self.limits = replace(self.settings.limits, stop=self.cancel)
        self.snapshots = RunSnapshots(self.workspace)
        self.files = WorkspaceFiles(self.workspace, before_write=self.snapshots.record_write)
        self.retriever = retriever or text_search_retriever(self.files, self.settings.context_chars)
        budget = reply_budget_for(engine.info, engine.settings.n_ctx)
        self.roles = roles_for(budget, self.settings.temperature, self.settings.seed)
        self._llms: list[LocalLLM] = []
        self.previous: RunInfo | None = None
        self._rounds = self.settings.rounds  # the current run's, for AgentStarted
        self.candidate_texts: list[str] = []  # the last coder call's candidates, when it decoded several
        self.texts = ProjectTexts(self.files)
        self.settler = self._new_settler()
        self.checks = RoundChecks(self.files, self.texts, bus, self.rules, self._ask_reviewer)
        self.coder_turn = CoderTurn(
            self.files, bus, self.rules, self._step, self.settings.current_files_chars
        )

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
            message = f"Could not snapshot the workspace before the run: {exc}"
            return self._finish("", started, completed=False, message=message)
        rounds, budget, where = self.settings.rounds, self.settings.time_budget_s, str(self.workspace)
        self.bus.emit(
            RunStarted(run_id=run_id, request=request, workspace=where, rounds=rounds, budget_s=budget)
        )
        web = self.settings.web_docs
        # The answer to a question the last run asked is read with the request it was about ("Rename
        # render_list ..." then "Yes, update the tests too"); a new request instead is read alone.
        asked = self.previous.asked if self.previous and reads_as_answer(request) else ""
        words = f"{asked}\n{request}" if asked else request
        context = ToolContext(
            self.files, self.bus, self.limits, request=words, rules=self.rules, web_docs=web
        )
        try:
            return self._run_rounds(self._new_state(run_id, context, started), answer=bool(asked))
        except RunCancelledError:
            return self._finish(run_id, started, context=context, message="Stopped by the user.")
        except EmptyModelOutputError as exc:
            message = f"The run ended: {exc}. Try rephrasing the request or a larger model."
            return self._finish(run_id, started, context=context, message=message)
        except Exception as exc:  # noqa: BLE001 - report, keep the app up; undo still works
            message = f"The run failed: {type(exc).__name__}: {exc}"
            return self._finish(run_id, started, context=context, completed=False, message=message)
        finally:
            try:
                self.snapshots.end_run(run_id)
            except (SnapshotError, OSError) as exc:  # the store vanished mid-run: say so, stay up
                self.bus.emit(Notice(level="warning", message=f"Could not close the run's snapshot: {exc}"))

    def _new_state(self, run_id: str, context: ToolContext, started: float) -> RunState:
        facts = context.facts
        source, chunks, context_text = self.retriever(facts.text)
        self.bus.emit(ContextRetrieved(query=facts.text, source=source, chunks=chunks))
        files = self.files.list_files()
        state = RunState(
            run_id, facts, context, started, rounds=self.settings.rounds, context_text=context_text
        )
        self._remember_previous(state, files)
        state.allowed_files = work_files(facts, files, self.texts.small, self.rules)
        state.user_tests = any(is_test_file(f) for f in files)
        # The docstring examples of the files the request names, before the coder can drop them.
        state.examples_before = self.checks.example_checks(modules_of([f for f in facts.files if f in files]))
        state.request_docs = docs_named(context, facts) if self.rules.on(docs_named) else ""
        self._rounds = state.rounds
        self.settler = self._new_settler()
        self.checks.tests_before(state)
        return state

    def _run_rounds(self, state: RunState, *, answer: bool = False) -> RunSummary:
        """`answer`: the request answers the last run's question, so none is asked again."""
        context = state.context
        files = self.files.list_files()
        ask = question_before_writing
        question = "" if answer else ask(state.facts, files, self.texts.small, self.rules, self.bus)
        if question:
            with contextlib.suppress(SnapshotError, OSError):  # then the answer reads alone
                self.snapshots.mark_asked(state.run_id, state.facts.text)
            return self._finish(state.run_id, state.started, context=context, message=question)
        if not answer and state.facts.question and self.rules.on(answer_question):
            told = answer_question(state, self.roles.coder, self._step, self.coder_turn.shown_text(state))
            return self._finish(state.run_id, state.started, context=context, message=told, answered=True)
        while state.round_number < state.rounds:
            if state.round_number and budget_spent(self.settings.time_budget_s, state, self.bus):
                break
            state.round_number += 1
            another = self._round(state)
            self._stop_if_asked()  # a Stop during the checks must not end as a finished run
            if not another:
                break
            told = feedback(state.problems, state.results, state.outcome, state.failures, self.rules)
            if self.rules.on(docs_for):
                docs = docs_for(context, state.results, state.versions[-1].contents)
                told += f"\n{docs}" if docs else ""
            state.feedback = workspace_relative(told, context.root)
        kept = None
        if not state.passed and self.rules.on(keep_best):
            judged = frozenset(judged_tests(state.tests_before, state.facts))
            as_it_was = state.tests_before is not None
            kept = keep_best(context, state.versions, self.bus, as_it_was=as_it_was, judged=judged)
            state.check_lines = kept.check_lines if kept else state.check_lines
        if self.rules.on(put_back_where_allowed):
            checks, tests = (state.modules, state.written_checks), state.user_tests
            asked = state.facts.with_memory(state.memory)  # a follow-up's "it": what the previous asked
            self.settler.put_back_after(context, asked, checks, tests, approved=state.passed)
        message = state.end_message(kept)
        unchecked = unchecked_approval(state, self.rules) if self.rules.on(unchecked_approval) else ""
        return self._finish(
            state.run_id, state.started, context=context, approved=state.passed and not unchecked,
            checks_passed=state.passed, rounds_used=state.round_number, checks=state.check_lines,
            message=unchecked or message,
        )  # fmt: skip

    def _round(self, state: RunState) -> bool:
        """One round: the coder's try, its checks, the verdict. Whether another round may follow."""
        context, on = state.context, self.rules.on
        if state.round_number > 1 and on(plan_retries):
            plan_retries(state, self._plan)
        if judge_of(state, self.rules):  # failing tests or commands judge: a search (rounds/test_search)
            return judged_round(self, state)
        written_before = len(context.written)
        fresh = state.round_number > 1 and self.settings.retry == "fresh"
        plain = plain_round(state, self.rules)
        if plain:
            state.plain_tried, state.rounds = True, state.rounds + 1
            self._rounds = state.rounds
        coder = coder_for(
            self.roles.coder, state, self.rules, plain=plain, temperature=self.settings.retry_temperature
        )
        gens = round_candidates(
            self.engine, self.settings.candidates, coder, state, self.rules, self.bus, plain
        )
        self._rounds = state.rounds
        start = files_now(context)  # each candidate starts from the files as this round found them
        state.problems = self.coder_turn.run(
            state, coder, fresh=fresh, plain=plain, failures=state.failures, candidates=gens
        )
        wrote = len(context.written) > written_before
        again = on(repeats) and not fresh and not state.fresh_tried
        if wrote and state.versions and again and repeats(context, state):
            # Shown its failing files, the 0.5B wrote them back unchanged in 25 of 35 requests:
            # ask again at once, from the files as they were, with the failures as a warning.
            state.fresh_tried = True
            self.bus.emit(Notice(level="info", message="The same code again; asking for a fresh try."))
            state.problems = self.coder_turn.run(state, coder, fresh=True)
        this_round = self._judge(state, written_before)
        for text in self.candidate_texts[1:] if gens else []:
            if state.passed:
                break
            restore_round(context, start, this_round, self.bus)
            written_before = len(context.written)
            state.problems = self.coder_turn.apply(state, text)
            this_round = self._judge(state, written_before)
        if state.passed:
            return False
        return self._another_round(state, this_round)

    def _stop_if_asked(self) -> None:
        if self.cancel.is_set():
            raise RunCancelledError("stopped by the user")

    def _judge(self, state: RunState, written_before: int) -> list[str]:
        """The checks of what the coder just wrote, the verdict, and the version it leaves."""
        self._stop_if_asked()
        context = state.context
        this_round = list(dict.fromkeys(context.written[written_before:]))
        results, state.outcome = self.checks.judge(state, self.settler, this_round)
        results = state.results = with_import_checks(context, results, state.outcome)
        state.passed = bool(results) and all(r.passed for r in results) and not state.problems
        state.check_lines = [r.summary() for r in results] or ["no check ran: no Python file was written"]
        state.failures = state.outcome.failures if state.outcome else []
        fixes = state.problems + state.failures
        self.bus.emit(ReviewVerdict(round=state.round_number, approved=state.passed, fixes=fixes))
        state.versions.append(version_of(context, state.round_number, results, state.outcome, state.problems))
        return this_round

    def _another_round(self, state: RunState, this_round: list[str]) -> bool:
        """After a round that did not pass: whether another may follow."""
        context, on = state.context, self.rules.on
        state.tests_fail = asked_tests_fail(context, state, state.results) if on(asked_tests_fail) else ""
        if state.tests_fail:
            self.bus.emit(Notice(level="info", message=state.tests_fail))
            return False
        last = state.versions[-1].contents
        repeated = this_round and any(same_code(v.contents, last) for v in state.versions[:-1])
        if repeated and self.settings.retry == "fix":
            # The fresh try repeated too: a further round would cost minutes for the same code.
            # (Fresh tries are sampled with a new seed each round: the next may differ.)
            self.bus.emit(
                Notice(level="info", message="This try left the code as an earlier one did; stopping.")
            )
            return False
        return True

    def _remember_previous(self, state: RunState, files: list[str]) -> None:
        if self.previous and self.rules.on(follow_up_memory):
            follow_up_memory(state, self.previous, files)
            with contextlib.suppress(SnapshotError, OSError):  # a follow-up of this run follows them too
                self.snapshots.mark_followed(state.run_id, state.earlier)

    # ---------- steps ----------
    def _new_settler(self) -> CheckSettler:
        def ask(task: str, round_number: int) -> str:
            return self._step(self.roles.reviewer, round_number, task, "one Python expression")

        return CheckSettler(self.bus, self.texts, self.limits, ask, self.rules)

    def _ask_reviewer(self, task: str, round_number: int, expected: str, **kwargs: Any) -> str:
        return self._step(self.roles.reviewer, round_number, task, expected, **kwargs)

    def write_checks(self, facts: RequestFacts, modules: list[str], round_number: int) -> str:
        """The reviewer's turn: assert lines from the request and the code's signatures."""
        return self.checks.write_checks(facts, modules, round_number)

    def _plan(self, state: RunState) -> Any:
        task = planner_task(state.facts.text)
        task += f"\nThe last try failed:\n{state.feedback[:1200]}" if state.feedback else ""
        reply = self._step(self.roles.planner, state.round_number, task, "JSON plan", schema=PLAN_SCHEMA)
        return parse_plan(reply)

    def _llm(self, role: Role, schema: dict[str, Any] | None, *, plain: bool = False) -> LocalLLM:
        engine = self.reviewer_engine if role is self.roles.reviewer else self.engine
        llm = LocalLLM(
            model=engine.model_path.name,
            engine=engine,
            agent_name=role.name,
            generation=role.generation,
            answer_schema=schema,
            bus=self.bus,
            cancel=self.cancel,
            task_only=True,
            plain=plain,
            context_window=engine.settings.n_ctx,
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
        candidates: list[GenerationSettings] | None = None,
    ) -> str:
        self._stop_if_asked()
        self.bus.emit(AgentStarted(agent=role.name, round=round_number, rounds=self._rounds))
        began = time.perf_counter()
        # No tools: every agent answers in text (JSON for the planner and reviewer, Markdown files
        # for the coder), and the runner acts on it.
        llm = self._llm(role, schema, plain=plain)
        llm.enough = enough
        llm.candidates = candidates
        output = kickoff_one_agent(role, llm, [], description, expected)
        self.candidate_texts = llm.candidate_texts
        duration = time.perf_counter() - began
        self.bus.emit(
            AgentFinished(agent=role.name, round=round_number, output=preview(output), duration_s=duration)
        )
        return output

    # ---------- the end ----------
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
        answered: bool = False,
    ) -> RunSummary:
        stats = [s for llm in self._llms for s in llm.call_stats]
        history = self.bus.history
        summary = RunSummary(
            run_id=run_id,
            completed=completed,
            approved=approved,
            checks_passed=checks_passed,
            rounds_used=rounds_used,
            files_changed=changed_files(context) if context else [],
            checks=checks or [],
            message=message,
            duration_s=time.perf_counter() - started,
            llm_seconds=sum(llm.llm_seconds for llm in self._llms),
            llm_calls=len(stats),
            prompt_tokens_sent=sum(s.prompt_tokens for s in stats),
            prompt_tokens_evaluated=sum(s.prompt_tokens_evaluated for s in stats),
            tokens_generated=sum(s.completion_tokens for s in stats),
            tool_calls_ok=sum(isinstance(e, ToolCallFinished) for e in history),
            answered=answered,
        )
        if not completed:
            self.bus.emit(Notice(level="error", message=message))
        self.bus.emit(RunFinished.of(summary))
        return summary
