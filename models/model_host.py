"""Hold the resident engine and load it in the background, so a UI can come up at once.

A second model for the reviewer role, when the user names one, is a host of its own in `reviewer`:
it starts loading once the coder is loaded, so it takes the VRAM the joint plan left it
(models.pair_hosts).

The engine is any models.chat_engine.ChatEngine: llama.cpp in this process, or a server reached
over HTTP (then "loading" is reaching the server and learning its model).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from models.catalog import display_name
from models.chat_engine import ChatEngine, EngineError, EngineSettings
from models.engine import Engine, LoadReport
from models.openai_engine import OpenAIEngine, RemoteLoadReport, RemoteSettings


@dataclass
class HostStatus:
    state: str  # "idle" | "loading" | "ready" | "error"
    message: str
    report: LoadReport | RemoteLoadReport | None = None


class ModelHost:
    """Owns an Engine; `status()` is safe to poll from any thread."""

    def __init__(self, engine_factory: Callable[[], ChatEngine], label: str = "") -> None:
        self._engine_factory = engine_factory
        self.label = label  # what the user chose (catalog id or path, or a server's URL), for the panel
        self._engine: ChatEngine | None = None
        self._status = HostStatus("idle", "No model loaded yet.")
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self.settings = EngineSettings()
        self.reviewer: ModelHost | None = None  # None: the coder's model serves every role

    @property
    def reviewer_engine(self) -> ChatEngine | None:
        """The reviewer's own model once loaded; None means: give the reviewer the coder's engine."""
        return self.reviewer.engine if self.reviewer is not None else None

    @classmethod
    def for_path(cls, path_or_error: str | Exception, settings: EngineSettings) -> ModelHost:
        """A host for a model path, or one that only reports why there is no model."""
        host = cls(lambda: Engine("", settings))
        host._set_target(path_or_error, settings)
        return host

    @classmethod
    def for_remote(cls, remote: RemoteSettings) -> ModelHost:
        """A host for a model on an OpenAI-compatible server."""
        return cls(lambda: OpenAIEngine(remote), label=remote.url)

    def _set_target(self, path_or_error: str | Exception, settings: EngineSettings) -> None:
        self.settings = settings
        if isinstance(path_or_error, Exception):
            self.label = ""
            self._engine_factory = lambda: Engine("", settings)
            self._fail(str(path_or_error))
        else:
            self.label = str(path_or_error)
            self._engine_factory = lambda: Engine(path_or_error, settings)

    def switch(self, path_or_error: str | Exception, settings: EngineSettings) -> None:
        """Unload the current model and load another in the background.

        The caller makes sure no generation is running (the GUI queues reloads with crew runs).
        """
        if self._thread is not None:
            self._thread.join()  # a load in flight finishes first; then it is replaced
        old, self._engine = self._engine, None
        if old is not None:
            old.close()
        self._thread = None
        self._ready = threading.Event()
        self._status = HostStatus("idle", "No model loaded yet.")
        self._set_target(path_or_error, settings)
        self.start_loading()

    def close(self) -> None:
        """Unload (a reviewer model the user no longer wants); a load in flight finishes first."""
        if self._thread is not None:
            self._thread.join()
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
        self._status = HostStatus("idle", "Unloaded.")

    def status(self) -> HostStatus:
        return self._status

    @property
    def engine(self) -> ChatEngine | None:
        return self._engine if self._status.state == "ready" else None

    def start_loading(self) -> None:
        if self._thread is not None or self._status.state == "error":
            return
        self._status = HostStatus("loading", "Loading the model…")
        self._thread = threading.Thread(target=self._load, name="model-loader", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            engine = self._engine_factory()
            report = engine.load(on_message=self._progress)
        except EngineError as exc:
            self._fail(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the app must stay up whatever llama.cpp raises
            self._fail(f"Unexpected error while loading the model: {exc!r}")
            return
        self._engine = engine
        name = display_name(engine.model_path)
        if isinstance(report, RemoteLoadReport):
            how = f"served by {report.url}, context {report.n_ctx} tokens"
        else:
            where = f"{report.n_gpu_layers} layers on the GPU" if report.n_gpu_layers else "CPU only"
            context = f"context {report.plan.n_ctx} tokens: {report.plan.n_ctx_reason}"
            how = f"{where}, loaded in {report.load_s:.1f} s; {context}"
        self._status = HostStatus("ready", f"{name} ready ({how})", report)
        self._ready.set()
        if self.reviewer is not None:
            self.reviewer.start_loading()

    def _progress(self, text: str) -> None:
        self._status = HostStatus("loading", text)

    def _fail(self, message: str) -> None:
        self._status = HostStatus("error", message)
        self._ready.set()

    def wait(self, timeout: float | None = None) -> HostStatus:
        """Block until the model is ready or failed (or the timeout passes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self._ready.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return self._status
