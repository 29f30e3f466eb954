"""Load llama.cpp's shared libraries before numpy: imported by models.engine ahead of numpy.

With llama-cpp-python 0.3.36 built for CUDA (launch.sh's build, CUDA 13.0, on an H200 machine,
2026-11-25), loading any model, with GPU layers or without, segfaulted inside libggml-cuda.so,
called from libllama's llama_model::print_info, whenever the process had imported numpy before
llama_cpp. With llama_cpp imported first the same load worked. The CPU build is not affected.
"""

from __future__ import annotations

import contextlib
import sys

# Too late to help when numpy came first; the engine says so before a GPU build loads a model.
NUMPY_CAME_FIRST = "numpy" in sys.modules and "llama_cpp" not in sys.modules

# A missing llama-cpp-python is reported when a model loads.
with contextlib.suppress(ImportError):
    import llama_cpp  # noqa: F401
