"""The served IDE end to end through gradio_client, on the real bundled model and real crew."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app_process import RunningApp, serve_app

SEED_FILE = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n'


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("ide")
    (root / "workspace").mkdir()
    (root / "workspace" / "calc.py").write_text(SEED_FILE)
    (root / "config").mkdir()
    (root / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))  # one round keeps it short
    with serve_app(tmp_path=root) as running:
        running.root = root  # type: ignore[attr-defined]
        yield running


def _workspace(app: RunningApp) -> Path:
    return app.root / "workspace"  # type: ignore[attr-defined]


def _python_files(root: Path) -> set[str]:
    """The workspace's Python files, wherever the crew put them (the snapshot store left out)."""
    return {
        str(p.relative_to(root)) for p in root.rglob("*.py") if ".localcrew" not in p.relative_to(root).parts
    }


def _text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def test_a_request_writes_a_file_feeds_the_sidebar_and_queues_a_second_tab(app: RunningApp) -> None:
    client, other_tab = app.client(), app.client()
    before = _python_files(_workspace(app))
    job = client.submit("Write hello.py that prints hello world.", None, api_name="/run")
    deadline = time.monotonic() + 120
    # Streamed output means the run holds the model (a status poll can miss PROCESSING).
    while not job.outputs() and not job.done() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not job.done(), "the run ended before a second tab could be queued behind it"
    # The second tab's request waits in the page's queue, which shows its place; its Cancel
    # withdraws it before it reaches the model.
    waiting = other_tab.submit("Write never.py that prints no.", None, api_name="/run")
    while not any("1 ahead" in str(part) for output in waiting.outputs() for part in output):
        assert not waiting.done() and not job.done(), "the second tab's request did not wait in line"
        time.sleep(0.2)
    other_tab.predict(api_name="/cancel_waiting")
    withdrawn_chat = waiting.result(timeout=30)[0]
    assert _text(withdrawn_chat[-1]).startswith("Withdrawn before it ran")
    assert not job.done(), "the first tab's run should still be going"

    chat, request_box, timeline, context, source, *_ = job.result()
    assert len(job.outputs()) > 3  # streamed while the crew worked
    # Cleared once when the run starts; later snapshots leave the box alone, so what the user types
    # during a run stays (it was cleared every 0.15 s).
    boxes = [output[1] for output in job.outputs()]
    assert boxes[0] == "" and all(box == {"__type__": "update"} for box in boxes[1:]), boxes[:3]
    written = _python_files(_workspace(app)) - before  # the request names hello.py; the model may add more
    assert not (_workspace(app) / "never.py").exists()  # the withdrawn request never ran
    assert written, "the crew wrote no Python file"
    labels = [_text(m).split("\n", 1)[0] for m in chat]
    for agent in ("**Coder**", "**Reviewer**"):  # no planner: it plans retries only when asked to
        assert any(label.startswith(agent) for label in labels), labels
    tool_panels = [m for m in chat if (m.get("metadata") or {}).get("title", "").startswith("Tool: ")]
    assert tool_panels and all(m["metadata"]["status"] == "done" for m in tool_panels)
    assert 'class="lc-call' in timeline and "write_file" in timeline
    assert any(row[0].startswith("calc.py:") for row in context["data"]), context
    assert "index" in source or "text search" in source
    assert "Done" in _text(chat[-1])


def test_stop_ends_the_run_cleanly_and_quickly(app: RunningApp) -> None:
    client = app.client()
    job = client.submit("Write a long story generator in story.py.", None, api_name="/run")
    deadline = time.monotonic() + 120
    while len(job.outputs()) < 3 and time.monotonic() < deadline:  # the crew is generating
        time.sleep(0.1)
    app.client().predict(api_name="/stop")  # another tab's Stop: not this run's
    time.sleep(1.5)
    assert not job.done(), "a Stop in another tab ended this tab's run"
    client.predict(api_name="/stop")
    stopped_at = time.monotonic()
    chat, *_ = job.result(timeout=300)
    took = time.monotonic() - stopped_at
    assert "Stopped by the user" in " ".join(_text(m) for m in chat[-3:])
    # A hang, not a speed, is what a test can catch: ~1 s when idle, 16 s seen with the suite in two
    # workers on two cores.
    assert took < 180, f"stop took {took:.1f} s"


def _undo(client: Any) -> str:
    """Undo the last run as the page does: Undo, and the yes when it asks before deleting files
    the run created (it names them first)."""
    message = client.predict(None, api_name="/undo")  # None: the last run not undone
    if message.startswith("**Undo"):
        assert "Deletes" in message
        message = client.predict(api_name="/undo_confirm")
    return message


def test_editor_save_stays_in_the_workspace_and_undo_restores(app: RunningApp) -> None:
    client = app.client()
    outside = _workspace(app).parent / "evil.py"
    assert "Not saved" in client.predict("../evil.py", "x = 1\n", api_name="/save_file")
    assert not outside.exists()
    assert "Saved `notes.py` (created)" in client.predict("notes.py", "x = 1\n", api_name="/save_file")
    assert (_workspace(app) / "notes.py").read_text() == "x = 1\n"
    crew_files = _python_files(_workspace(app)) - {"calc.py", "notes.py"}
    assert crew_files, "an earlier test's run should have left files to undo"
    workspace = _workspace(app)
    before_undo = {rel: (workspace / rel).read_bytes() for rel in _python_files(workspace)}
    message = _undo(client)
    assert message.startswith("Undid")
    assert (_workspace(app) / "calc.py").read_text() == SEED_FILE
    # Redo brings the run's changes back exactly, and the user's notes.py stays as it was.
    assert client.predict(None, api_name="/redo").startswith("Redid")
    assert {rel: (workspace / rel).read_bytes() for rel in _python_files(workspace)} == before_undo
    assert _undo(client).startswith("Undid")
    assert (_workspace(app) / "calc.py").read_text() == SEED_FILE


def test_settings_are_saved_to_the_config_dir(app: RunningApp) -> None:
    client = app.client()
    message = client.predict(str(_workspace(app)), 2, 0.0, 7, True, api_name="/save_settings")
    assert "Saved to" in message
    saved = json.loads((app.root / "config" / "settings.json").read_text())  # type: ignore[attr-defined]
    assert (saved["rounds"], saved["seed"], saved["workspace"]) == (2, 7, str(_workspace(app).resolve()))
    assert saved["web_docs"] is True  # the web lookup is the user's choice, saved with the rest
    client.predict(str(_workspace(app)), 1, 0.0, 42, False, api_name="/save_settings")
    assert json.loads((app.root / "config" / "settings.json").read_text())["web_docs"] is False  # type: ignore[attr-defined]
    client.predict(str(_workspace(app)), 1, 0.0, 42, False, "auto", "", 4, api_name="/save_settings")
    assert json.loads((app.root / "config" / "settings.json").read_text())["run_minutes"] == 4  # type: ignore[attr-defined]
    client.predict(str(_workspace(app)), 1, 0.0, 42, False, "auto", "", 10, api_name="/save_settings")


def test_a_crew_profile_is_chosen_by_name_only(app: RunningApp) -> None:
    from agents.crew_profile import list_profiles

    client, path = app.client(), app.root / "config" / "settings.json"  # type: ignore[attr-defined]
    name = list_profiles()[0]
    assert "Saved to" in client.predict(
        str(_workspace(app)), 1, 0.0, 42, False, "auto", name, api_name="/save_settings"
    )
    assert json.loads(path.read_text())["profile"] == name
    before = path.read_bytes()
    try:
        reply = client.predict(
            str(_workspace(app)), 4, 0.0, 42, False, "auto", "../x.json", api_name="/save_settings"
        )
    except Exception as exc:  # noqa: BLE001 - the page's list refuses a value it does not offer
        reply = str(exc)
    assert "Saved to" not in reply and path.read_bytes() == before
    # The default again, for the module's later tests.
    client.predict(str(_workspace(app)), 1, 0.0, 42, False, "auto", "", api_name="/save_settings")
    assert json.loads(path.read_text())["profile"] == ""


def test_plan_preview_and_a_bad_local_model_change_nothing(app: RunningApp, tmp_path: Path) -> None:
    client = app.client()
    plan = client.predict("smollm2-135m", "", 4096, "f16", "auto", api_name="/preview_plan")
    assert "CPU" in plan or "GPU" in plan
    bogus = tmp_path / "bad.gguf"
    bogus.write_text("not a model")
    assert "Cannot plan" in client.predict(
        "local .gguf file…", str(bogus), 4096, "f16", "auto", api_name="/preview_plan"
    )
    assert "Not loaded" in client.predict(
        "local .gguf file…", str(tmp_path / "missing.gguf"), 4096, "f16", "auto", api_name="/load_model"
    )
    assert "GPU layers must be" in client.predict(
        "smollm2-135m", "", 4096, "f16", "many", api_name="/preview_plan"
    )
