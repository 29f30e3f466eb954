"""models.speed_probe: one real, short decode gives this machine's weight bandwidth; every coder's
speed is that over its bytes per token; measured once per machine and cached."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.catalog import catalog_entry
from models.speed_probe import (
    FAKE_ENV,
    ProbeError,
    SpeedProbe,
    bytes_per_token,
    cache_path,
    entry_info,
    measure,
    speed_probe,
)

SMALL, LARGE, SEVEN = "qwen2.5-coder-0.5b-q4_k_m", "qwen2.5-coder-1.5b-q4_k_m", "qwen2.5-coder-7b-q4_k_m"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(FAKE_ENV, raising=False)


def _per_token(model_id: str) -> int:
    entry = catalog_entry(model_id)
    assert entry is not None
    return bytes_per_token(entry_info(entry))


def test_a_token_reads_every_weight_but_the_embedding_table() -> None:
    small, large, seven = (_per_token(m) for m in (SMALL, LARGE, SEVEN))
    # The 0.5B's 94 MB Q5_0 embedding and the 1.5B's 131 MB Q4_K one are looked up, not read whole.
    assert 390e6 < small < 400e6 and 980e6 < large < 990e6 and 4.3e9 < seven < 4.4e9
    # So the 1.5B decodes about 2.5 times slower than the 0.5B, not 2.3 (file sizes) or 3 (parameters).
    assert 2.4 < large / small < 2.6


def test_a_tied_head_reads_the_whole_table(bundled_model: Path) -> None:
    from models.gguf_reader import read_gguf

    info = read_gguf(bundled_model)  # SmolLM2 ties its head to the embedding
    assert info.output_is_tied and bytes_per_token(info) == info.total_tensor_bytes()


def test_the_probe_decodes_for_real_and_gives_a_bandwidth(bundled_model: Path) -> None:
    probe = measure(("smollm2-135m", bundled_model))
    assert probe.tokens_per_s > 0.5 and probe.source == "measured" and probe.cores
    # By CPU time the decode is at least as fast as by the clock (other programs' turns left out).
    assert probe.quiet_tokens_per_s is not None and probe.quiet_tokens_per_s >= probe.tokens_per_s * 0.99
    assert probe.cpu_share is not None and 0 < probe.cpu_share <= 1
    quiet = probe.quiet_tokens_per_s
    assert probe.bytes_per_s == pytest.approx(quiet * probe.probe_bytes_per_token, rel=0.01)
    # The rates read back through the model's own size give the speed measured.
    assert probe.tokens_per_s_for(probe.probe_bytes_per_token) == pytest.approx(quiet, rel=0.01)


def _fake(gbps: float) -> SpeedProbe:
    return SpeedProbe(gbps * 1e9, 45.0, SMALL, 400_000_000, None, 2.0, "2026-11-28T00:00:00+00:00")


def test_measured_once_then_read_from_the_cache() -> None:
    calls: list[int] = []

    def once() -> SpeedProbe:
        calls.append(1)
        return _fake(18.0)

    first = speed_probe(measure_with=once)
    second = speed_probe(measure_with=once)
    assert len(calls) == 1 and cache_path().is_file()
    assert first.source == "measured" and second.source == "cached"
    assert second.bytes_per_s == first.bytes_per_s
    speed_probe(remeasure=True, measure_with=once)
    assert len(calls) == 2


def test_another_machine_or_thread_count_measures_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def once() -> SpeedProbe:
        calls.append(1)
        return _fake(18.0)

    monkeypatch.setenv("LOCALCREW_THREADS", "1")
    speed_probe(measure_with=once)
    monkeypatch.setenv("LOCALCREW_THREADS", "2")
    speed_probe(measure_with=once)
    assert len(calls) == 2
    monkeypatch.setenv("LOCALCREW_THREADS", "1")  # the test suite's figure did not replace the app's
    assert speed_probe(measure_with=once).source == "cached" and len(calls) == 2


def test_a_busy_machine_is_measured_again_an_hour_later(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    busy = SpeedProbe(4e9, 3.0, SMALL, 400_000_000, None, 20.0, "", cpu_share=0.3, quiet_tokens_per_s=10.0)
    assert busy.busy and busy.to_dict()["busy"] is True
    speed_probe(measure_with=lambda: busy)
    assert speed_probe(measure_with=lambda: _fake(18.0)).source == "cached"
    later = time.time() + 3601
    monkeypatch.setattr(time, "time", lambda: later)
    assert speed_probe(measure_with=lambda: _fake(18.0)).bytes_per_s == 18e9


def test_a_damaged_cache_is_measured_again() -> None:
    cache_path().parent.mkdir(parents=True)
    cache_path().write_text("{not json")
    assert speed_probe(measure_with=lambda: _fake(9.0)).bytes_per_s == 9e9


def test_the_environment_stands_in_for_the_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAKE_ENV, "2.5")

    def never() -> SpeedProbe:
        raise AssertionError("measured despite the environment")

    probe = speed_probe(measure_with=never)
    assert probe.source == "environment" and probe.bytes_per_s == 2.5e9
    monkeypatch.setenv(FAKE_ENV, "fast")
    with pytest.raises(ProbeError, match="GB/s"):
        speed_probe(measure_with=never)


def test_a_probe_that_cannot_run_leaves_the_choice_without_a_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.speed_probe as speed_probe_module
    from models.gguf_reader import GGUFError

    def broken(model: object = None) -> SpeedProbe:
        raise GGUFError("not a GGUF file")

    monkeypatch.setattr(speed_probe_module, "measure", broken)
    assert speed_probe_module.speed_probe_or_none() is None
