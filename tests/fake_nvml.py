"""A thin stand-in for the `pynvml` module: there is no GPU on the test machines.

It answers only the calls models.vram_probe makes, with the figures a test sets.
"""

from __future__ import annotations

from types import SimpleNamespace


class FakeNVML:
    nvmlMemory_v2 = 0x02000028

    def __init__(
        self,
        devices: list[tuple[str, int, int]] | None = None,
        *,
        init_error: Exception | None = None,
        v2_supported: bool = True,
    ) -> None:
        self.devices = devices or []  # (name, total, free)
        self.init_error = init_error
        self.v2_supported = v2_supported
        self.shutdowns = 0

    def nvmlInit(self) -> None:
        if self.init_error:
            raise self.init_error

    def nvmlShutdown(self) -> None:
        self.shutdowns += 1

    def nvmlSystemGetDriverVersion(self) -> bytes:
        return b"999.99"

    def nvmlDeviceGetCount(self) -> int:
        return len(self.devices)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> int:
        return index

    def nvmlDeviceGetName(self, handle: int) -> str:
        return self.devices[handle][0]

    def nvmlDeviceGetPciInfo(self, handle: int) -> SimpleNamespace:
        return SimpleNamespace(busId=f"00000000:0{handle + 1}:00.0".encode())

    def nvmlDeviceGetMemoryInfo(self, handle: int, version: int | None = None) -> SimpleNamespace:
        if version is not None and not self.v2_supported:
            raise RuntimeError("NVMLError_FunctionNotFound")
        _, total, free = self.devices[handle]
        return SimpleNamespace(total=total, free=free, used=total - free)


def gpu_state(free: int, total: int = 8 * 2**30, name: str = "Test GPU"):
    from models.vram_probe import probe_gpus

    return probe_gpus(FakeNVML([(name, total, free)]))
