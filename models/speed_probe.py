"""How fast this machine decodes, measured once: the figure that decides which coder is the default.

A short real decode of the smallest model already here (the 0.5B coder, else the bundled 135M),
through the app's own engine and thread count, gives this CPU's rate in weight bytes per second.
Another model's speed is that rate over the bytes one of its tokens reads (every weight but the
embedding table, of which a token reads one row), taken from its catalog shape before it is
downloaded. Measured here (2 cores, busy): the 0.5B 14.1 tokens per CPU-second, the 1.5B 6.0,
against 5.7 estimated (its bytes are 2.48 times the 0.5B's; its weights 3.1 times, which would
have said 4.5).

The decode is timed by the CPU time it got as well as by the clock: on cores other programs are
using, the clock counts their turns too. A probe that got under 80 % of its threads' time says so
(`busy`) and is measured again an hour later; a busy machine also slows what CPU time cannot see
(caches, memory), so such a figure is low. The figure is kept in the cache folder
(speed_probe.json, keyed by CPU, core count, llama.cpp version and thread count), so the launch,
`doctor` and the Model tab measure once; `python app.py doctor --reprobe` measures again.
$LOCALCREW_DECODE_GBPS stands in for the measurement (GB/s of weights read while decoding).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from models.catalog import BUNDLED_ID, CatalogEntry, bundled_model_path, catalog_entry
from models.gguf_reader import GGUFError, GGUFInfo

FAKE_ENV = "LOCALCREW_DECODE_GBPS"
CACHE_NAME = "speed_probe.json"
# Smallest first: the probe decodes with the first one installed (quick to load, always there).
PROBE_MODELS = ("qwen2.5-coder-0.5b-q4_k_m", BUNDLED_ID)
PROBE_TOKENS = 32
BUSY_SHARE = 0.8  # under this share of its threads' time on a CPU, the probe ran on a busy machine
REMEASURE_BUSY_AFTER_S = 3600.0
PROBE_PROMPT = "Count from 1 to 200, one number per line, and nothing else."


@dataclass(frozen=True)
class SpeedProbe:
    """One measurement: a real decode's speed, and the weight bandwidth it implies with the cores to
    itself (the decode's CPU time, not its wall time, so other programs running then do not count)."""

    bytes_per_s: float  # weights read per second of decoding with the cores to itself
    tokens_per_s: float  # what the probe model decoded, by the wall clock, as the machine was then
    probe_model: str
    probe_bytes_per_token: int
    threads: int | None  # the app's llama.cpp thread count (None: llama.cpp's default)
    seconds: float  # the probe's own cost: load and decode
    measured_at: str
    source: str = "measured"  # "measured" now, "cached" from an earlier run, or "environment"
    quiet_tokens_per_s: float | None = None  # tokens_per_s with the cores to itself
    cpu_share: float | None = None  # CPU time over wall time while decoding, per thread
    load: float | None = None  # the 1-minute load average when the probe began
    cores: int | None = None

    @property
    def busy(self) -> bool:
        """Measured while other programs held the cores: the CPU-time figure is kept, but it is
        measured again later (a busy machine also slows what the CPU time cannot see)."""
        return self.cpu_share is not None and self.cpu_share < BUSY_SHARE

    def tokens_per_s_for(self, bytes_per_token: int) -> float:
        """Another model's speed here, from the weight bytes one of its tokens reads."""
        return self.bytes_per_s / max(bytes_per_token, 1)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"busy": self.busy}


class ProbeError(RuntimeError):
    """No model to decode with, or the decode failed; the message says which."""


def bytes_per_token(info: GGUFInfo) -> int:
    """Weight bytes one decoded token reads: all of them but the embedding table, of which a token
    reads one row (unless the head is that same table, which it reads whole)."""
    embedding = next((t.n_bytes for t in info.tensors if t.name == "token_embd.weight"), 0)
    return info.total_tensor_bytes() - (0 if info.output_is_tied else embedding)


def entry_info(entry: CatalogEntry, path: Path | None = None) -> GGUFInfo:
    """The catalog's shape when it has one (the same figure before and after download), else the file."""
    from models.gguf_reader import read_gguf
    from models.model_shapes import shape_info

    if entry.shape is not None:
        return shape_info(entry)
    if path is None:
        raise GGUFError(f"{entry.id} has no shape in the catalog and is not installed")
    return read_gguf(path)


def cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "localcrew" / CACHE_NAME


def _llama_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        return "none"


def machine_key() -> dict[str, Any]:
    """What a measurement holds for: another CPU, core count, build or thread count measures anew."""
    from models.chat_engine import EngineSettings

    return {
        "cpu": _cpu_name(),
        "cores": os.cpu_count(),
        "llama_cpp": _llama_version(),
        "threads": EngineSettings().n_threads,
    }


def _cpu_name() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _installed_probe_model() -> tuple[str, Path]:
    from models.model_cache import cached_model_path

    for model_id in PROBE_MODELS:
        entry = catalog_entry(model_id)
        path = None
        if entry is not None:
            path = bundled_model_path() if entry.repo is None else cached_model_path(entry)
        if path is not None:
            return model_id, path
    raise ProbeError("no model to measure with: neither the 0.5B coder nor the bundled 135M is installed")


def measure(model: tuple[str, Path] | None = None) -> SpeedProbe:
    """Load the smallest installed model, decode PROBE_TOKENS tokens, and time the decode by the
    wall clock and by the CPU time it got."""
    from models.chat_engine import EngineError, EngineSettings

    started = time.monotonic()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    model_id, path = model or _installed_probe_model()
    entry = catalog_entry(model_id)
    settings = EngineSettings(n_ctx=512, n_gpu_layers=0)  # the CPU's speed, whatever GPU is here
    try:
        tokens, wall, cpu = _timed_decode(path, settings)
    except EngineError as exc:
        raise ProbeError(f"the probe's decode of {path.name} failed: {exc}") from exc
    if tokens <= 0 or wall <= 0:
        raise ProbeError(f"the probe's decode of {path.name} gave no timing")
    threads = settings.n_threads or max((os.cpu_count() or 2) // 2, 1)  # llama-cpp-python's default
    share = min(1.0, cpu / wall / threads) if cpu > 0 else 1.0
    quiet = tokens / wall / share
    info = entry_info(entry, path) if entry else _read(path)
    per_token = bytes_per_token(info)
    return SpeedProbe(
        bytes_per_s=quiet * per_token,
        tokens_per_s=round(tokens / wall, 2),
        probe_model=model_id,
        probe_bytes_per_token=per_token,
        threads=settings.n_threads,
        seconds=round(time.monotonic() - started, 2),
        measured_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        quiet_tokens_per_s=round(quiet, 2),
        cpu_share=round(share, 3),
        load=None if load is None else round(load, 2),
        cores=os.cpu_count(),
    )


def _timed_decode(path: Path, settings: Any) -> tuple[int, float, float]:
    """Tokens decoded after the first, and the wall and CPU seconds they took."""
    from models.chat_engine import GenerationSettings
    from models.engine import Engine

    engine = Engine(path, settings)
    try:
        engine.load()
        messages = [{"role": "user", "content": PROBE_PROMPT}]
        engine.chat(messages, GenerationSettings(max_tokens=2, temperature=0))  # the prompt, cached
        stream = engine.stream_chat(
            messages, GenerationSettings(max_tokens=PROBE_TOKENS, temperature=0, repeat_penalty=1.0)
        )
        pieces = iter(stream)
        next(pieces, None)  # the first token comes after the prompt: not decode time
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in pieces:
            pass
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        done = stream.stats.completion_tokens - 1 if stream.stats else 0
    finally:
        engine.close()
    return done, wall, cpu


def _read(path: Path) -> GGUFInfo:
    from models.gguf_reader import read_gguf

    return read_gguf(path)


def _from_environment(value: str) -> SpeedProbe:
    try:
        gbps = float(value)
    except ValueError as exc:
        raise ProbeError(f"${FAKE_ENV} must be a number of GB/s, not {value!r}") from exc
    return SpeedProbe(gbps * 1e9, 0.0, f"${FAKE_ENV}", 0, None, 0.0, "", source="environment")


def _saved() -> dict[str, Any]:
    """The cache file's measurements, one per machine key (tests and the app use other keys)."""
    try:
        saved = json.loads(cache_path().read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def _key_text(key: dict[str, Any]) -> str:
    return json.dumps(key, sort_keys=True)


def _load_cached(key: dict[str, Any]) -> SpeedProbe | None:
    entry = _saved().get(_key_text(key))
    try:
        fields = {k: v for k, v in entry["probe"].items() if k != "busy"}
        probe = SpeedProbe(**(fields | {"source": "cached"}))
        saved_at = float(entry["saved_at"])
    except (KeyError, TypeError, ValueError):
        return None
    if probe.busy and time.time() - saved_at > REMEASURE_BUSY_AFTER_S:
        return None  # measured on a busy machine: once an hour, try again
    return probe


def _save(key: dict[str, Any], probe: SpeedProbe) -> None:
    path = cache_path()
    saved = _saved() | {_key_text(key): {"probe": probe.to_dict(), "saved_at": time.time()}}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(saved, indent=1))
        os.replace(temporary, path)  # two processes probing at once each leave a whole file
    except OSError:
        pass  # an unwritable cache only means measuring again next time


def speed_probe(
    *, remeasure: bool = False, measure_with: Callable[[], SpeedProbe] | None = None
) -> SpeedProbe:
    """This machine's decode figure: $LOCALCREW_DECODE_GBPS, else the cached measurement for this
    machine, else a new one (cached). Raises ProbeError when it cannot be measured."""
    fake = os.environ.get(FAKE_ENV, "").strip()
    if fake:
        return _from_environment(fake)
    key = machine_key()
    if not remeasure and (cached := _load_cached(key)) is not None:
        return cached
    probe = (measure_with or measure)()
    _save(key, probe)
    return probe


def speed_probe_or_none(*, remeasure: bool = False) -> SpeedProbe | None:
    """speed_probe, or None where it cannot be measured (no llama.cpp, no model to decode with)."""
    try:
        return speed_probe(remeasure=remeasure)
    except (ProbeError, ImportError, OSError, ValueError):  # GGUFError is a ValueError
        return None
