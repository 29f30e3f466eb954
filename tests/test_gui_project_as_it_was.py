"""The project as it was is a candidate, in the real page (issue 40): a run whose every round breaks
a test that passed changes nothing on disk and says so; a run on a project whose unrelated test
already fails stops once its own change passes. The model is a stub server scripted by agent."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.app_process import RunningApp, serve_app
from tests.scripted_engine import agent_of
from tests.stub_openai_server import StubServer
from tests.test_gui_keeps_work import _page, browser  # noqa: F401 - the module's browser fixture

CALC = "def add(a, b):\n    return a + b\n"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
TEST_OTHER = "def test_unrelated():\n    assert 1 + 1 == 3\n"
SUB = "\n\ndef sub(a, b):\n    return a - b\n"
REQUEST = "Add a function sub(a, b) to calc.py that returns a - b."


def _replies(calc: str) -> Callable[[dict[str, Any]], str]:
    def reply(body: dict[str, Any]) -> str:
        if agent_of(body["messages"]) == "reviewer":
            return "```python\nassert sub(5, 3) == 2\nassert sub(0, 4) == -4\n```\n"
        return f"calc.py\n```python\n{calc}```\n"

    return reply


@contextmanager
def _app(tmp_path: Path, calc: str, other_test: bool) -> Iterator[RunningApp]:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "calc.py").write_text(CALC)
    (workspace / "test_calc.py").write_text(TEST_CALC)
    if other_test:
        (workspace / "test_other.py").write_text(TEST_OTHER)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"rounds": 2}))
    with StubServer("ok", reply=_replies(calc)) as stub:
        backend = ("--backend", "openai", "--base-url", stub.url, "--model", "stub-coder-0.5b")
        with serve_app(*backend, tmp_path=tmp_path, fast_model=False) as running:
            running.workspace = workspace  # type: ignore[attr-defined]
            yield running


def _ask(page: Any) -> str:
    page.fill("#request textarea", REQUEST)
    page.click("#send")
    page.wait_for_function("document.querySelector('#chat').innerText.includes('Done in')", timeout=300_000)
    return page.locator("#chat").inner_text()


def test_a_run_whose_every_round_breaks_a_passing_test_changes_nothing_and_says_so(
    tmp_path: Path,
    browser: Any,  # noqa: F811 - the fixture imported above
) -> None:
    broken = CALC.replace("a + b", "a - b") + SUB  # sub is right, add is broken: test_add fails
    with _app(tmp_path, broken, other_test=False) as app:
        chat = _ask(_page(browser, app))
        assert (app.workspace / "calc.py").read_text() == CALC, chat[-2000:]  # type: ignore[attr-defined]
    assert "Nothing was changed" in chat and "Files changed: none" in chat


def test_an_unrelated_failing_test_does_not_keep_a_right_run_going(
    tmp_path: Path,
    browser: Any,  # noqa: F811 - the fixture imported above
) -> None:
    with _app(tmp_path, CALC + SUB, other_test=True) as app:
        chat = _ask(_page(browser, app))
        assert (app.workspace / "calc.py").read_text() == CALC + SUB  # type: ignore[attr-defined]
    assert "already failed before this request: test_other.py::test_unrelated" in chat
    assert "Round 2" not in chat  # it stopped once its own change passed
