"""Keep llama.cpp off its AMX weight repacking, which crashes decoding on CPUs that report AMX.

llama.cpp (as built by llama-cpp-python 0.3.36) repacks weights into "extra buffer types" for the
CPU's fastest kernels. On a Xeon that reports AMX (amx_tile in /proc/cpuinfo) the first decode
then dies with SIGSEGV, for every model tried (SmolLM2 Q4_1, Qwen2.5-Coder Q4_K_M); with the extra
buffer types off the same build decodes normally. llama-cpp-python's Llama has no argument for it,
so the default model parameters it starts from are changed in place, once per process, before any
model loads. Desktop and gaming CPUs have no AMX and keep the repacking.
LOCALCREW_CPU_REPACK=1 keeps it anyway (a machine where AMX works); =0 turns it off everywhere.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

ENV = "LOCALCREW_CPU_REPACK"


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:  # not Linux: no flags to go by
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set()


def repack_allowed(flags: set[str], env: str | None) -> bool:
    """Whether llama.cpp may repack weights into its extra CPU buffer types."""
    if env in ("0", "1"):
        return env == "1"
    return "amx_tile" not in flags


@lru_cache(maxsize=1)
def guard_llama() -> bool:
    """Apply the rule to llama_cpp in this process; returns whether repacking stays on."""
    allowed = repack_allowed(cpu_flags(), os.environ.get(ENV))
    if allowed:
        return True
    import llama_cpp.llama_cpp as lib  # deferred: llama_cpp is heavy

    default_params = lib.llama_model_default_params

    def without_repack():  # noqa: ANN202 - returns llama_cpp's ctypes struct
        params = default_params()
        params.use_extra_bufts = False
        return params

    lib.llama_model_default_params = without_repack
    return False


def main(argv: list[str]) -> None:
    """`python -m models.llama_cpu_guard llama_cpp.server ARGS`: run that module with the guard on
    (the benchmarks' and tests' llama_cpp.server runs in a process of its own)."""
    import runpy
    import sys

    guard_llama()
    sys.argv = argv
    runpy.run_module(argv[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
