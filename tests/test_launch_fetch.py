"""launch.sh asks app.py pick-model for the coder for this machine on every app launch (the GPU's
free VRAM, or the CPU's measured decode speed decides), never for `./launch.sh test`, never over a
model the user named; --no-fetch turns the fetch into a message. launch.sh's functions are read out
of it and run with a stand-in python that records what it was asked; nothing is installed."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = 'source <(sed -n "/^say()/p; /^NO_FETCH=0/,/^done/p; /^fetch_best_coder()/,/^}/p" launch.sh)'


def _run(tmp_path: Path, *args: str, python_code: int = 0, skip: bool = False) -> tuple[str, str]:
    bin_dir, venv = tmp_path / "bin", tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    bin_dir.mkdir()
    for tool in ("sed", "cat"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/bin/{tool}")
    called = tmp_path / "called"
    (venv / "bin" / "python").write_text(f'#!/bin/sh\necho "$@" >> {called}\nexit {python_code}\n')
    (venv / "bin" / "python").chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir), "VENV": str(venv)}
    env.pop("LOCALCREW_SKIP_CODER", None)
    if skip:
        env["LOCALCREW_SKIP_CODER"] = "1"
    bash = shutil.which("bash") or "/bin/bash"
    done = subprocess.run(
        [bash, "-c", f"set -u; {FUNCTIONS}; fetch_best_coder", "launch.sh", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr  # a failed fetch never stops the launch
    return (called.read_text() if called.exists() else ""), done.stderr


def test_every_app_launch_asks_for_the_coder_for_this_machine_gpu_or_not(tmp_path: Path) -> None:
    # No nvidia-smi on this PATH: the CPU's measured speed decides, in pick-model.
    assert _run(tmp_path)[0] == "app.py pick-model --fetch --keep-choice\n"


def test_no_fetch_only_says_which(tmp_path: Path) -> None:
    assert _run(tmp_path, "--no-fetch")[0] == "app.py pick-model --no-fetch --keep-choice\n"


def test_a_model_the_user_names_wins_and_nothing_is_fetched(tmp_path: Path) -> None:
    for n, args in enumerate(
        (("--model", "my.gguf"), ("--model=x",), ("--backend", "openai"), ("--backend=openai",))
    ):
        assert _run(tmp_path / str(n), *args) == ("", ""), args


def test_skipping_the_coder_skips_the_fetch(tmp_path: Path) -> None:
    assert _run(tmp_path, skip=True) == ("", "")


def test_a_failed_fetch_says_how_to_fetch_later_and_the_launch_goes_on(tmp_path: Path) -> None:
    called, said = _run(tmp_path, python_code=1)
    assert called == "app.py pick-model --fetch --keep-choice\n"
    assert "not fetched" in said and "python app.py pick-model --fetch" in said


def test_the_test_run_fetches_only_the_coder_the_tests_need() -> None:
    # `./launch.sh test` ends in exec pytest before the app's fetch: CI never downloads the 1.5B.
    script = (ROOT / "launch.sh").read_text()
    test_run, fetch = (
        script.index('exec "$VENV/bin/python" -m pytest "$@"'),
        script.index("\nfetch_best_coder\n"),
    )
    assert script.index("\ninstall_coder_model\n") < test_run < fetch
    assert "CODER_MODEL=qwen2.5-coder-0.5b-q4_k_m" in script
