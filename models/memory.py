"""System memory readings, for the planner's "does the CPU part fit" check and the model panel."""

from __future__ import annotations

from pathlib import Path


def available_ram_bytes() -> int | None:
    """Memory the OS can give us now (MemAvailable), or None where it cannot be read."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except ImportError:
        pass
    meminfo = Path("/proc/meminfo")
    if not meminfo.exists():
        return None
    for line in meminfo.read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None


def total_ram_bytes() -> int | None:
    """Installed system memory, or None where it cannot be read."""
    try:
        import psutil

        return int(psutil.virtual_memory().total)
    except ImportError:
        pass
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return None


def process_rss_bytes() -> int | None:
    """Resident memory of this process (model weights are mmapped, so they show up here)."""
    try:
        import psutil

        return int(psutil.Process().memory_info().rss)
    except ImportError:
        status = Path("/proc/self/status")
        if status.exists():
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    return None
