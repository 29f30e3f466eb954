"""Fold a crew run's events into what the IDE shows: chat turns, the tool-call timeline and the
retrieved context. Plain data (Gradio's message dicts), no Gradio import,
so it is tested without a browser."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agents.events import (
    AgentFinished,
    AgentStarted,
    CheckRun,
    ContextRetrieved,
    ContextUsed,
    Event,
    Notice,
    ReviewVerdict,
    RunFinished,
    RunHeld,
    TokenChunk,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
)
from agents.rules.prompt.answer_questions import NOTE as ANSWER_NOTE
from gui.markdown_text import fence, literal
from tools.search_hit import Hit

MESSAGE_CHARS = 6000  # a streamed turn longer than this shows its tail: the browser stays fast
AGENT_TITLES = {"planner": "Planner", "coder": "Coder", "reviewer": "Reviewer", "checks": "Checks"}
UNDO_HINT = "\n\nNot what you wanted? **Last run → Undo this run** takes this run's change out."


@dataclass
class TimelineRow:
    call_id: str
    agent: str
    name: str
    arguments: str
    status: str  # pending | done | error
    result: str = ""
    duration_s: float | None = None


def _arguments_text(arguments: dict[str, Any], limit: int = 300) -> str:
    text = json.dumps(arguments, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _paths(items: list[str], limit: int = 8) -> str:
    return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")


def workspace_changes(event: CheckRun) -> str:
    """What a program run as a check did to the workspace: the files it changed or deleted (its
    sandbox copy applied back), and the changes the sandbox refused to apply, each with why."""
    lines = []
    if event.refused:
        lines.append(f"Not applied to the workspace ({len(event.refused)}): " + "; ".join(event.refused[:8]))
    if event.applied:
        lines.append(f"The program changed: {_paths(event.applied)}")
    if event.deleted:
        lines.append(f"The program deleted: {_paths(event.deleted)}")
    return "\n".join(lines)


@dataclass
class RunView:
    request: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    timeline: list[TimelineRow] = field(default_factory=list)
    context: list[Hit] = field(default_factory=list)
    context_source: str = ""
    finished: RunFinished | None = None
    _agent_message: int | None = None
    _agent_text: str = ""
    _tool_messages: dict[str, int] = field(default_factory=dict)
    _round_checks: dict[str, bool] = field(default_factory=dict)  # passed, by command, this round

    def __post_init__(self) -> None:
        self.messages.append({"role": "user", "content": literal(self.request)})

    # ---------- folding ----------
    def apply(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is not None:
            handler(event)

    def say(self, text: str, title: str | None = None) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if title:
            message["metadata"] = {"title": title, "status": "done"}
        self.messages.append(message)

    def _on_context_retrieved(self, event: ContextRetrieved) -> None:
        self.context_source = event.source
        self.context = list(event.chunks)
        listing = "\n".join(f"- `{r.path}:{r.start_line}-{r.end_line}` {r.symbol}" for r in self.context)
        self.say(
            listing or "Nothing relevant found.", title=f"Context: {len(self.context)} from {event.source}"
        )

    def _on_agent_started(self, event: AgentStarted) -> None:
        title = AGENT_TITLES.get(event.agent, event.agent.title())
        suffix = f" · round {event.round}" if event.round else ""
        self._agent_text = ""
        self.messages.append({"role": "assistant", "content": f"**{title}**{suffix}\n\n…"})
        self._agent_message = len(self.messages) - 1

    def _on_token_chunk(self, event: TokenChunk) -> None:
        if self._agent_message is None:
            return
        self._agent_text += event.text
        self._render_agent_text()

    def _render_agent_text(self, done: str = "") -> None:
        assert self._agent_message is not None
        message = self.messages[self._agent_message]
        header = message["content"].split("\n\n", 1)[0]
        body = self._agent_text
        if len(body) > MESSAGE_CHARS:
            body = "…" + body[-MESSAGE_CHARS:]
        message["content"] = f"{header}{done}\n\n{fence(body) if body.strip() else '…'}"

    def _on_agent_finished(self, event: AgentFinished) -> None:
        if self._agent_message is None:
            return
        if not self._agent_text.strip():
            self._agent_text = event.output
        self._render_agent_text(done=f" · {event.duration_s:.1f} s")
        self._agent_message = None

    def _end_agent_reply(self) -> None:
        """The agent's next model call starts on its own line, not glued to the one just parsed."""
        if self._agent_text and not self._agent_text.endswith("\n"):
            self._agent_text += "\n"

    def _on_tool_call_started(self, event: ToolCallStarted) -> None:
        self._end_agent_reply()
        args = _arguments_text(event.arguments)
        self.timeline.append(TimelineRow(event.call_id, event.agent, event.name, args, "pending"))
        self.messages.append(
            {
                "role": "assistant",
                "content": f"Arguments: `{args}`",
                "metadata": {"title": f"Tool: {event.name}", "status": "pending", "id": event.call_id},
            }
        )
        self._tool_messages[event.call_id] = len(self.messages) - 1

    def _finish_tool(self, call_id: str, status: str, result: str, duration_s: float) -> None:
        for row in self.timeline:
            if row.call_id == call_id:
                row.status, row.result, row.duration_s = status, result, duration_s
        index = self._tool_messages.get(call_id)
        if index is None:
            return
        message = self.messages[index]
        label = "Error" if status == "error" else "Result"
        message["content"] = message["content"].split("\n\n", 1)[0] + f"\n\n{label}:\n{fence(result)}"
        metadata = dict(message["metadata"], status="done", duration=round(duration_s, 2))
        if status == "error":
            metadata["title"] += " (failed)"
        message["metadata"] = metadata

    def _on_tool_call_finished(self, event: ToolCallFinished) -> None:
        self._finish_tool(event.call_id, "done", event.result, event.duration_s)

    def _on_tool_call_failed(self, event: ToolCallFailed) -> None:
        self._end_agent_reply()
        if event.call_id not in self._tool_messages:  # malformed calls have no start event
            self.timeline.append(
                TimelineRow(event.call_id, event.agent, event.name, _arguments_text(event.arguments), "error")
            )
        self._finish_tool(event.call_id, "error", event.error, event.duration_s)

    def _on_check_run(self, event: CheckRun) -> None:
        why = event.problem or event.limit_hit or f"exit {event.exit_code}"
        passed = "passed" + (f" ({event.note})" if event.note else "")
        verdict = passed if event.passed else f"failed ({why})"
        output = (event.stdout_tail + ("\n" + event.stderr_tail if event.stderr_tail.strip() else "")).strip()
        landed = workspace_changes(event)
        title = f"Check: {event.command} {verdict}" + (" · changes not applied" if event.refused else "")
        # In a fence: the paths are named by the program, not to be read as Markdown.
        self.say(fence(output or "(no output)") + (f"\n\n{fence(landed)}" if landed else ""), title=title)
        # By command: a later run of the same check in the round replaces the earlier one (the
        # written checks run again once the second opinion drops a wrong assert).
        self._round_checks[event.command] = event.passed
        self.messages[-1]["metadata"]["duration"] = round(event.duration_s, 2)
        self.timeline.append(
            TimelineRow(
                call_id=f"check-{len(self.timeline)}",
                agent="checks",
                name=event.command,
                arguments="",
                status="done" if event.passed else "error",
                # What did not land comes first: the sidebar shows a row's first 400 characters.
                result=(f"{landed}\n" if landed else "") + output[-400:],
                duration_s=event.duration_s,
            )
        )

    def _on_review_verdict(self, event: ReviewVerdict) -> None:
        # The round's verdict is its checks' (the reviewer's asserts among them when it wrote any):
        # "Reviewer: approved" read as a review that, in most runs, never happened.
        checks_failed = not all(self._round_checks.values())
        self._round_checks = {}
        heading = f"**Round {event.round}:**"
        if event.approved and checks_failed:
            self.say(f"{heading} a check failed, so the round is not done.")
        elif event.approved:
            self.say(f"{heading} every check passed.")
        else:
            # With no fix named, the failed check above is the reason: say so rather than nothing.
            named = "- a check failed: its output is above" if checks_failed else "- (no fix named)"
            fixes = "\n".join(f"- {literal(fix)}" for fix in event.fixes) or named
            self.say(f"{heading} not done yet:\n{fixes}")

    def _on_context_used(self, event: ContextUsed) -> None:
        used = event.prompt_tokens + event.reply_tokens
        share = round(100 * used / event.n_ctx) if event.n_ctx else 0
        self.timeline.append(
            TimelineRow(
                call_id=f"context-{len(self.timeline)}",
                agent=event.agent,
                name="model call",
                arguments=f"{used:,} / {event.n_ctx:,} tokens of context ({share} %)",
                status="done",
                result=f"prompt {event.prompt_tokens:,} + reply {event.reply_tokens:,} tokens",
            )
        )

    def _on_notice(self, event: Notice) -> None:
        self.say(f"**{event.level.title()}:** {event.message}")

    def _on_run_finished(self, event: RunFinished) -> None:
        self.finished = event
        if event.answered:  # the answer is the coder's reply above; the note says nothing was written
            self.say(f"**Answered** in {event.duration_s:.1f} s. {ANSWER_NOTE}")
            return
        files = ", ".join(f"`{f}`" for f in event.files_changed) or "none"
        text = f"**Done** in {event.duration_s:.1f} s: {event.message}\n\nFiles changed: {files}"
        if event.files_changed and not event.approved:
            # Not approved (its checks failed, or none checked the change), yet files changed: how
            # to take them out, beside it.
            text += UNDO_HINT
        self.say(text)

    def _on_run_held(self, event: RunHeld) -> None:
        # Staged, the change left the disk: Undo now reaches the run before it, so the hint goes.
        done = next((m for m in reversed(self.messages) if UNDO_HINT in m["content"]), None)
        if done is not None:
            done["content"] = done["content"].replace(UNDO_HINT, "")
        self._on_notice(event)
