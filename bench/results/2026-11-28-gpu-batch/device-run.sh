#!/bin/bash
# One device check (issue 41, item 3): candidates decoded together on a GPU. launch.sh's CUDA build
# of llama-cpp-python; zero-weight 1.5B- and 7B-shaped files (the real ones are over what a call
# carries); bench.engine's batch part with each sequence's sampling chain on the CPU (as before) and
# in the GPU graph (--gpu-sampling), N = 4 and 8; then decode against
# plain llama.cpp. Carries .gpu/ (the slimmed sdist, diskcache's wheel, the 0.5B's vocabulary).
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
CMAKE_ARGS="$args -DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL=16 timeout 330 python3 -m pip install --no-index --no-deps --no-build-isolation --target /tmp/site /tmp/b/llama_cpp_python-0.3.36 > /tmp/build.log 2>&1
log "build rc=$?"; tail -15 /tmp/build.log > $OUT/build-tail.txt
export PYTHONPATH=/tmp/site:/tmp/b/llama_cpp_python-0.3.36/vendor/llama.cpp/gguf-py:$PWD
python3 -c "import llama_cpp; print('gpu offload:', llama_cpp.llama_supports_gpu_offload())" 2>&1 | tail -1 | tee -a $OUT/steps.txt
for shape in 1.5b 7b; do python3 -m bench.zero_gguf --vocab-from .gpu/vocab.gguf --shape qwen2.5-coder-$shape /tmp/zero$shape.gguf 2>&1 | tail -1 | tee -a $OUT/steps.txt; done
bench() {  # name, then bench.engine's arguments; one process each, so a crash loses one figure
  local name=$1; shift
  log "bench $name: $*"
  timeout 75 python3 -m bench.engine "$@" --json > /tmp/$name.txt 2>&1; log "$name rc=$?"
  grep -v -e "^llama_" -e "^load" -e "^print_info" -e "^ggml_" /tmp/$name.txt | tail -8 >> $OUT/bench.txt
  printf '%s\t%s\n' "$name" "$(tail -1 /tmp/$name.txt)" >> $OUT/results.tsv
}
bench batch4-1.5b-gpu --model /tmp/zero1.5b.gguf --parts batch --rounds 2 --gpu-sampling
bench batch4-1.5b-cpu --model /tmp/zero1.5b.gguf --parts batch --rounds 2
bench batch4-7b-gpu --model /tmp/zero7b.gguf --parts batch --rounds 2 --gpu-sampling
bench batch4-7b-cpu --model /tmp/zero7b.gguf --parts batch --rounds 2
bench batch8-1.5b-gpu --model /tmp/zero1.5b.gguf --parts batch --rounds 2 --batch-n 8 --gpu-sampling
bench decode-1.5b --model /tmp/zero1.5b.gguf --parts decode --rounds 2
log done
