"""llama.cpp's libraries load before numpy in every process that can load a model (models/llama_libs.py:
the CUDA build crashed loading a model when numpy came first)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDER = "import sys; m = list(sys.modules); print(m.index('llama_cpp.llama_cpp') < m.index('numpy'))"


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    "entry", ["models.engine", "app", "bench.humaneval", "bench.crew", "bench.reviewer", "bench.backends"]
)
def test_entry_points_load_llama_cpp_before_numpy(entry: str) -> None:
    assert _python(f"import {entry}; {ORDER}") == "True"


def test_numpy_imported_first_is_noticed() -> None:
    assert _python("import numpy, models.engine as e; print(e.llama_libs.NUMPY_CAME_FIRST)") == "True"
    assert _python("import models.engine as e; print(e.llama_libs.NUMPY_CAME_FIRST)") == "False"
