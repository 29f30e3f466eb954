#!/bin/bash
# One device check: launch.sh's CUDA detection, the CUDA build of llama-cpp-python, the offload plan.
export PYTHONUNBUFFERED=1
log() { echo "[$(date +%T)] $*" | tee -a $OUT/steps.txt; }
log start; nvidia-smi --query-gpu=name,memory.total,memory.free,driver_version --format=csv | tee -a $OUT/steps.txt
log "nvcc on PATH: $(command -v nvcc || echo none)"; nproc | tee -a $OUT/steps.txt
args=$(bash -c 'source <(sed -n "/^cuda_cmake_args()/,/^}/p" launch.sh); cuda_cmake_args')
log "launch.sh cuda_cmake_args: '$args'"
[ -z "$args" ] && export PATH=$PATH:/usr/local/cuda/bin && args="-DGGML_CUDA=on" && log "nvcc added by hand: $(command -v nvcc)"
nvcc --version | tail -2 | tee -a $OUT/steps.txt
python3 -m pip install -q --no-index --no-deps --target /tmp/site .gpu/diskcache*.whl
mkdir -p /tmp/b && tar xzf .gpu/llama_cpp_python-0.3.36-slim.tar.gz -C /tmp/b
log "build begins ($args)"
CMAKE_ARGS="$args -DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL=16 timeout 420 python3 -m pip install --no-index --no-deps --no-build-isolation --target /tmp/site /tmp/b/llama_cpp_python-0.3.36 > $OUT/build.log 2>&1
log "build rc=$?"
export PYTHONPATH=/tmp/site:/tmp/b/llama_cpp_python-0.3.36/vendor/llama.cpp/gguf-py:$PWD
python3 -c "import llama_cpp; print('gpu offload:', llama_cpp.llama_supports_gpu_offload())" 2>&1 | tee -a $OUT/steps.txt
python3 -m bench.zero_gguf --vocab-from .gpu/vocab.gguf --shape qwen2.5-coder-7b /tmp/zero7.gguf 2>&1 | tail -2 | tee -a $OUT/steps.txt
log "offload check"
timeout 150 python3 -m bench.gpu_offload --model /tmp/zero7.gguf --free-gib 0 5 3 --json 2>&1 | tee $OUT/offload.txt
for first in "import numpy, models.engine" "import models.engine, numpy"; do python3 -c "$first
from models.engine import Engine, EngineSettings
r = Engine('/tmp/zero7.gguf', EngineSettings(n_ctx=4096)).load(print); print('loaded', r.n_gpu_layers)" > /tmp/o 2>&1; log "[$first] rc=$? $(tail -c 300 /tmp/o)"; done
log done
