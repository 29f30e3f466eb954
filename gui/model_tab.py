"""The Model tab: what is loaded and how fast it answered, the gauges, and choosing, downloading
and loading another model. A load that fails brings the previous model back and saves nothing;
what each part shows comes from gui/model_panel_data.py."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import gradio as gr

from gui.ide_state import IdeState
from gui.model_panel_data import (
    LOCAL_FILE,
    SAME_AS_CODER,
    best_coder_for_machine,
    check_model_file,
    download_needed,
    engine_settings_of_user,
    gauges_html,
    last_reply_markdown,
    machine_choice,
    model_choices,
    model_markdown,
    paired_settings,
    plan_preview,
    resolve_choice,
    reviewer_choices,
)
from gui.page_layout import MODEL_GROUP
from gui.user_settings import UserSettings
from models.catalog import catalog_entry
from models.offload_planner import KV_TYPES as KV_CHOICES


@dataclass
class ModelTab:
    model_info: Any
    reply_stats: Any
    gauges: Any
    choice: Any
    local_path: Any
    reviewer: Any
    n_ctx: Any
    kv_type: Any
    layers: Any
    preview: Any
    download: Any
    fetch_best: Any
    load: Any
    model_message: Any


def build_model_tab(state: IdeState) -> ModelTab:
    with gr.Row():
        with gr.Column(scale=3):
            model_info = gr.Markdown(model_markdown(state.host, state.model_reason), elem_id="model-info")
            reply_stats = gr.Markdown(last_reply_markdown(state.host), elem_id="reply-stats")
        with gr.Column(scale=2):
            gauges = gr.HTML(gauges_html(host=state.host), elem_id="gauges")
    gr.Markdown("### Choose a model")
    chosen, path, reviewer_now, ctx, kv, layer_text = _chosen_now(state)
    with gr.Row():
        choice = gr.Dropdown(model_choices(), value=chosen, label="Model", elem_id="model-choice")
        local_path = gr.Textbox(value=path, label="Local .gguf path", elem_id="local-path")
        reviewer = gr.Dropdown(
            reviewer_choices(),
            value=reviewer_now,
            label="Reviewer model (planned with the coder into the same memory)",
            allow_custom_value=True,  # a .gguf path given with --reviewer-model
            elem_id="reviewer-choice",
        )
    with gr.Row():
        n_ctx = gr.Number(
            ctx, label="Context size (0 = what fits this machine)", precision=0, minimum=0, elem_id="n-ctx"
        )
        kv_type = gr.Dropdown(list(KV_CHOICES), value=kv, label="KV cache type", elem_id="kv-type")
        layers = gr.Textbox(layer_text, label="GPU layers (auto, -1 = all, or a number)")
    with gr.Row():
        preview = gr.Button("Preview plan", elem_id="preview-plan")
        download = gr.Button("Download", elem_id="download")
        fetch_best = gr.Button("Get the best coder for this machine", elem_id="fetch-best")
        load = gr.Button("Load", variant="primary", elem_id="load-model")
    model_message = gr.Markdown("", elem_id="model-message")
    return ModelTab(
        model_info, reply_stats, gauges, choice, local_path, reviewer, n_ctx, kv_type, layers, preview,
        download, fetch_best, load, model_message,
    )  # fmt: skip


def _chosen_now(state: IdeState) -> tuple[str, str, str, int, str, str]:
    """The choices as saved now: model (or LOCAL_FILE and its path), reviewer, context, KV, layers."""
    current = state.settings.model or state.default_model_id
    is_catalog = catalog_entry(current) is not None
    layers = "auto" if state.settings.n_gpu_layers is None else str(state.settings.n_gpu_layers)
    return (
        current if is_catalog else LOCAL_FILE,
        "" if is_catalog else current,
        state.settings.reviewer_model or SAME_AS_CODER,
        state.settings.n_ctx,
        state.settings.kv_type,
        layers,
    )


def choices_now(state: IdeState) -> tuple[Any, ...]:
    """The panel's fields for a page opened now. The page is built at launch: without this, a page
    opened after a model was loaded or downloaded showed the launch's model, and Load loaded it."""
    chosen, path, reviewer, ctx, kv, layers = _chosen_now(state)
    return gr.Dropdown(choices=model_choices(), value=chosen), path, reviewer, ctx, kv, layers


def parse_layers(text: str) -> int | None:
    text = (text or "").strip().lower()
    return None if text in ("", "auto") else int(text)


class ModelActions:
    def __init__(self, state: IdeState) -> None:
        self.state = state

    def settings_from_panel(self, ctx: float, kv: str, layer_text: str) -> UserSettings:
        changed = replace(
            self.state.settings, n_ctx=int(ctx or 0), kv_type=kv, n_gpu_layers=parse_layers(layer_text)
        )
        return changed.validated()

    def _typed_over_listed(self, chosen: str, path: str, verb: str) -> str:
        """Why the listed model is not used while a .gguf path is typed ('' when none is)."""
        typed = (path or "").strip()
        if typed and chosen != LOCAL_FILE and typed != self.state.settings.model:
            # Using the listed model over a typed path (a typo, a bad file) surprised users.
            return (
                f"a .gguf path is typed, but the list says {chosen}. Choose '{LOCAL_FILE}' to {verb}"
                f" the path, or clear it to {verb} {chosen}."
            )
        return ""

    def preview_plan(self, chosen: str, path: str, ctx: float, kv: str, layer_text: str) -> str:
        typed = self._typed_over_listed(chosen, path, "plan")
        if typed:
            return f"**Cannot plan:** {typed}"
        try:
            return plan_preview(chosen, path, self.settings_from_panel(ctx, kv, layer_text))
        except ValueError:
            return "GPU layers must be auto, -1 or a whole number."

    @staticmethod
    def download_model_with_progress(chosen: str, progress: gr.Progress = gr.Progress()) -> str:  # noqa: B008
        from models.download import DownloadError
        from models.download import download_model as fetch

        entry = catalog_entry(chosen)
        if entry is None or entry.repo is None:
            return "Choose a catalog model to download (the bundled one is already here)."
        if not download_needed(chosen):
            return f"{entry.title} is already downloaded."
        progress(0, desc=f"Downloading {entry.filename}")

        def report(done: int, total: int) -> None:
            progress((done, total or entry.size_bytes), desc=f"Downloading {entry.filename}", unit="bytes")

        try:
            path = fetch(entry, on_progress=report)
        except DownloadError as exc:
            return f"**Download failed:** {exc}"
        return f"Downloaded to `{path}`. Press Load to use it."

    @staticmethod
    def fetch_best_coder(progress: gr.Progress = gr.Progress()) -> tuple[str, Any]:  # noqa: B008
        """What launch.sh does, in one press: choose the coder for this machine (the GPU's free VRAM,
        else the CPU's measured decode speed), say why, fetch it (resumable, hash-checked; a smaller
        coder that also runs well here when it cannot be had), and select it so Load uses it."""
        choice = machine_choice()
        model_id, why = best_coder_for_machine(choice)
        said = []
        for model_id in (choice.model_id, *choice.fallbacks):
            done = ModelActions.download_model_with_progress(model_id, progress)
            said.append(done)
            if not done.startswith("**Download failed"):
                break
        return "\n\n".join([why, *said]), gr.update(value=model_id)

    def load_model(
        self, chosen: str, path: str, ctx: float, kv: str, layer_text: str, reviewer: str = SAME_AS_CODER
    ) -> str:
        typed = self._typed_over_listed(chosen, path, "load")
        if typed:
            return f"**Not loaded:** {typed} The current model stays."
        try:
            new_settings = self.settings_from_panel(ctx, kv, layer_text)
            model_path = resolve_choice(chosen, path)
            check_model_file(model_path)  # a bad file is refused before the loaded model goes
            new_settings.reviewer_model = (reviewer or SAME_AS_CODER).strip()
            pair = paired_settings(model_path, new_settings.reviewer_model, new_settings)
        except ValueError as exc:  # ModelNotFoundError and GGUFError are ValueErrors too
            return f"**Not loaded:** {exc} The current model stays loaded."
        with self.state.session.exclusive() as free:  # a run must not lose its model mid-way
            if not free:
                return "**Not loaded:** a crew request is running or waiting; load when it ends."
            return self.switch_model(chosen, model_path, new_settings, pair)

    def switch_model(self, chosen: str, model_path: Any, new_settings: UserSettings, pair: Any = None) -> str:
        state = self.state
        previous = (state.settings, state.host.label, state.host.settings, state.model_reason)
        new_settings.model = str(model_path) if chosen == LOCAL_FILE else chosen
        coder_settings, reviewer, plan_text = pair or (engine_settings_of_user(new_settings), None, "")
        state.host.switch(str(model_path), coder_settings)
        status = state.host.wait()
        if status.state != "ready":
            # Nothing is saved, and the model that worked comes back.
            state.settings, label, host_settings, state.model_reason = previous
            if label:
                state.host.switch(label, host_settings)
            return (
                f"**Load failed:** {status.message} The previous model is loading again; nothing was saved."
            )
        state.settings, state.model_reason = new_settings, "chosen in this panel"
        self.set_reviewer(reviewer)
        return "\n\n".join(part for part in (f"{status.message}. {state.save()}", plan_text) if part)

    def set_reviewer(self, reviewer: Any) -> None:
        """The reviewer model the joint plan placed, loading now beside the coder (None: no second model)."""
        from models.model_host import ModelHost

        host = self.state.host
        if host.reviewer is not None:
            host.reviewer.close()
        host.reviewer = None if reviewer is None else ModelHost.for_path(str(reviewer[0]), reviewer[1])
        if host.reviewer is not None:
            host.reviewer.start_loading()

    def model_now(self) -> str:
        return model_markdown(self.state.host, self.state.model_reason)

    def panel_now(self) -> tuple[str, str, str]:
        return self.model_now(), gauges_html(host=self.state.host), last_reply_markdown(self.state.host)


def wire_model_tab(page: gr.Blocks, state: IdeState, tab: ModelTab) -> None:
    actions = ModelActions(state)
    plan_inputs = [tab.choice, tab.local_path, tab.n_ctx, tab.kv_type, tab.layers]
    fields = [tab.choice, tab.local_path, tab.reviewer, tab.n_ctx, tab.kv_type, tab.layers]
    page.load(lambda: choices_now(state), None, fields, api_visibility="private")
    tab.preview.click(actions.preview_plan, plan_inputs, tab.model_message, api_name="preview_plan")
    # After a download the list says the model is here.
    relabel = {"fn": lambda: gr.update(choices=model_choices()), "outputs": tab.choice}
    tab.download.click(
        actions.download_model_with_progress, tab.choice, tab.model_message, api_name="download_model"
    ).then(**relabel, api_visibility="private")
    tab.fetch_best.click(
        actions.fetch_best_coder, None, [tab.model_message, tab.choice], api_name="fetch_best_coder"
    ).then(**relabel, api_visibility="private")
    tab.load.click(
        actions.load_model,
        [*plan_inputs, tab.reviewer],
        tab.model_message,
        api_name="load_model",
        concurrency_id=MODEL_GROUP,
    ).then(actions.model_now, None, tab.model_info, api_visibility="private")
    model_timer = gr.Timer(2.0)
    model_timer.tick(
        actions.panel_now, None, [tab.model_info, tab.gauges, tab.reply_stats], api_visibility="private"
    )
