"""The NVML probe: the real library on this GPU-less machine, and a fake NVML for the GPU path."""

from models.vram_probe import probe_gpus
from tests.fake_nvml import FakeNVML


def test_real_nvml_without_driver_is_the_cpu_path() -> None:
    state = probe_gpus()  # the real nvidia-ml-py: no driver on this machine
    assert state.state == "no_driver"
    assert not state.has_gpu
    assert "CPU" in state.message


def test_devices_read_and_nvml_shut_down() -> None:
    fake = FakeNVML([("RTX 4060", 8 * 2**30, 7 * 2**30), ("RTX 3090", 24 * 2**30, 20 * 2**30)])
    state = probe_gpus(fake)
    assert state.state == "ok" and state.driver_version == "999.99"
    assert [d.name for d in state.devices] == ["RTX 4060", "RTX 3090"]
    assert state.devices[0].pci_bus_id == "00000000:01:00.0"
    assert state.best_device().name == "RTX 3090"
    assert fake.shutdowns == 1


def test_memory_v1_fallback() -> None:
    state = probe_gpus(FakeNVML([("old", 4 * 2**30, 3 * 2**30)], v2_supported=False))
    assert state.devices[0].free_bytes == 3 * 2**30


def test_init_failure_is_not_an_error() -> None:
    state = probe_gpus(FakeNVML(init_error=RuntimeError("NVML Shared Library Not Found")))
    assert state.state == "no_driver" and state.devices == []


def test_driver_without_devices() -> None:
    assert probe_gpus(FakeNVML([])).state == "no_gpu"
