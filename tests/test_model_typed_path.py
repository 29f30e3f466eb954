"""The Model tab with a .gguf path typed while the list shows a catalog model (issue 40 item 5): the
listed model is neither loaded nor saved; the message says how to load either."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gui.model_panel_data import LOCAL_FILE
from gui.model_tab import ModelActions
from gui.user_settings import UserSettings


class NoHost:
    def switch(self, *args: object) -> None:
        raise AssertionError("no model may be loaded")


def test_a_typed_path_is_not_passed_over_for_the_listed_model(tmp_path: Path) -> None:
    settings = UserSettings()
    state = SimpleNamespace(settings=settings, host=NoHost(), session=None)
    actions = ModelActions(state)  # type: ignore[arg-type]
    typo = str(tmp_path / "my-modle.gguf")
    message = actions.load_model("qwen2.5-coder-0.5b-q4_k_m", typo, 0, "f16", "auto")
    assert message.startswith("**Not loaded:**") and LOCAL_FILE in message
    message = actions.load_model(LOCAL_FILE, typo, 0, "f16", "auto")  # the path itself: refused, says why
    assert message.startswith("**Not loaded:**") and "The current model stays loaded" in message
    assert state.settings is settings and settings.model == ""


def test_the_plan_preview_does_not_plan_the_listed_model_over_a_typed_path(tmp_path: Path) -> None:
    state = SimpleNamespace(settings=UserSettings(), host=NoHost(), session=None)
    actions = ModelActions(state)  # type: ignore[arg-type]
    typo = str(tmp_path / "my-modle.gguf")
    message = actions.preview_plan("qwen2.5-coder-0.5b-q4_k_m", typo, 0, "f16", "auto")
    assert message.startswith("**Cannot plan:**") and LOCAL_FILE in message and "Context" not in message
    message = actions.preview_plan(LOCAL_FILE, typo, 0, "f16", "auto")  # the path itself: not found
    assert message.startswith("**Cannot plan:**") and "my-modle.gguf" in message
