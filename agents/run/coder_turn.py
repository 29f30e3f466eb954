"""The coder's turn: its prompt (stage "prompt"), its answer read into files (stage "parse reply"),
the writes (stage "write", in the write tool) and what is wrong without running (stage "static
problems"). Returns the problems, for the feedback of the next round."""

from __future__ import annotations

from collections.abc import Callable

from agents.events import EventBus, Notice
from agents.llm.roles import Role, coder_task, plain_task
from agents.rules.parse.file_blocks import (
    FORMAT_RULES,
    FileBlock,
    file_blocks,
    owner_of,
    refusals,
    repeats_a_block,
    unclosed_block,
)
from agents.rules.parse.nameless_block_follow_up import nameless_block_follow_up
from agents.rules.parse.path_lines_dropped import path_lines_dropped
from agents.rules.prompt.broken_files_shown import broken_files_shown
from agents.rules.prompt.failure_evidence import evidence
from agents.rules.prompt.focused_retry import focus_on, focus_rules, focus_text
from agents.rules.prompt.retrieved_context import retrieved_context
from agents.rules.prompt.small_project_files import small_project_files
from agents.rules.rule import RuleSwitches
from agents.rules.static.scan import StaticScan
from agents.rules.static.stage import static_problems
from agents.run.crew_tools import WriteFileTool
from agents.run.state import RunState
from agents.run.versions import code_of
from models.chat_engine import GenerationSettings
from tools.workspace_files import WorkspaceFiles, python_sources

# (role, round, task, expected, enough, plain) -> the reply
Ask = Callable[..., str]


class CoderTurn:
    def __init__(
        self, files: WorkspaceFiles, bus: EventBus, rules: RuleSwitches, ask: Ask, shown_chars: int
    ) -> None:
        self.files, self.bus, self.rules, self.ask = files, bus, rules, ask
        self.shown_chars = shown_chars  # the files shown whole (~1,500 tokens)
        self._shape: tuple[list[str], str | None, dict[str, str]] = ([], None, {})

    def run(
        self,
        state: RunState,
        coder: Role,
        *,
        fresh: bool = False,
        plain: bool = False,
        failures: list[str] | None = None,
        candidates: list[GenerationSettings] | None = None,
    ) -> list[str]:
        """`fresh`: the coder sees the files as they were before the run, the feedback as a warning.
        After a try that wrote the files back as they were, it is shown only the definitions the
        request names or the failed checks call (agents/rules/prompt/focused_retry), where there are such.
        `candidates`: several replies decoded together; the first is written, the others wait in
        `self.candidate_texts` for `apply`."""
        context, on = state.context, self.rules.on
        shown_files = self.current_files(
            state.allowed_files or state.earlier, context.originals if fresh or plain else None
        )
        focused = state.echoed and not plain and on(focus_on)
        focus = focus_on(state.facts, shown_files, failures or []) if focused else []
        if focus:
            names = ", ".join(name for f in focus for name in f.names)
            self.bus.emit(
                Notice(level="info", message=f"The code came back unchanged; asking for {names} alone.")
            )
        shown = focus_text(focus) if focus else self.current_files_text(shown_files)
        if plain:
            self.bus.emit(Notice(level="info", message="Asking again as plainly as one chat call would."))
        task = (
            plain_task(state.facts.text, shown, state.memory)
            if plain
            else coder_task(
                state.facts.text,
                state.plan,
                state.feedback,
                shown,
                state.memory,
                retrieved_context(state) if on(retrieved_context) else "",
                fix=not fresh and not focus,
                rules=focus_rules(focus) if focus else FORMAT_RULES,
                docs="\n\n".join(
                    filter(
                        None,
                        [
                            state.request_docs,
                            self.crashes_before(state),
                            self.evidence_before(state),
                            localised(state),
                        ],
                    )
                ),
            )
        )
        reply = self.ask(
            coder,
            state.round_number,
            task,
            "the files, each whole in a code block",
            enough=repeats_a_block,
            plain=plain,
            candidates=candidates,
        )
        fallback = nameless_block_follow_up(state.earlier) if on(nameless_block_follow_up) else None
        # A focused try writes the files it was shown part of, and a block without a path in it
        # is about its one file (the 0.5B answered clamp() alone, with no path).
        expected = [f.path for f in focus] or state.allowed_files
        self._shape = (expected, fallback, shown_files)
        return self.apply(state, reply)

    def shown_text(self, state: RunState) -> str:
        """The files the request is about, as the coder is shown them."""
        return self.current_files_text(self.current_files(state.allowed_files))

    def crashes_before(self, state: RunState) -> str:
        """Round 1 is shown how the commands the request names crash now (rule named_commands)."""
        return state.crashes_before if state.round_number == 1 else ""

    def evidence_before(self, state: RunState) -> str:
        """Round 1 of a request about failing tests is shown how they fail (rule failure_evidence):
        the user's "this test fails, fix it" named the test, not what it says; the 1.5B, given the
        test's output, wrote a passing fix in 3 of 5 samples, and without it changed nothing."""
        before = state.tests_before
        if state.round_number != 1 or before is None or not before.evidence:
            return ""
        if not self.rules.on(evidence):
            return ""
        return "How the failing test fails now (the project's tests, run before this request):\n" + (
            before.evidence
        )

    def apply(self, state: RunState, reply: str) -> list[str]:
        """Writes a reply to the last prompt (one of its candidates) and returns its problems."""
        state.context.agent = "coder"
        expected, fallback, shown_files = self._shape
        owners, one_file = self.rules.on(owner_of), self.rules.on(refusals)
        blocks = file_blocks(reply, expected, fallback, shown_files, owners, one_file)
        return self._write(state, blocks, reply, refusals(reply) if one_file else [])

    def _write(self, state: RunState, blocks: list[FileBlock], reply: str, refused: list[str]) -> list[str]:
        context = state.context
        problems: list[str] = list(refused)  # blocks not written, each with its one-line reason
        if not blocks:
            cut = (
                " Your reply was cut off inside its code block; write less." if unclosed_block(reply) else ""
            )
            problems.append(f"No file was written.{cut} {FORMAT_RULES}")
        writer = WriteFileTool().bind(context)
        written: list[str] = []
        for block in blocks:
            content = (
                path_lines_dropped(block, self.files.read_text)
                if self.rules.on(path_lines_dropped)
                else block.content
            )
            try:
                result = writer.run(path=block.path, content=content)
            except ValueError as exc:  # the path failed the tool's schema (absolute, '..', spaces)
                result = f"Error: {block.path}: {exc}"
            if result.startswith("Error"):
                problems.append(result.removeprefix("Error: "))
            else:
                written.append(block.path)
        # A refused write left the file as it was, but the answer did not: it is told the refusal.
        unchanged = [b.path for b in blocks if b.path in written and self.as_before_the_run(state, b.path)]
        state.echoed = bool(blocks) and unchanged == [b.path for b in blocks]
        scan = StaticScan(
            facts=state.facts,
            originals=context.originals,
            written=written,
            sources=self.python_sources(),  # after the writes
            echoed=unchanged if state.echoed else [],
            exists=lambda rel: self.files.resolve(rel).exists(),
        )
        problems += static_problems(scan, self.rules)
        if state.allowed_files and self.rules.on(broken_files_shown):
            state.allowed_files += broken_files_shown(scan, self.rules, state.allowed_files)
        return problems

    def python_sources(self) -> dict[str, str]:
        """The project's Python files (tools.workspace_files.python_sources), by path."""
        return python_sources(self.files)

    def as_before_the_run(self, state: RunState, path: str) -> bool:
        """The file's code is as it was before the run: an unused import or a comment more is no
        change (the 0.5B added `from typing import List` to the file it was to fix, and the
        reviewer's weak checks approved it)."""
        original = state.context.originals.get(path)
        try:
            now = self.files.read_text(path)
        except (ValueError, OSError):
            return False
        if original is None:
            return False
        return now == original or (
            path.endswith(".py") and code_of(now, imports=False) == code_of(original, imports=False)
        )

    def current_files(self, names: list[str], before: dict[str, str | None] | None = None) -> dict[str, str]:
        """The existing files the coder is to change, as it will be shown them: with no file in view
        (a new module), a small project's files are all shown, since a request may build on them or
        read a data file, and one plain coder call that saw them did better. `before`: what the files
        written in this run held before it (None: created by it)."""
        shown = {}
        small = (
            small_project_files(self.files, self.shown_chars) if self.rules.on(small_project_files) else []
        )
        for rel in names or small:
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

    def current_files_text(self, files: dict[str, str]) -> str:
        """The files whole, within the budget."""
        parts, used = [], 0
        for rel, text in files.items():
            if used + len(text) > self.shown_chars:
                parts.append(f"{rel}: too long to show whole")
                continue
            # Data files go in a text block: a reply that copies one back is not taken for a file.
            language = "python" if rel.endswith(".py") else "text"
            parts.append(f"{rel}\n```{language}\n{text.rstrip(chr(10))}\n```")
            used += len(text)
        return "\n".join(parts)


def localised(state: RunState) -> str:
    """Every round of a request judged by failing tests is told where the fix goes (rule
    code_under_test): shown the whole small project, the 1.5B wrote the named test back unchanged
    in every round and candidate, the bug one file over."""
    before = state.tests_before
    return before.localised if before is not None else ""
