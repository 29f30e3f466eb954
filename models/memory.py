"""System memory readings, for the planner's "does the CPU part fit" check and the model panel."""

from __future__ import annotations

from pathlib import Path


def _proc_kib_field(path: str, key: str) -> int | None:
    """A "Key:  N kB" line of a /proc file, in bytes (Linux without psutil)."""
    proc = Path(path)
    if not proc.exists():
        return None
    for line in proc.read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    return None


def _psutil() -> object | None:
    try:
        import psutil

        return psutil
    except ImportError:
        return None


def available_ram_bytes() -> int | None:
    """Memory the OS can give us now (MemAvailable), or None where it cannot be read."""
    psutil = _psutil()
    if psutil is not None:
        return int(psutil.virtual_memory().available)  # type: ignore[attr-defined]
    return _proc_kib_field("/proc/meminfo", "MemAvailable")


def total_ram_bytes() -> int | None:
    """Installed system memory, or None where it cannot be read."""
    psutil = _psutil()
    if psutil is not None:
        return int(psutil.virtual_memory().total)  # type: ignore[attr-defined]
    return _proc_kib_field("/proc/meminfo", "MemTotal")


def process_rss_bytes() -> int | None:
    """Resident memory of this process (model weights are mmapped, so they show up here)."""
    psutil = _psutil()
    if psutil is not None:
        return int(psutil.Process().memory_info().rss)  # type: ignore[attr-defined]
    return _proc_kib_field("/proc/self/status", "VmRSS")
