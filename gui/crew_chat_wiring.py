"""The chat's events: Send (Enter), Stop, Cancel of waiting requests, New conversation, the chat
loaded with the page, and the watch that shows another tab's run. The runs themselves are
CrewSession's; the conversation is the workspace's ChatStore."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr

from gui.chat_store import ChatSaver, ChatStore
from gui.crew_session import Ticket, drawn_alike
from gui.disk_refresh import DiskRefresh
from gui.ide_state import IdeState
from gui.page_layout import CodeTab, Sidebar, sidebar_fields
from gui.run_view import RunView
from gui.sidebar_html import context_rows, timeline_html

WATCH_S = 2.0  # how often a tab that is not streaming a run re-reads its saved chat


def _sidebar_outputs(view: RunView) -> tuple[str, list[list[str]], str]:
    source = f"From {view.context_source}." if view.context_source else ""
    return timeline_html(view.timeline), context_rows(view.context), source


EMPTY_SIDEBAR = (timeline_html([]), [], "", [])


class CrewChat:
    """The handlers, with what they share: one conversation per workspace (shared by the tabs) and
    each browser session's withdrawn request texts."""

    def __init__(self, state: IdeState) -> None:
        self.state = state
        self._chats: dict[Path, ChatStore] = {}
        self._withdrawn: dict[str, list[str]] = {}  # per browser session, for its request box
        self._live_workspace: Path | None = None  # where the session's live (or last) run ran

    def sidebar_now(self) -> tuple[Any, ...]:
        """The timeline and context of the running or last run, for a page that was reloaded (the
        page is built empty) or follows a run from another tab: timeline, rows, source, hits."""
        live = self.state.session.live
        if live is None or self._live_workspace != self.state.workspace:
            return EMPTY_SIDEBAR
        view = live.snapshot()
        return (*_sidebar_outputs(view), list(view.context))

    def store(self) -> ChatStore:
        return self._chats.setdefault(self.state.workspace, ChatStore(self.state.workspace))

    def load_chat(self, request: gr.Request) -> tuple[Any, ...]:
        live = self.state.session.live
        if live is not None and live.finished_at is None:  # the page shows it going: its end is owed
            live.watchers.add(request.session_hash or "")
        messages, notice = self.store().load()
        return messages, f"**Note:** {notice}" if notice else "", *self.sidebar_now()

    def queue_state(self, owner: str, ticket: Ticket, sent: str = "") -> tuple[str, Any]:
        """The line under the chat (place in the queue, or elapsed time and round) and Cancel.
        `sent`: the line as last sent, kept when only its drawing time differs (the page's clock
        ticks by itself): a line that changed on every draw went to the page several times a
        second, and was redrawn there each time."""
        session = self.state.session
        mine = session.waiting_count(owner)
        if ticket.state == "waiting":
            text = f"Waiting for the model: {ticket.ahead} ahead of your request."
        elif ticket.state == "running":
            text = session.progress.line()
            if mine:
                text += f" · {mine} more of your requests waiting"
        else:
            text = f"{mine} of your requests waiting." if mine else ""
        if sent and drawn_alike(sent, text):
            text = sent
        return text, gr.Button(visible=mine > 0)

    def run(
        self, message: str, history: list[dict[str, Any]] | None, request: gr.Request
    ) -> Iterator[tuple[Any, ...]]:
        # The chat comes from the workspace's store, not from this tab's `history`: another tab's
        # run may have finished meanwhile, and the store is what a reload shows.
        owner, ticket, skip = request.session_hash or "", Ticket(request.session_hash or ""), gr.skip()
        if not message.strip():
            ticket.state = "done"  # nothing to queue
        store = self.store()
        saver = ChatSaver(store)
        ticket.fresh = saver.opens_conversation  # after New conversation: no follow-up memory
        last: tuple[Any, ...] = ()
        box: Any = ""  # the request box is cleared once; what is typed during the run stays
        sent: tuple[Any, ...] = ()
        line = ""
        for view in self.state.session.run(message, owner=owner, ticket=ticket, on_change=saver):
            line, cancel_button = self.queue_state(owner, ticket, line)
            # Only a change goes to the page: a slow page on a loaded machine, sent the same chat
            # several times a second, falls ever further behind. (A waiting view is one object that
            # changes, hence the copy.)
            shown = (view, line, self.state.session.waiting_count(owner))
            if shown == sent:
                continue
            sent = copy.deepcopy(shown)
            if saver.handle is None:  # not holding the model: waiting, withdrawn or nothing to do
                if self.state.session.running_owner == owner:
                    # This tab's chat shows its own running request; this one waits unseen
                    # there, and the line under the chat counts it.
                    yield skip, box, skip, skip, skip, skip, skip, skip
                else:
                    chat_now = store.load()[0] + view.messages
                    yield chat_now, box, skip, skip, skip, skip, line, cancel_button
            else:
                self._live_workspace = self.state.workspace
                lines, rows, source = _sidebar_outputs(view)
                hit_rows = list(view.context)
                chat_now = store.before(saver.handle) + view.messages
                last = (chat_now, skip, lines, rows, source, hit_rows)
                yield chat_now, box, lines, rows, source, hit_rows, line, cancel_button
            box = skip
        if saver.handle is not None:  # the run is over: the line drops its timer (API callers get it all)
            yield *last, *self.queue_state(owner, ticket)

    def watch(self, request: gr.Request) -> tuple[Any, ...]:
        """Another tab's run, or this page's own run from before a reload: the stored chat (saved
        every few seconds while it runs) and its progress."""
        session = self.state.session
        owner, live, skip = request.session_hash or "", session.live, gr.skip()
        session.seen(owner)
        nothing = (skip,) * (2 + len(EMPTY_SIDEBAR))
        if live is None or session.waiting_count(owner):
            return nothing  # nothing to watch, or this tab's waiting request shows its own chat
        if live.ticket.owner == owner and not live.detached:
            return nothing  # this tab streams it itself
        if live.finished_at is not None:
            # A page shown the run going gets its end once, however late its tick (within WATCH_S
            # of the end, as it was, a late tick left it saying "Running" forever); a page loaded
            # after the end has it from its load.
            if owner not in live.watchers:
                return nothing
            live.watchers.discard(owner)
        else:
            live.watchers.add(owner)
        running = live.finished_at is None
        line = f"{session.progress.line()} (started in another tab or before a reload)"
        waiting = session.waiting_count()  # none of this page's own: those return above
        if waiting:  # after a reload the page forgot them, though they still run in turn
            line += f" · {waiting} more waiting, sent from another tab or before a reload"
        return self.store().load()[0], line if running else "", *self.sidebar_now()

    def withdraw(self, owner: str) -> int:
        withdrawn = self.state.session.withdraw(owner)
        self._withdrawn.setdefault(owner, []).extend(t.request for t in withdrawn if t.request)
        return len(withdrawn)

    def give_back(self, box: str, request: gr.Request) -> Any:
        """A withdrawn request's text goes back into an empty request box: typing is never lost."""
        texts = self._withdrawn.pop(request.session_hash or "", [])
        return "\n\n".join(texts) if texts and not (box or "").strip() else gr.skip()

    def stop_run(self, request: gr.Request) -> None:
        owner = request.session_hash or ""
        self.withdraw(owner)
        self.state.session.stop(owner)

    def cancel_waiting(self, request: gr.Request) -> tuple[str, Any]:
        count = self.withdraw(request.session_hash or "")
        line = f"Withdrew {count} waiting request(s); the text is back in the box." if count else ""
        return line, gr.Button(visible=False)

    def clear_conversation(self) -> tuple[list[Any], str]:
        problem = self.store().clear()
        return [], problem or (
            "New conversation: the next request is not taken as a follow-up of earlier ones."
            " The workspace's files and Undo are as they were."
        )


def wire_crew_chat(
    page: gr.Blocks, state: IdeState, code: CodeTab, side: Sidebar, disk: DiskRefresh
) -> CrewChat:
    handlers = CrewChat(state)
    c = code.chat
    sidebar = sidebar_fields(side, code)
    run_outputs = [c.chat, c.request, *sidebar]
    run_outputs += [c.run_line, c.cancel]
    # Requests wait in CrewSession's queue, which shows their place; Gradio's would hide them
    # behind "queue: 1/1". "multiple": a second Send in the same tab queues instead of vanishing.
    # The run line under the chat shows progress: Gradio's spinners over every output go.
    run_args: dict[str, Any] = {
        "concurrency_limit": None,
        "trigger_mode": "multiple",
        "show_progress": "hidden",
    }
    inputs = [c.request, c.chat]
    submitted = c.request.submit(handlers.run, inputs, run_outputs, api_name="run", **run_args)
    disk.then_refresh(submitted, new_run=True)
    sent = c.send.click(handlers.run, inputs, run_outputs, api_visibility="private", **run_args)
    disk.then_refresh(sent, new_run=True)

    c.stop.click(handlers.stop_run, None, None, api_name="stop", concurrency_limit=None).then(
        handlers.give_back, c.request, c.request, api_visibility="private"
    )
    c.cancel.click(
        handlers.cancel_waiting,
        None,
        [c.run_line, c.cancel],
        api_name="cancel_waiting",
        concurrency_limit=None,
    ).then(handlers.give_back, c.request, c.request, api_visibility="private")
    c.clear_chat.click(handlers.clear_conversation, None, [c.chat, c.run_line], api_name="clear_chat")
    # The Chatbot's own bin icon does the same.
    c.chat.clear(handlers.clear_conversation, None, [c.chat, c.run_line], api_visibility="private")
    page.load(handlers.load_chat, None, [c.chat, c.run_line, *sidebar], api_visibility="private")
    return handlers
