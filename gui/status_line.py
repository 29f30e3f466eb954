"""The line at the top of the page: the model's state, the code index's, whether the crew runs,
the workspace and any start-up notices. Everything shown is escaped (paths and messages are not
markup)."""

from __future__ import annotations

from html import escape

from gui.ide_state import IdeState


def status_html(state: IdeState) -> str:
    status = state.host.status()
    colour = {"ready": "#16a34a", "loading": "#d97706", "error": "#dc2626"}.get(status.state, "#6b7280")
    running = " · <b>crew running</b>" if state.session.busy else ""
    notices = "".join(f'<div style="color:#d97706">{escape(n)}</div>' for n in state.notices)
    return (
        f'<div id="status-line"><span style="color:{colour}">●</span> <b>Model:</b> '
        f"{escape(status.message)} · {escape(state.index.status)}{running}"
        f'<div style="color:#6b7280">Workspace: {escape(str(state.workspace))}</div>{notices}</div>'
    )
