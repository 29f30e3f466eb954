"""gui.model_panel_data: gauges per GPU and for RAM, and the model summary once loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui.model_panel_data import gauges_html, last_reply_markdown, model_markdown
from models.chat_engine import EngineSettings, GenerationSettings
from models.engine import Engine
from models.model_host import ModelHost
from models.vram_probe import GpuDevice, GpuState

GiB = 1024**3


def test_a_gauge_per_gpu_and_one_for_ram() -> None:
    gpus = GpuState(
        "ok",
        "2 GPUs",
        "550.1",
        [
            GpuDevice(0, "RTX 4070", "0000:01:00.0", 12 * GiB, 9 * GiB, 3 * GiB),
            GpuDevice(1, "RTX 3060", "0000:02:00.0", 8 * GiB, 2 * GiB, 6 * GiB),
        ],
    )
    html = gauges_html(gpus)
    assert "GPU 0 RTX 4070 VRAM: 3.0 / 12.0 GiB (25 %)" in html and 'style="width:25%"' in html
    assert "GPU 1 RTX 3060 VRAM: 6.0 / 8.0 GiB (75 %)" in html
    assert "System RAM" in html


def test_no_gpu_says_why() -> None:
    html = gauges_html(GpuState("no_driver", "No NVIDIA driver found"))
    assert "No GPU in use: No NVIDIA driver found" in html


def test_model_summary_and_last_reply(bundled_model: Path) -> None:
    host = ModelHost(lambda: Engine(bundled_model, EngineSettings(n_ctx=4096)))
    assert "No model loaded" in model_markdown(host)
    host.start_loading()
    host.wait(60)
    text = model_markdown(host)
    assert "Q4_1" in text and "Context 4096 tokens" in text
    assert "n_gpu_layers 0" in text and "**Plan**" in text
    assert last_reply_markdown(host) == "Last reply: none yet."
    assert host.engine is not None
    host.engine.chat([{"role": "user", "content": "Hi."}], GenerationSettings(max_tokens=4, temperature=0))
    assert "tokens/s" in last_reply_markdown(host) and "first token" in last_reply_markdown(host)
    host.engine.close()


def test_switching_models_unloads_the_old_one_and_reports_a_bad_one(
    bundled_model: Path, tmp_path: Path
) -> None:
    host = ModelHost.for_path(str(bundled_model), EngineSettings(n_ctx=2048))
    host.start_loading()
    assert host.wait(60).state == "ready"
    first = host.engine
    assert first is not None and first.settings.n_ctx == 2048
    bogus = tmp_path / "bogus.gguf"
    bogus.write_text("not a model")
    host.switch(str(bogus), EngineSettings(n_ctx=2048))
    status = host.wait(60)
    assert status.state == "error" and "GGUF" in status.message
    assert host.engine is None and not first.loaded  # the old model's memory is given back
    host.switch(str(bundled_model), EngineSettings(n_ctx=1024))
    assert host.wait(60).state == "ready" and host.engine is not None
    assert host.engine.settings.n_ctx == 1024 and host.label == str(bundled_model)
    host.engine.close()


def test_the_model_list_says_which_models_are_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub

    from gui.model_panel_data import LOCAL_FILE, model_choices
    from models.catalog import catalog_entry

    monkeypatch.setenv("LOCALCREW_MODELS_DIR", str(tmp_path))
    monkeypatch.setattr(huggingface_hub, "try_to_load_from_cache", lambda **_: None)  # no hub cache here
    coder = catalog_entry("qwen2.5-coder-0.5b-q4_k_m")
    assert coder is not None
    labels = dict((value, label) for label, value in model_choices())
    assert labels[coder.id].endswith("GiB download") and labels[LOCAL_FILE] == LOCAL_FILE
    with (tmp_path / coder.filename).open("wb") as file:
        file.truncate(coder.size_bytes)  # complete by size, as the cache counts it
    assert dict((v, label) for label, v in model_choices())[coder.id].endswith("on this machine")
