"""The minimal streaming chat page over the engine (the full IDE replaces it later)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import gradio as gr

from models.engine import CallStats, EngineError, GenerationSettings
from models.model_host import ModelHost

SYSTEM_PROMPT = "You are LocalCrew, a concise coding assistant. Answer with code when asked."


def _text_of(content: Any) -> str:
    """Gradio 6 hands message content back as a list of blocks; flatten it to text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(block.get("text", "") if isinstance(block, dict) else str(block) for block in content)
    if isinstance(content, dict):
        return str(content.get("text", ""))
    return str(content)


def _status_markdown(host: ModelHost) -> str:
    status = host.status()
    # Colour via inline HTML: emoji need a font the user's machine may not have.
    colour = {"ready": "#16a34a", "loading": "#d97706", "error": "#dc2626"}.get(status.state, "#6b7280")
    return f'<span style="color:{colour}">●</span> **Model:** {status.message}'


def _stats_line(stats: CallStats | None) -> str:
    if stats is None:
        return ""
    return (
        f"Last reply: {stats.completion_tokens} tokens · {stats.decode_tokens_per_s:.0f} tokens/s · "
        f"first token {stats.time_to_first_token_s:.2f} s · prompt {stats.prompt_tokens} tokens "
        f"({stats.prompt_tokens_evaluated} evaluated)"
    )


def build_chat_page(host: ModelHost, generation: GenerationSettings) -> gr.Blocks:
    cancel = threading.Event()

    def respond(
        message: str, history: list[dict[str, Any]]
    ) -> Iterator[tuple[list[dict[str, Any]], str, str]]:
        history = [{"role": m["role"], "content": _text_of(m["content"])} for m in history or []]
        if not message.strip():
            yield history, "", ""
            return
        history.append({"role": "user", "content": message})
        status = host.status()
        if status.state == "loading":
            history.append(
                {
                    "role": "assistant",
                    "content": "The model is still loading; your request will start when it is ready…",
                }
            )
            yield history, "", ""
            status = host.wait(timeout=600)
            history.pop()
        engine = host.engine
        if engine is None:
            history.append({"role": "assistant", "content": f"No model: {status.message}"})
            yield history, "", ""
            return
        cancel.clear()
        prompt = [{"role": "system", "content": SYSTEM_PROMPT}] + history
        history.append({"role": "assistant", "content": ""})
        try:
            for piece in engine.stream_chat(prompt, generation, cancel=cancel):
                history[-1]["content"] += piece
                yield history, "", ""
        except EngineError as exc:
            history[-1]["content"] += f"\n\nError: {exc}"
            yield history, "", ""
            return
        yield history, "", _stats_line(engine.last_stats)

    with gr.Blocks(title="LocalCrew") as page:
        gr.Markdown("# LocalCrew")
        status = gr.Markdown(_status_markdown(host), elem_id="model-status")
        chat = gr.Chatbot(label="Chat", height=480, elem_id="chat")
        with gr.Row():
            box = gr.Textbox(placeholder="Ask for code…", show_label=False, scale=8, elem_id="request")
            send = gr.Button("Send", variant="primary", scale=1, elem_id="send")
            stop = gr.Button("Stop", scale=1, elem_id="stop")
        stats = gr.Markdown("", elem_id="reply-stats")
        timer = gr.Timer(1.0)
        timer.tick(lambda: _status_markdown(host), outputs=status, api_visibility="private")
        events = [
            box.submit(respond, [box, chat], [chat, box, stats], api_name="chat"),
            send.click(respond, [box, chat], [chat, box, stats], api_visibility="private"),
        ]
        stop.click(cancel.set, None, None, cancels=events, api_visibility="private")
    return page
