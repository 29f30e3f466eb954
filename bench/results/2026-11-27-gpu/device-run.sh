#!/bin/bash
# One device check (issues 41 and 43): launch.sh's CUDA build of llama-cpp-python; zero-weight
# 7B- and 1.5B-shaped files; the offload plan, the coder pair planned together and the coder
# launch.sh would fetch at 3 free-VRAM levels; decode against plain llama.cpp and batch4_speedup.
export PYTHONUNBUFFERED=1
log() { echo "[$(date +%T)] $*" | tee -a $OUT/steps.txt; }
log start; nvidia-smi --query-gpu=name,memory.total,memory.free,driver_version --format=csv | tee -a $OUT/steps.txt
nproc | tee -a $OUT/steps.txt; python3 --version | tee -a $OUT/steps.txt
args=$(bash -c 'source <(sed -n "/^gpu_found()/p;/^nvcc_path()/,/^}/p;/^cuda_cmake_args()/,/^}/p" launch.sh); cuda_cmake_args')
log "launch.sh cuda_cmake_args: '$args'"
[ -z "$args" ] && args="-DGGML_CUDA=on -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc" && log "fallback args: $args"
python3 -m pip install -q --no-index --no-deps --target /tmp/site .gpu/diskcache*.whl
mkdir -p /tmp/b && tar xJf .gpu/llama_cpp_python-0.3.36-slim.tar.xz -C /tmp/b
log "build begins ($args)"
CMAKE_ARGS="$args -DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL=16 timeout 330 python3 -m pip install --no-index --no-deps --no-build-isolation --target /tmp/site /tmp/b/llama_cpp_python-0.3.36 > $OUT/build.log 2>&1
log "build rc=$?"
export PYTHONPATH=/tmp/site:/tmp/b/llama_cpp_python-0.3.36/vendor/llama.cpp/gguf-py:$PWD
python3 -c "import llama_cpp; print('gpu offload:', llama_cpp.llama_supports_gpu_offload())" 2>&1 | tail -1 | tee -a $OUT/steps.txt
for shape in 7b 1.5b; do python3 -m bench.zero_gguf --vocab-from .gpu/vocab.gguf --shape qwen2.5-coder-$shape /tmp/zero$shape.gguf 2>&1 | tail -1 | tee -a $OUT/steps.txt; done
log "offload, pair and fetch choice"
timeout 170 python3 -m bench.gpu_offload --model /tmp/zero7b.gguf --reviewer /tmp/zero1.5b.gguf --free-gib 0 8 3 --json > $OUT/offload.txt 2>&1; log "offload rc=$?"
log "engine 1.5B-shaped: decode vs plain llama.cpp, batch4"
timeout 120 python3 -m bench.engine --model /tmp/zero1.5b.gguf --parts decode,batch --rounds 2 --json > $OUT/engine-1.5b.txt 2>&1; log "engine rc=$?"
log "engine 7B-shaped: batch4"
timeout 90 python3 -m bench.engine --model /tmp/zero7b.gguf --parts batch --rounds 2 --json > $OUT/engine-7b.txt 2>&1; log "engine rc=$?"
log done
