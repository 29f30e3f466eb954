"""`app.py ask --profile NAME`: the crew's settings from a saved profile (agents/crew_profile), with
--rounds still winning; a profile that cannot be read is refused before any model loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app
from agents.rules.registry import rule
from agents.run.runner import CrewSettings


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    seen: dict[str, object] = {}
    monkeypatch.setattr("agents.headless.run_ask", lambda request, workspace, **kw: seen.update(kw) or 0)
    return seen


def _profile(tmp_path: Path) -> Path:
    path = tmp_path / "lean.json"
    data = {"name": "lean", "rounds": 2, "retry": "fresh", "retry_temperature": 0.5}
    path.write_text(json.dumps(data | {"disabled": ["put_back_unasked"], "enabled": []}))
    return path


def test_the_profile_gives_the_crew_its_rounds_and_switches(
    tmp_path: Path, asked: dict[str, object], bundled_model: Path
) -> None:
    argv = ["ask", "Add sub.", "--model", str(bundled_model), "--workspace", str(tmp_path)]
    assert app.main([*argv, "--profile", str(_profile(tmp_path))]) == 0
    crew = asked["crew"]
    assert isinstance(crew, CrewSettings) and crew.rounds == 2 and crew.retry_temperature == 0.5
    assert not crew.rules.on(rule("put_back_unasked")) and crew.rules.on(rule("keep_best"))
    assert app.main([*argv, "--profile", str(_profile(tmp_path)), "--rounds", "4"]) == 0
    assert asked["crew"].rounds == 4  # type: ignore[attr-defined]
    assert app.main(argv) == 0
    assert asked["crew"] == CrewSettings()  # no profile: the defaults
    assert app.main([*argv, "--minutes", "2.5"]) == 0
    assert asked["crew"].time_budget_s == 150.0  # type: ignore[attr-defined]


def test_an_unreadable_profile_is_refused_before_anything_runs(
    tmp_path: Path, asked: dict[str, object], bundled_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ask", "Add sub.", "--model", str(bundled_model), "--workspace", str(tmp_path)]
    assert app.main([*argv, "--profile", str(tmp_path / "none.json")]) == 2
    assert "error:" in capsys.readouterr().err and not asked  # run_ask was never called
