"""The AMX guard: llama.cpp's weight repacking is off exactly where the CPU reports AMX."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from models.llama_cpu_guard import cpu_flags, repack_allowed

REPO = Path(__file__).resolve().parents[1]


def test_cpu_flags_reads_the_flags_line(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 amx_tile amx_int8\nbugs\t\t: spectre\n")
    assert cpu_flags(info) == {"fpu", "avx2", "amx_tile", "amx_int8"}
    assert cpu_flags(tmp_path / "missing") == set()


@pytest.mark.parametrize(
    ("flags", "env", "allowed"),
    [
        ({"avx2"}, None, True),
        ({"avx2", "amx_tile"}, None, False),
        ({"avx2", "amx_tile"}, "1", True),
        ({"avx2"}, "0", False),
        ({"avx2", "amx_tile"}, "yes", False),  # only 0 and 1 override
    ],
)
def test_repack_allowed(flags: set[str], env: str | None, allowed: bool) -> None:
    assert repack_allowed(flags, env) is allowed


@pytest.mark.parametrize("env", ["0", "1"])
def test_guard_sets_llama_cpp_default_params(env: str) -> None:
    code = (
        "from models.llama_cpu_guard import guard_llama; import llama_cpp.llama_cpp as lib; "
        "print(guard_llama(), lib.llama_model_default_params().use_extra_bufts)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO,
        env={**os.environ, "LOCALCREW_CPU_REPACK": env},
    )  # fmt: skip
    assert out.stdout.split() == ([str(env == "1")] * 2), out.stderr
