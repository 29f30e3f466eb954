"""The one atomic write and the one file lock."""

from pathlib import Path

import pytest

from tools.atomic_files import FileLock, atomic_write


@pytest.mark.parametrize("durable", [True, False])
def test_atomic_write_replaces_whole_and_leaves_no_temp(tmp_path: Path, durable: bool) -> None:
    target = tmp_path / "settings.json"
    target.write_text("old", encoding="utf-8")
    atomic_write(target, "new ✓", durable=durable)
    assert target.read_text(encoding="utf-8") == "new ✓"
    atomic_write(target, b"\x00bytes", durable=durable)
    assert target.read_bytes() == b"\x00bytes"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "chat.json"
    target.write_text("kept", encoding="utf-8")
    with pytest.raises(TypeError):
        atomic_write(target, 42)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "kept"
    assert [p.name for p in tmp_path.iterdir()] == ["chat.json"]


def test_the_lock_is_exclusive_between_holders(tmp_path: Path) -> None:
    lock_path = tmp_path / "lock"
    first, second = FileLock(lock_path), FileLock(lock_path)
    assert first.acquire()
    try:
        assert second.acquire(blocking=False) is False  # flock: a second open file is refused
    finally:
        first.release()
    with second:
        assert FileLock(lock_path).acquire(blocking=False) is False
    assert first.acquire(blocking=False)
    first.release()
    first.release()  # releasing twice is harmless
