"""HTML for the live sidebar: the tool-call timeline and the retrieved context. Everything from
the model or the workspace is escaped: it is untrusted text."""

from __future__ import annotations

from html import escape

from gui.run_view import TimelineRow
from tools.search_hit import Hit

STATUS_COLOURS = {"pending": "#d97706", "done": "#16a34a", "error": "#dc2626"}


def timeline_html(rows: list[TimelineRow]) -> str:
    if not rows:
        return '<div class="lc-empty">No tool calls yet.</div>'
    items = []
    for row in rows:
        colour = STATUS_COLOURS.get(row.status, "#6b7280")
        duration = "" if row.duration_s is None else f"{row.duration_s:.2f} s"
        spinner = '<span class="lc-spinner"></span>' if row.status == "pending" else ""
        result_style = ' style="color:#dc2626"' if row.status == "error" else ""
        items.append(
            f'<li class="lc-call lc-{row.status}" data-call-id="{escape(row.call_id)}">'
            f'<div><span style="color:{colour}">●</span> {spinner}<b>{escape(row.name)}</b> '
            f'<span class="lc-agent">{escape(row.agent)}</span> <span class="lc-dur">{duration}</span></div>'
            f'<div class="lc-args"><code>{escape(row.arguments)}</code></div>'
            f'<pre class="lc-result"{result_style}>{escape(row.result[:400])}</pre></li>'
        )
    return f'<ol class="lc-timeline">{"".join(items)}</ol>'


def context_rows(rows: list[Hit]) -> list[list[str]]:
    """Rows for the context table: file:lines, symbol, score, snippet (first lines)."""
    return [
        [
            f"{row.path}:{row.start_line}-{row.end_line}",
            row.symbol,
            f"{row.score:.3f}",
            " ".join(row.snippet.split())[:160],
        ]
        for row in rows
    ]


SIDEBAR_CSS = """
.lc-timeline { list-style: none; padding: 0; margin: 0; font-size: 0.85em; }
.lc-call { border-left: 3px solid #d1d5db; padding: 4px 8px; margin-bottom: 6px; }
.lc-call.lc-error { border-left-color: #dc2626; }
.lc-call.lc-done { border-left-color: #16a34a; }
.lc-call.lc-pending { border-left-color: #d97706; }
.lc-agent, .lc-dur { color: #6b7280; font-size: 0.9em; }
.lc-args code { white-space: pre-wrap; word-break: break-all; }
.lc-result { white-space: pre-wrap; max-height: 8em; overflow: auto; margin: 2px 0; font-size: 0.9em; }
.lc-spinner { display: inline-block; width: 0.8em; height: 0.8em; border: 2px solid #d97706;
  border-top-color: transparent; border-radius: 50%; animation: lc-spin 0.8s linear infinite; }
@keyframes lc-spin { to { transform: rotate(360deg); } }
.lc-empty { color: #6b7280; font-size: 0.85em; }
.lc-gauge { background: #e5e7eb; border-radius: 4px; height: 10px; overflow: hidden; }
.lc-gauge > div { background: #2563eb; height: 100%; }
"""
