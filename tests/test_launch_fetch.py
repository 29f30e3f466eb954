"""launch.sh asks app.py pick-model to fetch the coder for the GPU only where a GPU answers, and
--no-fetch turns the fetch into a message. launch.sh's functions are read out of it and run with a
stand-in nvidia-smi and a stand-in python that records what it was asked; nothing is installed."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = 'source <(sed -n "/^say()/p; /^gpu_found()/p; /^fetch_gpu_coder()/,/^}/p" launch.sh)'


def _run(tmp_path: Path, *, gpu: bool, no_fetch: bool, python_code: int = 0) -> tuple[str, str]:
    bin_dir, venv = tmp_path / "bin", tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    bin_dir.mkdir()
    for tool in ("sed", "cat"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/bin/{tool}")
    if gpu:
        (bin_dir / "nvidia-smi").write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / "nvidia-smi").chmod(0o755)
    called = tmp_path / "called"
    (venv / "bin" / "python").write_text(f'#!/bin/sh\necho "$@" >> {called}\nexit {python_code}\n')
    (venv / "bin" / "python").chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir), "VENV": str(venv), "NO_FETCH": "1" if no_fetch else "0"}
    env.pop("LOCALCREW_SKIP_CODER", None)
    bash = shutil.which("bash") or "/bin/bash"
    done = subprocess.run(
        [bash, "-c", f"{FUNCTIONS}; fetch_gpu_coder"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr  # a failed fetch never stops the launch
    return (called.read_text() if called.exists() else ""), done.stderr


def test_a_gpu_fetches_the_coder_that_fits(tmp_path: Path) -> None:
    assert _run(tmp_path, gpu=True, no_fetch=False)[0] == "app.py pick-model --fetch\n"


def test_no_fetch_only_says_which(tmp_path: Path) -> None:
    assert _run(tmp_path, gpu=True, no_fetch=True)[0] == "app.py pick-model --no-fetch\n"


def test_no_gpu_asks_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path, gpu=False, no_fetch=False) == ("", "")


def test_a_failed_fetch_says_how_to_fetch_later_and_the_launch_goes_on(tmp_path: Path) -> None:
    called, said = _run(tmp_path, gpu=True, no_fetch=False, python_code=1)
    assert called == "app.py pick-model --fetch\n"
    assert "not fetched" in said and "python app.py pick-model --fetch" in said
