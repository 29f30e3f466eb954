"""The OpenAI-compatible backend with real parts: llama-cpp-python's own server on loopback, the
real crew (CrewAI) through the one crew factory, and a stub server only for the failures a real
server will not produce on demand (HTTP 500, a stream cut, a slow answer, a reply that is not
JSON where a schema was asked)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from agents.crew_factory import build_crew
from agents.events import (
    AgentFinished,
    AgentStarted,
    ContextRetrieved,
    EventBus,
    FileChanged,
    Notice,
    RunFinished,
    RunStarted,
    TokenChunk,
)
from agents.rules.registry import RuleSwitches
from agents.run.runner import CrewSettings
from bench.child_process import free_port
from bench.llama_server import llama_server
from models.chat_engine import ChatEngine, GenerationSettings
from models.openai_engine import OpenAIEngine, RemoteEngineError, RemoteSettings, parameters_from_name
from tests.stub_openai_server import StubServer
from tools.run_snapshot import RunSnapshots

REQUEST = "Write add.py with a function add(a, b) that returns a + b, and print add(2, 3)."
# What every completed crew run emits, whichever engine answers.
CORE_KINDS = {RunStarted, ContextRetrieved, AgentStarted, TokenChunk, AgentFinished, RunFinished}
PLAN = {"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "string"}}}}


@pytest.fixture(scope="module")
def server_url(bundled_model: Path) -> str:
    with llama_server(bundled_model, n_ctx=4096) as url:
        yield url


def _remote(url: str, **kw: object) -> OpenAIEngine:
    engine = OpenAIEngine(RemoteSettings(url, **kw))  # type: ignore[arg-type]
    engine.load()
    return engine


def _crew_run(
    engine: ChatEngine, workspace: Path, rounds: int = 1, *, plan_retries: bool = False
) -> tuple[object, list[object]]:
    workspace.mkdir(exist_ok=True)
    bus = EventBus()
    rules = RuleSwitches(enabled=frozenset({"plan_retries"}) if plan_retries else frozenset())
    settings = CrewSettings(rounds=rounds, rules=rules)
    summary = build_crew(engine, workspace, bus, settings).run(REQUEST)
    return summary, bus.history


def _text(content: str | list[dict]) -> str:
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


# ---------- the real server ----------
def test_both_engines_satisfy_the_protocol(engine: object, server_url: str) -> None:
    remote = _remote(server_url)
    assert isinstance(engine, ChatEngine) and isinstance(remote, ChatEngine)
    assert remote.backend == "openai" and engine.backend == "local"  # type: ignore[attr-defined]
    # llama_cpp.server names the model by its path: the crew sees the same file name as in process.
    assert remote.model_path.name == engine.model_path.name  # type: ignore[attr-defined]
    assert remote.info is not None and remote.info.parameter_count == 135_000_000


def test_each_reply_carries_its_own_stats_in_process_and_scripted(engine: object) -> None:
    from tests.scripted_engine import ScriptedEngine

    scripted = ScriptedEngine(["one two three", "four"])
    assert isinstance(scripted, ChatEngine)
    for chat_engine in (engine, scripted):
        gen = GenerationSettings(max_tokens=8, temperature=0.0)
        first = chat_engine.stream_chat([{"role": "user", "content": "Say hi."}], gen)  # type: ignore[attr-defined]
        assert first.stats is None  # nothing ran yet: the stream is lazy
        text = first.text()
        second = chat_engine.stream_chat([{"role": "user", "content": "Say bye."}], gen)  # type: ignore[attr-defined]
        second.text()
        assert first.stats is not None and second.stats is not None and first.stats is not second.stats
        assert first.stats.completion_tokens > 0 and text
        assert chat_engine.last_stats is second.stats  # type: ignore[attr-defined]


def test_a_crew_request_completes_through_the_server_as_in_process(
    engine: object, server_url: str, tmp_path: Path
) -> None:
    remote = _remote(server_url)
    local_summary, local_events = _crew_run(engine, tmp_path / "local")  # type: ignore[arg-type]
    remote_summary, remote_events = _crew_run(remote, tmp_path / "remote")
    for summary, events in ((local_summary, local_events), (remote_summary, remote_events)):
        assert summary.completed, summary.message  # type: ignore[attr-defined]
        assert {type(e) for e in events} >= CORE_KINDS
        assert not [e for e in events if isinstance(e, Notice) and e.level == "error"]
        assert summary.llm_calls >= 1 and summary.tokens_generated > 0  # type: ignore[attr-defined]

    # The same steps in the same order: the same agents took turns in both.
    def turns(events: list[object]) -> list[tuple[str, int]]:
        return [(e.agent, e.round) for e in events if isinstance(e, AgentStarted)]

    assert turns(remote_events)[:2] == turns(local_events)[:2]


def test_structured_output_is_json_through_llama_cpp_server(server_url: str) -> None:
    remote = _remote(server_url)
    gen = GenerationSettings(max_tokens=60, temperature=0.0)
    text, stats = remote.chat([{"role": "user", "content": "Plan fizzbuzz."}], gen, schema=PLAN)
    import json

    assert isinstance(json.loads(text), dict)  # the grammar held (llama_cpp.server refuses json_schema)
    assert stats.completion_tokens > 0 and stats.finish_reason in ("stop", "length")


def test_stats_are_on_each_reply_and_cancel_closes_the_stream(server_url: str) -> None:
    remote = _remote(server_url)
    cancel = threading.Event()
    gen = GenerationSettings(max_tokens=400, temperature=0.7, repeat_penalty=1.0)
    stream = remote.stream_chat([{"role": "user", "content": "Count from 1 to 300."}], gen, cancel)
    pieces = []
    for piece in stream:
        pieces.append(piece)
        if len(pieces) == 3:
            cancel.set()
    assert len(pieces) == 3  # the stream ended at the next piece, of up to 400
    assert stream.stats is not None and stream.stats.finish_reason == "cancelled"
    # The server is free again at once: the next call answers.
    text, stats = remote.chat([{"role": "user", "content": "Say hi."}], GenerationSettings(max_tokens=8))
    assert stats is not stream.stats and stats.completion_tokens > 0


def test_the_ide_and_ask_run_the_crew_against_the_server(
    server_url: str, bundled_model: Path, tmp_path: Path
) -> None:
    """`python app.py --backend openai --base-url URL` serves the IDE and the crew runs there."""
    import json

    from tests.app_process import run_app, serve_app

    flags = ("--backend", "openai", "--base-url", server_url, "--model", str(bundled_model))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    with serve_app(*flags, tmp_path=tmp_path) as app:
        chat, *_ = app.client().predict(REQUEST, None, api_name="/run")
        texts = [_text(m["content"]) for m in chat]
        assert any(text.startswith("**Coder**") for text in texts), texts
        assert not any("**Error:**" in text for text in texts), texts
        assert f"served by {server_url}" in app.log()
        assert app.process.poll() is None
    workspace = tmp_path / "ask"
    workspace.mkdir()
    result = run_app(*flags, "ask", REQUEST, "--workspace", str(workspace), "--rounds", "1", timeout=180)
    assert result.returncode == 0, result.stderr
    assert "■ " in result.stdout and "coder" in result.stdout


# ---------- failures: one clear message, the run ends, the app stays up ----------
def _failing_run(url: str, workspace: Path, **settings: object) -> tuple[object, list[object]]:
    workspace.mkdir()
    (workspace / "notes.txt").write_text("mine\n")
    engine = OpenAIEngine(RemoteSettings(url, retry_wait_s=0.05, **settings))  # type: ignore[arg-type]
    engine.load()
    return _crew_run(engine, workspace)


def _one_error(events: list[object]) -> str:
    errors = [e.message for e in events if isinstance(e, Notice) and e.level == "error"]
    assert len(errors) == 1, errors
    finished = [e for e in events if isinstance(e, RunFinished)]
    assert len(finished) == 1 and not finished[0].completed
    return errors[0]


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("500", "answered HTTP 500"),
        ("cut", "closed the stream in the middle of the reply"),
        ("slow", "sent nothing for 0.5 s"),
        ("garbage", "sent something that is not a chat completion"),
    ],
)
def test_a_failing_server_ends_the_run_with_one_clear_message(mode: str, said: str, tmp_path: Path) -> None:
    with StubServer(mode, reply=lambda body: "```python\n# add.py\nprint(5)\n```\n") as stub:
        stub.slow_s = 1.5
        summary, events = _failing_run(stub.url, tmp_path / "ws", read_timeout_s=0.5, retries=1)
    message = _one_error(events)
    assert said in message and stub.url in message, message
    assert not summary.completed  # type: ignore[attr-defined]
    if mode in ("500", "slow"):
        assert len(stub.requests) >= 2  # tried again before giving up
    assert (tmp_path / "ws" / "notes.txt").read_text() == "mine\n"


def test_a_server_that_is_down_is_one_message_at_load(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    engine = OpenAIEngine(RemoteSettings(url, retries=1, retry_wait_s=0.05))
    with pytest.raises(RemoteEngineError, match="could not be reached") as caught:
        engine.load()
    assert url in str(caught.value)


def test_a_server_going_down_mid_session_ends_the_run_and_undo_works(tmp_path: Path) -> None:
    stub = StubServer("ok")
    with stub:
        engine = OpenAIEngine(RemoteSettings(stub.url, retries=1, retry_wait_s=0.05))
        engine.load()
        engine.close()  # drop the kept-alive connection: the next call must reach for the server
    (tmp_path / "notes.txt").write_text("mine\n")
    summary, events = _crew_run(engine, tmp_path)
    assert "could not be reached" in _one_error(events)
    RunSnapshots(tmp_path).undo()  # the run's snapshot was closed: undo answers, nothing is lost
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_text_where_a_schema_was_asked_ends_the_run_and_undo_restores(tmp_path: Path) -> None:
    """Round 1 writes add.py, which fails its run; round 2's planner (asked to plan retries) asks
    for JSON and gets prose."""

    def reply(body: dict) -> str:
        if body.get("response_format") or body.get("grammar"):
            return "Sure! Here is my plan: fix the bug."
        code = "def add(a, b):\n    return a + b\n\nprint(add(2, 3))\nraise SystemExit(3)\n"
        return f"```python\n# add.py\n{code}```\n"

    with StubServer("ok", reply=reply) as stub:
        engine = OpenAIEngine(RemoteSettings(stub.url, retry_wait_s=0.05))
        engine.load()
        summary, events = _crew_run(engine, tmp_path, rounds=2, plan_retries=True)
    assert "not JSON although a JSON schema was asked" in _one_error(events)
    assert any(isinstance(e, FileChanged) and e.path == "add.py" for e in events)
    assert (tmp_path / "add.py").exists()
    result = RunSnapshots(tmp_path).undo()
    assert "add.py" in result.deleted and not (tmp_path / "add.py").exists()


# ---------- the key and the flags ----------
def test_the_key_is_sent_from_the_named_variable_and_never_shown(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LC_TEST_KEY", "sk-secret-123")
    with StubServer("500") as stub:
        engine = OpenAIEngine(RemoteSettings(stub.url, api_key_env="LC_TEST_KEY", retries=0))
        engine.load()
        with pytest.raises(RemoteEngineError) as caught:
            engine.chat([{"role": "user", "content": "hi"}])
    assert stub.headers[-1]["Authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in str(caught.value)
    from gui.model_panel_data import model_markdown
    from models.model_host import ModelHost

    with StubServer("ok") as stub:
        host = ModelHost.for_remote(RemoteSettings(stub.url, api_key_env="LC_TEST_KEY"))
        host.start_loading()
        assert host.wait(10).state == "ready", host.status().message
        panel = model_markdown(host)
    assert stub.url in panel and "sk-secret" not in panel and "VRAM planner is skipped" in panel
    monkeypatch.delenv("LC_TEST_KEY")
    with pytest.raises(RemoteEngineError, match=r"\$LC_TEST_KEY is not set"):
        OpenAIEngine(RemoteSettings(stub.url, api_key_env="LC_TEST_KEY")).load()


@pytest.mark.parametrize(
    "argv",
    [
        ["--backend", "openai", "--base-url", "http://h:1/v1", "--model", "m", "ask", "hi"],
        ["ask", "hi", "--backend", "openai", "--base-url", "http://h:1/v1", "--model", "m"],
        ["--backend", "openai", "--base-url", "http://h:1/v1", "--model", "m", "doctor"],
        ["doctor", "--backend", "openai", "--base-url", "http://h:1/v1", "--model", "m"],
    ],
)
def test_backend_flags_count_wherever_they_stand(argv: list[str]) -> None:
    from app import build_parser, remote_settings

    remote = remote_settings(build_parser().parse_args(argv))
    assert remote is not None and remote.url == "http://h:1/v1" and remote.model == "m"


def test_model_size_is_read_from_a_served_models_name() -> None:
    assert parameters_from_name("qwen2.5-coder:7b") == 7_000_000_000
    assert parameters_from_name("Qwen/Qwen2.5-Coder-0.5B-Instruct") == 500_000_000
    assert parameters_from_name("SmolLM2-135M-Instruct.Q4_1.gguf") == 135_000_000
    assert parameters_from_name("my-model") == 7_000_000_000  # unknown: a server's model codes
