"""CodeIndex on small real workspaces with the real embedding model (loaded once per module)."""

import hashlib
import os
import shutil

import numpy as np
import pytest

from tools.code_index import CodeIndex, IndexProgress
from tools.code_index.location import ENV_CACHE
from tools.code_index.manifest import Manifest

FILES = {
    "app/math_utils.py": '''"""Small number helpers."""
import math


def is_prime(n):
    """Check whether n is a prime number."""
    if n < 2:
        return False
    for d in range(2, int(math.sqrt(n)) + 1):
        if n % d == 0:
            return False
    return True


def fibonacci(n):
    """Return the n-th Fibonacci number."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
''',
    "app/config.py": '''"""Configuration loading."""
import tomllib
from pathlib import Path


class Settings:
    """Application settings read from a TOML file."""

    def __init__(self, data):
        self.data = data

    @classmethod
    def load(cls, path):
        """Parse the TOML configuration file at path."""
        return cls(tomllib.loads(Path(path).read_text()))

    def get(self, key, default=None):
        return self.data.get(key, default)
''',
    "app/http_client.py": '''import time
import urllib.request


def fetch_url(url, retries=3):
    """Download a web page over HTTP, retrying with exponential backoff."""
    for attempt in range(retries):
        try:
            return urllib.request.urlopen(url).read()
        except OSError:
            time.sleep(2 ** attempt)
    raise RuntimeError("download failed")
''',
    "README.md": "# Demo\n\nA demo project with number helpers, settings and an HTTP client.\n",
    "docs/grüße.md": "# Grüße\n\n数据库连接池的配置说明。Connection pool settings 🚀 for the database.\n",
    ".gitignore": "secret/\n*.log\n",
    "secret/keys.py": "ZEBRACORN_TOKEN = 'zebracorn'\n",
    "debug.log": "zebracorn happened\n",
}


def make_workspace(root, files=FILES):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return root


@pytest.fixture
def workspace(tmp_path):
    return make_workspace(tmp_path / "ws")


def table_rows(index):
    tbl = index.store.table()
    return tbl.search().select(["id", "path", "start_line", "end_line"]).limit(None).to_arrow()


def assert_no_duplicates(index):
    rows = table_rows(index)
    ids = rows["id"].to_pylist()
    assert len(ids) == len(set(ids))
    spans = list(
        zip(
            rows["path"].to_pylist(),
            rows["start_line"].to_pylist(),
            rows["end_line"].to_pylist(),
            strict=True,
        )
    )
    assert len(spans) == len(set(spans))
    return rows


def indexed_paths(index):
    return set(table_rows(index)["path"].to_pylist())


def test_index_and_search_a_small_workspace(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder)
    report = index.update()
    assert report.files_scanned == 6  # 5 sources + .gitignore; secret/, *.log, png left out
    assert report.files_embedded == 6 and report.chunks_embedded == report.chunks_total > 8
    assert report.skipped == {"ignored": 2, "binary": 1}
    assert report.index_dir == str(workspace / ".localcrew" / "index") and report.note is None
    assert "zebracorn" not in str(indexed_paths(index)) and "secret/keys.py" not in indexed_paths(index)

    hits = index.search("test if a number is prime", k=3)
    top = hits[0]
    assert (top.path, top.symbol, top.language) == ("app/math_utils.py", "is_prime", "python")
    assert (top.start_line, top.end_line) == (5, 12)
    assert top.snippet.startswith("def is_prime(n):") and top.score > 0
    assert top.vector_score is not None and top.fts_score is not None
    assert set(top.to_dict()) >= {
        "path",
        "start_line",
        "end_line",
        "symbol",
        "language",
        "score",
        "snippet",
    }
    for mode in ("vector", "fts"):
        assert index.search("prime number", k=2, mode=mode)[0].symbol == "is_prime"
    # a method is found with its class
    assert index.search("parse TOML configuration file", k=1)[0].symbol == "Settings.load"
    # ignored files stay out of every side of the search
    for mode in ("hybrid", "vector", "fts"):
        assert all(
            h.path not in ("secret/keys.py", "debug.log") for h in index.search("zebracorn", mode=mode)
        )
    # path filter
    only_md = index.search("settings", k=5, path_glob="*.md")
    assert only_md and {h.path for h in only_md} <= {"README.md", "docs/grüße.md"}
    assert index.search("settings", path_glob="nothing/**") == []
    with pytest.raises(ValueError):
        index.search("x", mode="fuzzy")
    assert index.search("   ") == []


def test_unicode_content_and_paths(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder)
    index.update()
    hits = index.search("数据库连接池", k=2)
    assert hits[0].path == "docs/grüße.md" and "🚀" in hits[0].snippet


def test_second_update_without_changes_does_nothing(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder)
    first = index.update()
    again = index.update()
    assert again.files_unchanged == again.files_scanned == first.files_scanned
    assert (again.files_embedded, again.chunks_embedded, again.files_deleted) == (0, 0, 0)
    assert again.chunks_total == first.chunks_total
    assert again.seconds < 1.0
    # touching a file (same content) only re-stamps it
    os.utime(workspace / "app" / "config.py", ns=(1, 1))
    touched = index.update()
    assert touched.files_embedded == 0 and touched.chunks_embedded == 0


def test_index_follows_edit_delete_and_rename(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder)
    first = index.update()

    # edit: one function changes, the others keep their vectors
    path = workspace / "app" / "math_utils.py"
    text = path.read_text().replace(
        '    """Return the n-th Fibonacci number."""',
        '    """Return the n-th Fibonacci number, computed iteratively."""\n    assert n >= 0',
    )
    path.write_text(
        text + '\n\ndef gcd(a, b):\n    """Greatest common divisor."""\n'
        "    while b:\n        a, b = b, a % b\n    return a\n"
    )
    edited = index.update()
    assert edited.files_embedded == 1
    assert edited.chunks_embedded == 2  # fibonacci (changed) and gcd (new)
    assert edited.chunks_reused >= 2  # module header and is_prime
    gcd = index.search("greatest common divisor of two integers", k=1)[0]
    assert (gcd.path, gcd.symbol) == ("app/math_utils.py", "gcd")
    assert gcd.start_line == text.count("\n") + 3
    fib = index.search("fibonacci", k=1, mode="fts")[0]
    assert "assert n >= 0" in fib.snippet

    # delete
    (workspace / "app" / "http_client.py").unlink()
    deleted = index.update()
    assert deleted.files_deleted == 1 and deleted.files_embedded == 0
    assert "app/http_client.py" not in indexed_paths(index)
    assert all(h.path != "app/http_client.py" for h in index.search("download a web page"))

    # rename: no embedding, rows move to the new path
    (workspace / "app" / "config.py").rename(workspace / "app" / "settings.py")
    renamed = index.update()
    assert (renamed.files_renamed, renamed.files_deleted, renamed.chunks_embedded) == (1, 1, 0)
    assert renamed.chunks_reused > 0
    paths = indexed_paths(index)
    assert "app/settings.py" in paths and "app/config.py" not in paths
    assert index.search("parse TOML configuration file", k=1)[0].path == "app/settings.py"

    # a newly ignored file leaves the index
    (workspace / ".gitignore").write_text("secret/\n*.log\n*.md\n")
    ignored = index.update()
    assert ignored.files_deleted == 2
    assert not any(p.endswith(".md") for p in indexed_paths(index))

    rows = assert_no_duplicates(index)
    assert rows.num_rows == ignored.chunks_total
    assert first.chunks_total != ignored.chunks_total


class Interrupt(Exception):
    pass


def test_interrupted_run_resumes_without_duplicates(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder, batch_chunks=2)
    events = []

    def stop_after_first_commit(p: IndexProgress):
        events.append(p)
        if p.chunks_done > 0:
            raise Interrupt

    with pytest.raises(Interrupt):
        index.update(on_progress=stop_after_first_commit)
    committed = index.store.count_rows()
    assert committed > 0
    manifest = Manifest.load(index._manifest_path, index.table_name)
    assert not manifest.clean  # the next run knows it was interrupted

    resumed = CodeIndex(workspace, embedder=embedder, batch_chunks=2).update()
    assert resumed.resumed
    assert resumed.chunks_embedded == resumed.chunks_total - committed  # nothing twice
    assert_no_duplicates(index)
    fresh = CodeIndex(workspace, index_dir=workspace.parent / "fresh", embedder=embedder).update()
    assert resumed.chunks_total == fresh.chunks_total


def test_crash_between_commit_and_manifest_is_reconciled_from_the_table(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder, batch_chunks=3)

    def crash(p: IndexProgress):
        if p.chunks_done > 0:
            raise Interrupt

    with pytest.raises(Interrupt):
        index.update(on_progress=crash)
    committed = index.store.count_rows()
    index._manifest_path.unlink()  # the manifest is lost: only the table knows
    report = CodeIndex(workspace, embedder=embedder).update()
    assert report.resumed
    assert report.chunks_embedded == report.chunks_total - committed
    assert_no_duplicates(index)


def test_file_deleted_while_indexing(workspace, embedder):
    index = CodeIndex(workspace, embedder=embedder, batch_chunks=1)
    victim = workspace / "docs" / "grüße.md"

    def delete_later_file(p: IndexProgress):
        if victim.exists():
            victim.unlink()

    report = index.update(on_progress=delete_later_file)
    assert report.skipped.get("vanished") == 1
    assert "docs/grüße.md" not in indexed_paths(index)
    assert index.update().files_embedded == 0


def test_progress_events(workspace, embedder):
    events = []
    CodeIndex(workspace, embedder=embedder, batch_chunks=4).update(on_progress=events.append)
    assert events[0].files_done == 0 and events[0].files_total == 6
    assert events[-1].phase == "done" and events[-1].files_done == 6
    done = [e.files_done for e in events]
    assert done == sorted(done)
    assert any(0 < e.files_done < 6 for e in events)


def test_empty_workspace(tmp_path, embedder):
    index = CodeIndex(tmp_path, embedder=embedder)
    report = index.update()
    assert (report.files_scanned, report.chunks_total) == (0, 0)
    assert index.search("anything") == []
    assert index.update().chunks_total == 0


def test_workspace_of_binary_and_undecodable_files(tmp_path, embedder):
    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n")
    (tmp_path / "blob.dat2").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "latin.txt").write_bytes(bytes(range(0x80, 0x100)) * 8)
    index = CodeIndex(tmp_path, embedder=embedder)
    report = index.update()
    assert report.skipped == {"binary": 2, "undecodable": 1}
    assert report.chunks_total == 0 and index.search("anything") == []
    again = index.update()  # the verdicts are remembered, nothing is re-read
    assert again.files_unchanged == 2 and again.skipped == {"binary": 2, "undecodable": 1}
    # a file that becomes text is indexed
    (tmp_path / "blob.dat2").write_text("def now_text():\n    return 'hello'\n")
    assert index.update().files_embedded == 1
    assert index.search("now_text", mode="fts")[0].path == "blob.dat2"


def test_symlink_loop_in_workspace(workspace, embedder):
    os.symlink(workspace, workspace / "app" / "loop")
    os.symlink(workspace / "nowhere", workspace / "dangling.py")
    report = CodeIndex(workspace, embedder=embedder).update()
    assert report.skipped["symlink"] == 2 and report.files_scanned == 6


def test_read_only_workspace_indexes_elsewhere(workspace, embedder, tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))
    # Running as root ignores permission bits, so block the folder with a file instead.
    (workspace / ".localcrew").write_text("not a folder")
    index = CodeIndex(workspace, embedder=embedder)
    report = index.update()
    assert report.note and "not writable" in report.note
    assert report.index_dir.startswith(str(tmp_path / "cache"))
    assert index.search("prime number", k=1)[0].symbol == "is_prime"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permission bits")
def test_read_only_permissions(workspace, embedder, tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))
    os.chmod(workspace, 0o555)
    try:
        report = CodeIndex(workspace, embedder=embedder).update()
    finally:
        os.chmod(workspace, 0o755)
    assert report.note and report.chunks_total > 0


class StubEmbedder:
    """Another 'model': 16-dim vectors from a hash, to show tables never mix models."""

    model_path = "stub"
    model_id = "stub_model"
    max_tokens = 256

    def count_tokens(self, lines):
        return [len(line) // 3 + 1 for line in lines]

    def encode(self, texts, batch_size=None):
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=4).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(16).astype(np.float32)
            out.append(v / np.linalg.norm(v))
        return np.stack(out) if out else np.zeros((0, 16), np.float32)

    def encode_query(self, text):
        return self.encode([text])[0]


def test_changing_the_model_reindexes_into_another_table(workspace, embedder):
    real = CodeIndex(workspace, embedder=embedder)
    real_report = real.update()
    stub = CodeIndex(workspace, embedder=StubEmbedder())
    assert stub.table_name != real.table_name and "stub_model" in stub.table_name
    stub_report = stub.update()
    assert stub_report.chunks_embedded == stub_report.chunks_total == real_report.chunks_total
    assert stub.store.table().schema.field("vector").type.list_size == 16
    assert real.store.table().schema.field("vector").type.list_size == 384
    # back to the first model: its table is still there and current
    again = CodeIndex(workspace, embedder=embedder).update()
    assert again.chunks_embedded == 0
    assert stub.search("prime", k=1, mode="fts")[0].symbol == "is_prime"


def test_vector_index_is_exact(workspace, embedder, monkeypatch):
    from tools.code_index import index_store

    monkeypatch.setattr(index_store, "VECTOR_INDEX_MIN_ROWS", 5)
    index = CodeIndex(workspace, embedder=embedder)
    index.update()
    tbl = index.store.table()
    assert {tuple(i.columns) for i in tbl.list_indices()} == {("vector",), ("fts_text",)}
    query = embedder.encode_query("number helpers")
    with_index = [c.id for c in index.store.vector_candidates(query, 8, None)]
    scan = (
        (tbl.search(query).distance_type("dot").bypass_vector_index().select(["id"]).limit(8))
        .to_arrow()["id"]
        .to_pylist()
    )
    assert with_index == scan
    # rows written after the index was built are found too
    (workspace / "app" / "late.py").write_text("def late_arrival():\n    return 'number helpers'\n")
    index.update()
    assert any(h.path == "app/late.py" for h in index.search("late arrival", mode="vector"))


def test_optimize_runs_in_the_background(workspace, embedder, monkeypatch):
    from tools.code_index import index_store

    monkeypatch.setattr(index_store, "OPTIMIZE_EVERY_WRITES", 2)
    index = CodeIndex(workspace, embedder=embedder)
    index.update()  # first full index: optimizes in the foreground if due
    reports = []
    for i in range(3):
        (workspace / "app" / f"extra_{i}.py").write_text(f"def extra_{i}():\n    return {i}\n")
        reports.append(index.update())
        index.wait_for_background()
    assert any(r.optimize_pending for r in reports)
    assert not any(r.optimized for r in reports)
    manifest = Manifest.load(index._manifest_path, index.table_name)
    assert manifest.clean and manifest.writes_since_optimize < 2
    assert all(i.num_unindexed_rows == 0 for i in index.store.table().list_indices())
    assert index.search("extra_2", mode="fts")[0].path == "app/extra_2.py"


def test_vector_index_partitions_follow_the_table_size(workspace, embedder, monkeypatch):
    from tools.code_index import index_store

    monkeypatch.setattr(index_store, "VECTOR_INDEX_MIN_ROWS", 5)
    monkeypatch.setattr(index_store, "EXACT_MAX_ROWS", 10)
    monkeypatch.setattr(index_store, "ROWS_PER_PARTITION", 4)
    index = CodeIndex(workspace, embedder=embedder)
    rows = index.update().chunks_total
    assert index.store.vector_partitions() == rows // 4 >= 2
    assert index.search("test if a number is prime", k=3, mode="vector")  # probes a quarter
    for i in range(3 * rows):  # the table more than doubles: the index is rebuilt
        (workspace / "more" / f"m{i}.py").parent.mkdir(exist_ok=True)
        (workspace / "more" / f"m{i}.py").write_text(f"def more_{i}():\n    return {i}\n")
    total = index.update().chunks_total
    assert index.store.vector_partitions() == total // 4
    names = [i.name for i in index.store.table().list_indices() if i.columns == ["vector"]]
    assert names == [f"vector_p{total // 4}"]


def test_async_and_sync_query_paths_agree(workspace, embedder, monkeypatch):
    """Queries go through LanceDB's async table; the public sync API (the fallback) agrees."""
    from tools.code_index import index_store
    from tools.code_index.hybrid_search import fts_query_text

    monkeypatch.setattr(index_store, "VECTOR_INDEX_MIN_ROWS", 5)
    monkeypatch.setattr(index_store, "EXACT_MAX_ROWS", 10)
    monkeypatch.setattr(index_store, "ROWS_PER_PARTITION", 4)
    index = CodeIndex(workspace, embedder=embedder)
    index.update()
    store = index.store
    assert store.vector_partitions() >= 2  # the nprobes path is taken
    assert index_store._async_parts(store.table()) is not None  # lancedb internals still there

    queries = ["test if a number is prime", "parse TOML configuration file", "download a web page"]
    wheres = [None, "path LIKE 'app/%'", "path LIKE 'nothing/%'"]

    def run():
        out = []
        for q in queries:
            vec = embedder.encode_query(q)
            for where in wheres:
                for cands in (
                    store.submit_vector(vec, 6, where).result(),
                    store.submit_fts(fts_query_text(q), 6, where).result(),
                ):
                    out.append([(c.id, c.path, c.start_line, c.symbol, c.text) for c in cands])
                    out.append([round(c.vector_score or c.fts_score or 0.0, 5) for c in cands])
            out.append([h.to_dict() for h in index.search(q, k=4, path_glob="app/*.py")])
        return out

    fast = run()
    assert any(fast) and all(h["path"].startswith("app/") for h in fast[-1])
    monkeypatch.setattr(index_store, "_async_parts", lambda tbl: None)
    assert run() == fast
    assert store.submit_fts("   ", 5, None).result() == []


def test_hybrid_search_survives_a_failing_full_text_side(workspace, embedder, monkeypatch):
    index = CodeIndex(workspace, embedder=embedder)
    index.update()
    from concurrent.futures import Future

    def broken(text, n, where):
        fut = Future()
        fut.set_exception(RuntimeError("no full-text index"))
        return fut

    monkeypatch.setattr(index.store, "submit_fts", broken)
    hits = index.search("test if a number is prime", k=3)
    assert hits and hits[0].symbol == "is_prime" and hits[0].fts_score is None
    with pytest.raises(RuntimeError):
        index.search("prime", mode="fts")


def test_an_index_folder_deleted_under_the_app_is_built_again(workspace, embedder):
    # `git clean -fdx` in the project while the IDE ran: every retrieval then failed on the lock.
    index = CodeIndex(workspace, embedder=embedder)
    first = index.update()
    shutil.rmtree(workspace / ".localcrew")
    again = index.update()
    assert again.files_embedded == first.files_embedded and again.chunks_total == first.chunks_total
    assert index.search("retry the download", k=3)
    assert_no_duplicates(index)
