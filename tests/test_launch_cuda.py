"""launch.sh's choice of llama.cpp build: CUDA when a GPU answers and a toolkit is found, on the
PATH or under $CUDA_HOME (where CUDA installs nvcc, often off the PATH). Run with stand-in
nvidia-smi and nvcc programs; launch.sh's functions are read out of it, nothing is installed."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = 'source <(sed -n "/^gpu_found()/p; /^nvcc_path()/,/^}/p; /^cuda_cmake_args()/,/^}/p" launch.sh)'


def _program(folder: Path, name: str, code: int = 0) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"#!/bin/sh\nexit {code}\n")
    (folder / name).chmod(0o755)


def _cmake_args(path: Path, cuda_home: Path) -> str:
    # Only the stand-ins and sed on the PATH: a real nvidia-smi or nvcc of this machine stays out.
    tools = path.parent / "tools"
    tools.mkdir(exist_ok=True)
    if not (tools / "sed").exists():
        (tools / "sed").symlink_to(shutil.which("sed") or "/bin/sed")
    env = {**os.environ, "PATH": f"{path}:{tools}", "CUDA_HOME": str(cuda_home)}
    bash = shutil.which("bash") or "/bin/bash"
    done = subprocess.run(
        [bash, "-c", f"{FUNCTIONS}; cuda_cmake_args"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    return done.stdout.strip()


def test_a_gpu_and_nvcc_on_the_path_build_with_cuda(tmp_path: Path) -> None:
    _program(tmp_path / "bin", "nvidia-smi")
    _program(tmp_path / "bin", "nvcc")
    assert (
        _cmake_args(tmp_path / "bin", tmp_path / "none")
        == f"-DGGML_CUDA=on -DCMAKE_CUDA_COMPILER={tmp_path}/bin/nvcc"
    )


def test_nvcc_off_the_path_is_found_under_cuda_home(tmp_path: Path) -> None:
    _program(tmp_path / "bin", "nvidia-smi")
    _program(tmp_path / "cuda" / "bin", "nvcc")
    assert _cmake_args(tmp_path / "bin", tmp_path / "cuda").endswith(f"={tmp_path}/cuda/bin/nvcc")


def test_no_gpu_or_no_toolkit_is_the_cpu_build(tmp_path: Path) -> None:
    _program(tmp_path / "nogpu", "nvcc")
    assert _cmake_args(tmp_path / "nogpu", tmp_path / "none") == ""
    _program(tmp_path / "broken", "nvidia-smi", code=9)  # a driver that does not answer
    _program(tmp_path / "broken", "nvcc")
    assert _cmake_args(tmp_path / "broken", tmp_path / "none") == ""
    _program(tmp_path / "gpu", "nvidia-smi")
    assert _cmake_args(tmp_path / "gpu", tmp_path / "none") == ""
