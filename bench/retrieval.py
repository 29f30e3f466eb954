"""Retrieval benchmark: indexing speed, query latency, re-index time and search quality.

    python -m bench.retrieval [--json] [--chunks 100000] [--files 1000] [--library rich]
                              [--only latency] [--workdir DIR]

``--only latency`` builds (or reuses) the generated index and measures only query latency and
the vector index's agreement; ``--only quality`` measures only the real library (its index
ratio and recall@5). ``--workdir DIR`` keeps the generated tree and its index in DIR
(``DIR/gen``, ``DIR/gen_index``) instead of a temporary folder: a later run with the same
``--chunks``/``--files`` rewrites the tree (same seed, so edits of an earlier run are undone)
and only updates the index, so repeated latency runs skip the ~8-minute indexing
(``index_full_s`` then times that update, not a fresh index).

Corpora:
  (a) generated: ``--files`` Python files (default 1,000) of two-line functions (~20 tokens),
      ``--chunks`` chunks in all (default 100,000: 100 functions a file, one chunk each), names
      drawn from a fixed vocabulary with a fixed seed;
  (b) real: the installed source of ``--library`` (default ``rich``), copied to a temporary
      folder so the index is written there.

Figures, and how each is computed:
  index_ratio        CodeIndex.update() throughput on a fresh index (chunks / wall seconds of
                     the whole update: scan, read, chunk, tokenize, embed, write, full-text index,
                     optimize) divided by plain ``SentenceTransformer.encode(texts, batch_size=64)``
                     throughput on exactly the texts the index embeds, in the same process.
                     Measured on the real library (plain first, then index) and on the first
                     ``--sample-files`` generated files (index first, then plain), so background
                     load hits both sides alike; the ratio pools both: sum of plain seconds /
                     sum of index seconds. Per-corpus ratios are printed too.
  p50_ms, p95_ms     hybrid ``CodeIndex.search(q, k=8)`` wall time over ``--queries`` distinct
                     queries (4 or 7 words) on the full generated index, after 10 warm-up
                     queries that are not among them; includes embedding the query (nothing
                     caches query vectors). Vector-only and full-text-only figures beside it.
  query_encoder      how queries were embedded: "onnx" (ONNX Runtime, the normal case) or
                     "torch" (the fallback); the bench waits for the ONNX encoder first.
  vector_index_recall_at_10  top-10 agreement of the vector index with an exact scan at the
                     full generated index (50 of the latency queries).
  reindex_one_file_s median wall time of ``update()`` after editing one file of the indexed
                     generated tree (one function changed, one added), over ``--edits`` edits of
                     different files; the max is printed too (it includes the periodic optimize).
  recall_at_5_*      share of queries whose answer is among the top 5 hits (a hit counts when it
                     is in the answer's file and its lines include the answer's ``def`` line).
                     Queries: functions and methods of the real library with a docstring whose
                     first line is a whole sentence (ends with a period) of at least 4 words and
                     is unique in the library, every n-th of
                     them (sorted by path and line) up to ``--quality-queries`` (default 60). The
                     query is that first line reworded by fixed rules (synonyms for common verbs
                     and nouns, the function's own name removed), see ``reword``.
The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import offline  # noqa: F401, I001
from tools.code_index import CodeIndex, Embedder
from tools.code_index.chunking import Chunker
from tools.code_index.scan import read_text_file, scan_workspace


def _words(text: str) -> list[str]:
    return text.split()


VERBS = _words(
    "load save parse render fetch update compute merge split encode decode validate format "
    "resolve register refresh build sort filter index search scan publish notify schedule "
    "compress extract convert normalize measure cache lock retry"
)
NOUNS = _words(
    "user profile order invoice payment token session config report table column row widget "
    "layout theme message queue channel buffer stream packet header cookie cache record "
    "account address product basket coupon ticket account metric event log file path"
)
ADJECTIVES = _words(
    "cached remote local pending active stale nested empty default secure temporary shared "
    "compressed partial sorted unique"
)


# -- (a) generated corpus ----------------------------------------------------------------------
def generated_function(rng: random.Random, i: int) -> str:
    """A two-line function, ~20 tokens: short chunks keep 100,000 of them to minutes."""
    verb, noun, other = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(NOUNS)
    adj = rng.choice(ADJECTIVES)
    return f"def {verb}_{adj}_{noun}_{i}({other}):\n    return {other}.{verb}({noun})\n"


def write_generated_corpus(root: Path, files: int, chunks: int, seed: int = 7) -> int:
    """``files`` modules under ``pkgNN/`` holding ``chunks`` functions in all."""
    rng = random.Random(seed)
    per_file, extra = divmod(chunks, files)
    n = 0
    for f in range(files):
        count = per_file + (1 if f < extra else 0)
        funcs = [generated_function(rng, n + j) for j in range(count)]
        n += count
        path = root / f"pkg{f // 100:02d}" / f"mod_{f:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n\n".join(funcs), encoding="utf-8")
    return n


def generated_queries(count: int, seed: int = 11) -> list[str]:
    """``count`` distinct queries of 4 or 7 words (verb, adjective, nouns)."""
    rng = random.Random(seed)
    out: dict[str, None] = {}
    while len(out) < count:
        words = [rng.choice(VERBS), "the", rng.choice(ADJECTIVES), rng.choice(NOUNS)]
        if rng.random() < 0.5:
            words += ["of", "a", rng.choice(NOUNS)]
        out.setdefault(" ".join(words), None)
    return list(out)


# -- (b) real library --------------------------------------------------------------------------
def copy_library(name: str, dest: Path) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"library {name!r} is not installed as a package")
    src = Path(next(iter(spec.submodule_search_locations)))
    target = dest / name
    shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


SYNONYMS = {
    "get": "fetch",
    "gets": "fetches",
    "return": "give back",
    "returns": "gives back",
    "create": "build",
    "creates": "builds",
    "check": "test",
    "checks": "tests",
    "set": "assign",
    "sets": "assigns",
    "render": "draw",
    "renders": "draws",
    "convert": "turn",
    "converts": "turns",
    "add": "append",
    "adds": "appends",
    "remove": "drop",
    "removes": "drops",
    "update": "refresh",
    "updates": "refreshes",
    "make": "produce",
    "print": "output",
    "prints": "outputs",
    "read": "load",
    "write": "emit",
    "writes": "emits",
    "string": "text",
    "strings": "texts",
    "str": "text",
    "object": "instance",
    "objects": "instances",
    "number": "count",
    "list": "sequence",
    "width": "size",
    "console": "terminal",
    "style": "formatting",
    "styles": "formattings",
    "line": "row",
    "lines": "rows",
    "character": "char",
    "characters": "chars",
    "specified": "given",
    "whether": "if",
    "containing": "holding",
    "new": "fresh",
    "generate": "produce",
    "generates": "produces",
    "calculate": "compute",
    "calculates": "computes",
    "display": "show",
    "displays": "shows",
    "text": "string",
    "segments": "pieces",
    "segment": "piece",
    "renderable": "drawable",
    "renderables": "drawables",
}


def reword(first_line: str, name: str) -> str:
    """A query from a docstring's first line: lower case, synonyms, the function's name out."""
    name_parts = {p.lower() for p in re.split(r"[_\W]+", name) if len(p) > 2}
    words = []
    for word in re.findall(r"[A-Za-z0-9']+", first_line):
        low = word.lower()
        if low in name_parts:
            continue
        words.append(SYNONYMS.get(low, low))
    return " ".join(words)


def quality_queries(root: Path, limit: int) -> list[dict]:
    """(query, path, symbol, def line) for functions of the library with a usable docstring."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue

        def visit(body, prefix, rel=rel):
            for node in body:
                if isinstance(node, ast.ClassDef):
                    visit(node.body, f"{prefix}{node.name}.")
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node)
                    if doc and not node.name.startswith("__"):
                        first = doc.strip().splitlines()[0].strip()
                        if (
                            len(first.split()) >= 4
                            and first.endswith(".")  # a whole sentence, not a fragment
                            and not first.lower().startswith("deprecated")
                        ):
                            found.append(
                                {
                                    "path": rel,
                                    "symbol": prefix + node.name,
                                    "line": node.lineno,
                                    "doc": first,
                                }
                            )

        visit(tree.body, "")
    counts: dict[str, int] = {}
    for f in found:
        counts[f["doc"]] = counts.get(f["doc"], 0) + 1
    unique = [f for f in found if counts[f["doc"]] == 1]
    step = max(1, len(unique) // limit)
    chosen = unique[::step][:limit]
    for f in chosen:
        f["query"] = reword(f["doc"], f["symbol"].rsplit(".", 1)[-1])
    return chosen


def recall_at_5(index: CodeIndex, queries: list[dict], mode: str) -> float:
    hits_found = 0
    for q in queries:
        hits = index.search(q["query"], k=5, mode=mode)
        if any(h.path == q["path"] and h.start_line <= q["line"] <= h.end_line for h in hits):
            hits_found += 1
    return hits_found / len(queries) if queries else 0.0


# -- measurements ------------------------------------------------------------------------------
def embedded_texts(root: Path, embedder: Embedder) -> list[str]:
    """The texts CodeIndex will embed for ``root`` (same scan, chunker and token limit)."""
    chunker = Chunker(max_tokens=embedder.max_tokens, count_tokens=embedder.count_tokens)
    texts: list[str] = []
    for f in scan_workspace(root).files:
        content = read_text_file(root / f.path)
        if content.text is not None:
            texts.extend(c.embed_text for c in chunker.chunk(f.path, content.text))
    return list(dict.fromkeys(texts))  # the index embeds each distinct text once


def time_plain(embedder: Embedder, texts: list[str]) -> float:
    t0 = time.perf_counter()
    embedder.model.encode(texts, batch_size=64, show_progress_bar=False)
    return time.perf_counter() - t0


def time_index(root: Path, index_dir: Path, embedder: Embedder) -> tuple[CodeIndex, float, int]:
    index = CodeIndex(root, index_dir=index_dir, embedder=embedder)
    t0 = time.perf_counter()
    report = index.update()
    return index, time.perf_counter() - t0, report.chunks_total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    pos = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[pos]


def latency_ms(index: CodeIndex, queries: list[str], mode: str) -> list[float]:
    """Wall ms of each search; warm-up queries are others than the measured ones."""
    measured = set(queries)
    warm_up = [q for q in generated_queries(10 + len(queries), seed=12345) if q not in measured][:10]
    for q in warm_up:
        index.search(q, k=8, mode=mode)
    out = []
    for q in queries:
        t0 = time.perf_counter()
        index.search(q, k=8, mode=mode)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def ann_agreement(index: CodeIndex, queries: list[str]) -> float:
    """Share of the exact top-10 (full scan) that the vector index returns in its top 10."""
    tbl = index.store.table()
    shares = []
    for q in queries:
        vec = index.embedder.encode_query(q)
        got = {c.id for c in index.store.vector_candidates(vec, 10, None)}
        exact = (
            (tbl.search(vec).distance_type("dot").bypass_vector_index().select(["id"]).limit(10))
            .to_arrow()["id"]
            .to_pylist()
        )
        shares.append(len(got & set(exact)) / max(1, len(exact)))
    return sum(shares) / len(shares) if shares else 1.0


def edit_one_file(root: Path, files: int, i: int) -> None:
    path = root / f"pkg{(i * 37 % files) // 100:02d}" / f"mod_{i * 37 % files:04d}.py"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    return ", f"    value = {i}\n    return ", 1)
    text += f'\n\ndef added_function_{i}(x):\n    """Added by edit {i}."""\n    return x\n'
    path.write_text(text, encoding="utf-8")


def log(msg: str) -> None:
    print(msg, file=sys.stderr if ARGS.json else sys.stdout, flush=True)


def main(argv: list[str] | None = None) -> int:
    global ARGS
    p = argparse.ArgumentParser(prog="python -m bench.retrieval")
    p.add_argument("--json", action="store_true", help="progress to stderr, JSON on stdout")
    p.add_argument("--chunks", type=int, default=100_000)
    p.add_argument("--files", type=int, default=1_000)
    p.add_argument("--sample-files", type=int, default=100, help="generated files for the ratio")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--edits", type=int, default=25)
    p.add_argument("--library", default="rich")
    p.add_argument("--quality-queries", type=int, default=60)
    p.add_argument("--only", choices=("all", "latency", "quality"), default="all")
    p.add_argument("--workdir", type=Path, help="keep (and reuse) the generated tree and index here")
    ARGS = p.parse_args(argv)
    embedder = Embedder()
    embedder.encode(["warm up the model"] * 64)
    results: dict = {}
    # Queries go through ONNX Runtime once it is ready (exported once per machine, then
    # cached): wait for it, so no measurement runs beside the export or on the fallback.
    results["query_encoder"] = embedder.query_backend(wait=True)
    log(f"query encoder: {results['query_encoder']}")
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp_name:
        tmp = Path(tmp_name)
        gen_dir = ARGS.workdir.resolve() if ARGS.workdir else tmp
        if ARGS.only in ("all", "quality"):
            lib_seconds = library_part(tmp, embedder, results)
        if ARGS.only == "all":
            generated_part(tmp, gen_dir, embedder, results, lib_seconds)
        if ARGS.only == "latency":
            big = generated_index(gen_dir, embedder, results)
            measure_latency(big, results)
    print(json.dumps(results), flush=True)
    return 0


def generated_index(gen_dir: Path, embedder: Embedder, results: dict, write: bool = True) -> CodeIndex:
    """The generated tree under ``gen_dir/gen`` (written unless ``write`` is false), indexed
    (or updated) in ``gen_dir/gen_index``."""
    gen_root = gen_dir / "gen"
    if write:
        write_generated_corpus(gen_root, ARGS.files, ARGS.chunks)
    log(f"[generated] indexing {ARGS.chunks} chunks in {ARGS.files} files ...")
    big, big_s, big_chunks = time_index(gen_root, gen_dir / "gen_index", embedder)
    big.wait_for_background()
    results["chunks"] = big_chunks
    results["index_chunks_per_s_full"] = round(big_chunks / big_s, 1)
    results["index_full_s"] = round(big_s, 1)
    log(f"[generated] {big_chunks} chunks indexed in {big_s:.0f} s ({big_chunks / big_s:.1f}/s)")
    return big


def measure_latency(big: CodeIndex, results: dict) -> None:
    qs = generated_queries(ARGS.queries)
    hybrid = latency_ms(big, qs, "hybrid")
    vector = latency_ms(big, qs, "vector")
    fts = latency_ms(big, qs, "fts")
    results["p50_ms"] = round(statistics.median(hybrid), 2)
    results["p95_ms"] = round(percentile(hybrid, 0.95), 2)
    results["p50_ms_vector"] = round(statistics.median(vector), 2)
    results["p95_ms_vector"] = round(percentile(vector, 0.95), 2)
    results["p50_ms_fts"] = round(statistics.median(fts), 2)
    results["p95_ms_fts"] = round(percentile(fts, 0.95), 2)
    results["latency_queries"] = len(qs)
    results["vector_index_partitions"] = big.store.vector_partitions()
    results["vector_index_recall_at_10"] = round(ann_agreement(big, qs[:50]), 3)
    log(
        f"[generated] hybrid query p50 {results['p50_ms']} ms, p95 {results['p95_ms']} ms "
        f"(vector p95 {results['p95_ms_vector']}, full-text p95 {results['p95_ms_fts']}); "
        f"vector index: {results['vector_index_partitions']} partitions, top-10 agreement "
        f"with an exact scan {results['vector_index_recall_at_10']}"
    )


def library_part(tmp: Path, embedder: Embedder, results: dict) -> tuple[float, float]:
    """(b) the real library: index ratio and recall; returns (plain, index) seconds."""
    # (b) real library: throughput ratio (plain first), then quality on that index
    lib_root = copy_library(ARGS.library, tmp / "lib")
    texts = embedded_texts(lib_root, embedder)
    plain_lib = time_plain(embedder, texts)
    lib_index, index_lib, lib_chunks = time_index(lib_root, tmp / "lib_index", embedder)
    log(
        f"[{ARGS.library}] {lib_chunks} chunks ({len(texts)} distinct): plain encode "
        f"{len(texts) / plain_lib:.1f}/s, index {lib_chunks / index_lib:.1f} chunks/s, "
        f"ratio {plain_lib / index_lib:.3f}"
    )
    queries = quality_queries(lib_root, ARGS.quality_queries)
    for mode in ("hybrid", "vector", "fts"):
        results[f"recall_at_5_{mode}"] = round(recall_at_5(lib_index, queries, mode), 3)
    results["quality_queries"] = len(queries)
    log(
        f"[{ARGS.library}] recall@5 over {len(queries)} queries: hybrid "
        f"{results['recall_at_5_hybrid']}, vector {results['recall_at_5_vector']}, "
        f"fts {results['recall_at_5_fts']}"
    )
    for q in queries[:3]:
        log(f"    e.g. {q['query']!r} -> {q['path']}::{q['symbol']}")
    results["index_ratio_real"] = round(plain_lib / index_lib, 3)
    results["plain_chunks_per_s_real"] = round(len(texts) / plain_lib, 1)
    return plain_lib, index_lib


def generated_part(
    tmp: Path, gen_dir: Path, embedder: Embedder, results: dict, lib_seconds: tuple[float, float]
) -> None:
    """(a) the generated corpus: index ratio on a sample, then the full tree's latency and
    re-index time."""
    plain_lib, index_lib = lib_seconds
    # (a) generated corpus: ratio on a sample (index first), then the full tree
    gen_root = gen_dir / "gen"
    write_generated_corpus(gen_root, ARGS.files, ARGS.chunks)
    sample_root = tmp / "gen_sample"
    for f in sorted(gen_root.rglob("*.py"))[: ARGS.sample_files]:
        dest = sample_root / f.relative_to(gen_root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dest)
    sample_texts = embedded_texts(sample_root, embedder)
    _, index_gen, gen_chunks = time_index(sample_root, tmp / "sample_index", embedder)
    plain_gen = time_plain(embedder, sample_texts)
    log(
        f"[generated sample] {gen_chunks} chunks: plain encode "
        f"{len(sample_texts) / plain_gen:.1f}/s, index {gen_chunks / index_gen:.1f} chunks/s, "
        f"ratio {plain_gen / index_gen:.3f}"
    )
    results["index_ratio"] = round((plain_lib + plain_gen) / (index_lib + index_gen), 3)
    results["index_ratio_generated"] = round(plain_gen / index_gen, 3)
    results["plain_chunks_per_s_generated"] = round(len(sample_texts) / plain_gen, 1)

    big = generated_index(gen_dir, embedder, results, write=False)
    measure_latency(big, results)

    times = []
    for i in range(ARGS.edits):
        edit_one_file(gen_root, ARGS.files, i)
        t0 = time.perf_counter()
        report = big.update()
        times.append(time.perf_counter() - t0)
        assert report.files_embedded == 1, report
    results["reindex_one_file_s"] = round(statistics.median(times), 3)
    results["reindex_one_file_max_s"] = round(max(times), 3)
    log(
        f"[generated] re-index after editing one file: median "
        f"{results['reindex_one_file_s']} s, max {results['reindex_one_file_max_s']} s "
        f"over {len(times)} edits"
    )
    log(
        f"index ratio (pooled) {results['index_ratio']} "
        f"(real {results['index_ratio_real']}, generated {results['index_ratio_generated']})"
    )


ARGS: argparse.Namespace

if __name__ == "__main__":
    sys.exit(main())
