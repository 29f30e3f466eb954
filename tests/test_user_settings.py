"""gui.user_settings: saved between launches, a broken file never stops the app, CLI wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui.user_settings import CONFIG_ENV, UserSettings, load_settings, merged, save_settings, settings_path


def test_round_trip_in_the_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "cfg"))
    assert load_settings() == (UserSettings(), None)
    saved = UserSettings(
        model="qwen2.5-coder-7b-q4_k_m",
        n_ctx=8192,
        kv_type="q8_0",
        n_gpu_layers=20,
        workspace="/w",
        rounds=2,
        temperature=0.3,
        seed=7,
    )
    path = save_settings(saved)
    assert path == settings_path() == tmp_path / "cfg" / "settings.json"
    assert load_settings() == (saved, None)
    assert list(path.parent.iterdir()) == [path]  # no temp file left behind


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"n_ctx": "many"}'])
def test_a_broken_file_gives_defaults_and_a_warning(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(content)
    settings, warning = load_settings(path)
    assert settings == UserSettings()
    assert warning is not None and str(path) in warning


def test_bad_values_are_clamped_and_unknown_keys_ignored(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        '{"n_ctx": 10, "kv_type": "q2", "rounds": 99, "temperature": -1, "run_minutes": -5, "future": 1}'
    )
    settings, warning = load_settings(path)
    assert warning is None
    assert (settings.n_ctx, settings.kv_type, settings.rounds, settings.temperature) == (512, "f16", 10, 0.0)
    assert settings.run_minutes == 0.0  # no budget, never a negative one


def test_command_line_values_take_precedence() -> None:
    saved = UserSettings(model="a", n_ctx=8192, workspace="/saved")
    result = merged(saved, model=None, n_ctx=2048, workspace=None, n_gpu_layers=None)
    assert (result.model, result.n_ctx, result.workspace) == ("a", 2048, "/saved")


def test_the_web_lookup_is_off_unless_switched_on_plainly(tmp_path: Path) -> None:
    from gui.user_settings import web_docs_for

    assert UserSettings().web_docs is False and web_docs_for(UserSettings()) is None
    path = tmp_path / "settings.json"
    path.write_text('{"web_docs": "yes"}')  # a hand edit that is not plainly true leaves it off
    assert load_settings(path)[0].web_docs is False
    path.write_text('{"web_docs": true}')
    on = web_docs_for(load_settings(path)[0])
    assert on is not None and "docs.python.org" in on.hosts


def test_review_before_write_is_auto_and_a_bad_value_falls_back_to_it(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"review": "sometimes"}')
    assert load_settings(path)[0].review == "auto" == UserSettings().review
    path.write_text('{"review": "never"}')
    assert load_settings(path)[0].review == "never"
