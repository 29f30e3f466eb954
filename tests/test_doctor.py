"""doctor reports the embedding model the code index would load, not one of its own choosing."""

from pathlib import Path

import pytest

from models.doctor import _embedding_state
from tools.code_index.embedder import ENV_MODEL, default_model_path


def test_doctor_names_the_model_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_MODEL, str(tmp_path))
    state = _embedding_state()
    assert state == {"found": True, "source": f"${ENV_MODEL}", "path": default_model_path()}
    assert state["path"] == str(tmp_path)


def test_doctor_says_a_missing_folder_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_MODEL, str(tmp_path / "nowhere"))
    assert _embedding_state()["found"] is False


@pytest.mark.parametrize(("env", "off"), [("0", True), ("1", False)])
def test_doctor_says_when_weight_repacking_is_off(
    monkeypatch: pytest.MonkeyPatch, env: str, off: bool
) -> None:
    from models.chat_engine import EngineSettings
    from models.doctor import _llama_cpp_state, doctor_report, format_doctor_text

    monkeypatch.setenv("LOCALCREW_CPU_REPACK", env)
    assert _llama_cpp_state()["cpu_repack"] is not off
    text = format_doctor_text(doctor_report("smollm2-135m", EngineSettings()))
    assert ("weight repacking off" in text) is off
