"""Measure free and total VRAM per NVIDIA GPU through NVML (`nvidia-ml-py`, imported as pynvml).

No driver or no library is the CPU path: it is reported as state "no_driver", never raised.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class GpuDevice:
    index: int
    name: str
    pci_bus_id: str
    total_bytes: int
    free_bytes: int
    used_bytes: int


@dataclass
class GpuState:
    state: str  # "ok" | "no_gpu" | "no_driver" | "error"
    message: str
    driver_version: str | None = None
    devices: list[GpuDevice] = field(default_factory=list)

    @property
    def has_gpu(self) -> bool:
        return self.state == "ok" and bool(self.devices)

    def best_device(self) -> GpuDevice | None:
        """The device with the most free memory: llama.cpp's main GPU for a single-GPU plan."""
        return max(self.devices, key=lambda d: d.free_bytes, default=None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "message": self.message,
            "driver_version": self.driver_version,
            "devices": [asdict(d) for d in self.devices],
        }


def _load_nvml() -> ModuleType | None:
    try:
        import pynvml
    except ImportError:
        return None
    return pynvml


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _memory_info(nvml: ModuleType, handle: Any) -> Any:
    # v2 separates reserved memory from free; older drivers only answer v1.
    v2 = getattr(nvml, "nvmlMemory_v2", None)
    if v2 is not None:
        try:
            return nvml.nvmlDeviceGetMemoryInfo(handle, version=v2)
        except Exception:  # noqa: BLE001 - NVMLError_NotSupported / FunctionNotFound vary by driver
            pass
    return nvml.nvmlDeviceGetMemoryInfo(handle)


def probe_gpus(nvml: ModuleType | None = None) -> GpuState:
    """Read every GPU's memory now. `nvml` may be injected (tests have no GPU)."""
    nvml = nvml if nvml is not None else _load_nvml()
    if nvml is None:
        return GpuState("no_driver", "nvidia-ml-py is not installed: running on the CPU")
    try:
        nvml.nvmlInit()
    except Exception as exc:  # noqa: BLE001 - LibraryNotFound / DriverNotLoaded mean "no GPU here"
        return GpuState("no_driver", f"No NVIDIA driver found ({_text(exc)}): running on the CPU")
    try:
        driver = _text(nvml.nvmlSystemGetDriverVersion())
        devices = []
        for index in range(nvml.nvmlDeviceGetCount()):
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
            memory = _memory_info(nvml, handle)
            pci = nvml.nvmlDeviceGetPciInfo(handle)
            devices.append(
                GpuDevice(
                    index=index,
                    name=_text(nvml.nvmlDeviceGetName(handle)),
                    pci_bus_id=_text(getattr(pci, "busId", "")),
                    total_bytes=int(memory.total),
                    free_bytes=int(memory.free),
                    used_bytes=int(memory.used),
                )
            )
    except Exception as exc:  # noqa: BLE001 - a driver error must not take the app down
        return GpuState("error", f"NVML failed while reading the GPUs: {_text(exc)}")
    finally:
        with contextlib.suppress(Exception):  # shutting down a half-initialised NVML
            nvml.nvmlShutdown()
    if not devices:
        return GpuState("no_gpu", "The NVIDIA driver reports no GPU: running on the CPU", driver)
    return GpuState("ok", f"{len(devices)} NVIDIA GPU(s) found", driver, devices)
