"""Query embeddings through ONNX Runtime: same vectors and hits as PyTorch, and every fallback."""

import numpy as np
import pytest

from tools.code_index import CodeIndex, onnx_query
from tools.code_index import embedder as embedder_mod

from .test_code_index_index import make_workspace


def test_onnx_and_onnxruntime_are_installed() -> None:
    # requirements.txt pins both; without them search silently runs on the slower PyTorch path.
    assert onnx_query.onnx_available()


QUERIES = [
    "test if a number is prime",
    "x",
    "parse TOML configuration file",
    "getHTTPResponse_code of the cached_user",
    "数据库连接池 settings 🚀 for the database",
    " ".join(["render the nested widget layout"] * 80),  # truncated to the model's length
]


@pytest.fixture
def fresh_state(monkeypatch):
    """No ONNX encoder tried yet in this process (restored afterwards)."""
    monkeypatch.setattr(embedder_mod, "_FAST", {})
    monkeypatch.setattr(embedder_mod, "_FAST_THREADS", {})


def torch_only(embedder, monkeypatch):
    monkeypatch.setitem(embedder_mod._FAST, embedder._key, None)


def test_onnx_query_vectors_match_pytorch(embedder):
    assert embedder.query_backend(wait=True) == "onnx"
    for q in QUERIES:
        fast = embedder.encode_query(q)
        slow = embedder.encode([q])[0]
        assert fast.dtype == np.float32 and fast.shape == (384,)
        assert float(np.abs(fast - slow).max()) < 1e-5
        assert abs(float(np.linalg.norm(fast)) - 1.0) < 1e-5


def test_search_gives_the_same_hits_with_either_query_path(tmp_path, embedder, monkeypatch):
    index = CodeIndex(make_workspace(tmp_path / "ws"), embedder=embedder)
    index.update()
    assert embedder.query_backend(wait=True) == "onnx"

    def run():
        return [
            [(h.path, h.start_line, h.end_line, h.symbol, round(h.score, 4)) for h in hits]
            for hits in (
                index.search(q, k=5, mode=mode, path_glob=glob)
                for q in QUERIES[:5]
                for mode in ("hybrid", "vector")
                for glob in (None, "app/**", "*.md")
            )
        ]

    fast = run()
    torch_only(embedder, monkeypatch)
    assert embedder.query_backend() == "torch"
    assert run() == fast
    assert fast[0][0][3] == "is_prime"
    # the glob filter still applies on both sides of a hybrid search
    only_md = index.search("settings", k=5, path_glob="*.md")
    assert only_md and {h.path for h in only_md} <= {"README.md", "docs/grüße.md"}


def test_disabled_onnx_uses_pytorch(embedder, fresh_state, monkeypatch):
    monkeypatch.setenv(onnx_query.ENV_QUERY_ONNX, "0")
    assert embedder.query_backend(wait=True) == "torch"
    assert not embedder_mod._FAST_THREADS  # nothing was started
    vec = embedder.encode_query("parse the config file")
    assert float(np.abs(vec - embedder.encode(["parse the config file"])[0]).max()) == 0.0


def test_without_onnx_packages_queries_use_pytorch(embedder, fresh_state, monkeypatch):
    monkeypatch.setattr(onnx_query, "onnx_available", lambda: False)
    assert embedder.query_backend(wait=True) == "torch"
    assert embedder.encode_query("x").shape == (384,)


def test_first_query_does_not_wait_for_the_export(embedder, fresh_state, monkeypatch):
    import threading

    release = threading.Event()
    calls = []

    def slow_build(model, model_id, reference):
        calls.append(model_id)
        release.wait(30)
        return None

    monkeypatch.setattr(onnx_query, "onnx_available", lambda: True)
    monkeypatch.setattr(onnx_query, "build", slow_build)
    vec = embedder.encode_query("fetch a web page")  # embedded by PyTorch meanwhile
    assert vec.shape == (384,) and embedder.query_backend() == "torch"
    embedder.encode_query("another query")
    release.set()
    assert embedder.query_backend(wait=True) == "torch"
    assert calls == [embedder.model_id]  # prepared once, not per query


def test_a_failing_onnx_run_falls_back_to_pytorch(embedder, monkeypatch):
    assert embedder.query_backend(wait=True) == "onnx"

    class Flaky:
        def __init__(self, real, fail):
            self.real, self.fail, self.failures = real, fail, 0

        def encode(self, texts):
            if self.fail:
                self.fail -= 1
                raise RuntimeError("onnxruntime fell over")
            return self.real.encode(texts)

    real = embedder_mod._FAST[embedder._key]
    want = embedder.encode(["parse the config file"])[0]
    # a one-off failure: this query by PyTorch, the next ones by ONNX again
    monkeypatch.setitem(embedder_mod._FAST, embedder._key, Flaky(real, 1))
    assert float(np.abs(embedder.encode_query("parse the config file") - want).max()) == 0.0
    assert embedder.query_backend() == "onnx"
    assert float(np.abs(embedder.encode_query("parse the config file") - want).max()) < 1e-5
    # failing again and again: PyTorch takes over for good
    monkeypatch.setitem(embedder_mod._FAST, embedder._key, Flaky(real, 100))
    for _ in range(embedder_mod.MAX_ONNX_FAILURES):
        assert float(np.abs(embedder.encode_query("parse the config file") - want).max()) == 0.0
    assert embedder.query_backend() == "torch"


def test_broken_cached_model_is_exported_again(embedder, tmp_path, monkeypatch):
    from tools.code_index.location import ENV_CACHE

    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))
    path = onnx_query.onnx_path_for(embedder.model_id)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a model")
    encoder = onnx_query.build(embedder.model, embedder.model_id, embedder.encode)
    assert encoder is not None and path.stat().st_size > 1_000_000
    assert not list(path.parent.glob("*.tmp"))
    vec = encoder.encode(["parse the config file"])[0]
    assert float(np.abs(vec - embedder.encode(["parse the config file"])[0]).max()) < 1e-5

    # a model whose vectors differ from PyTorch's is not used, cached or exported again
    def no_export(model, target):
        raise RuntimeError("no second export in this test")

    def wrong(texts):
        return np.zeros((len(texts), 384), np.float32)

    monkeypatch.setattr(onnx_query, "export", no_export)
    assert onnx_query.build(embedder.model, embedder.model_id, wrong) is None
    assert path.is_file()
