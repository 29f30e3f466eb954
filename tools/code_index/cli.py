"""Command-line entry points: ``app.py index`` and ``app.py search`` call these.

Both print (results to stdout, progress bars and errors to stderr) and return an exit code:
0 done, 1 failed, 2 bad input (no such workspace, bad mode).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .embedder import Embedder, EmbedderError
from .hybrid_search import MODES, Hit
from .indexer import CodeIndex, IndexProgress, IndexReport


class TqdmProgress:
    """An ``on_progress`` callback drawing a tqdm bar (files) on stderr; off when not a TTY."""

    def __init__(self, desc: str = "indexing", disable: bool | None = None) -> None:
        self.desc = desc
        self.disable = disable
        self._bar: Any = None

    def __call__(self, p: IndexProgress) -> None:
        if p.files_total == 0 and self._bar is None:
            return
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(
                total=p.files_total,
                desc=self.desc,
                unit="file",
                file=sys.stderr,
                disable=self.disable,
                dynamic_ncols=True,
            )
        self._bar.total = p.files_total
        self._bar.n = p.files_done
        self._bar.set_postfix_str(
            f"{p.chunks_done} chunks {p.phase if p.phase != 'indexing' else ''}".strip(),
            refresh=False,
        )
        self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> TqdmProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open(workspace: str | Path, onnx_queries: bool = True) -> CodeIndex | None:
    try:
        # A CLI process exits right after: optimize in the foreground when it is due.
        embedder = Embedder(onnx_queries=onnx_queries)
        return CodeIndex(Path(workspace), embedder=embedder, background_optimize=False)
    except NotADirectoryError as exc:
        print(f"error: {exc}", file=sys.stderr)
    except EmbedderError as exc:
        print(f"error: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"error: cannot create the index: {exc}", file=sys.stderr)
    return None


def _update(index: CodeIndex) -> IndexReport:
    with TqdmProgress() as bar:
        return index.update(on_progress=bar)


def cli_index(workspace: str | Path, as_json: bool = False) -> int:
    """``index --workspace DIR [--json]``: build or refresh the index, print the report."""
    index = _open(workspace)
    if index is None:
        return 2 if not Path(workspace).is_dir() else 1
    try:
        report = _update(index)
    except KeyboardInterrupt:
        print("interrupted: the next run resumes where this one stopped", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a CLI reports, it does not trace back
        print(f"error: indexing failed: {exc}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(report.to_dict()))
    else:
        print(report.summary())
    return 0


def format_hit_line(i: int, hit: Hit, snippet_lines: int = 6) -> str:
    head = f"{i}. {hit.path}:{hit.start_line}-{hit.end_line}"
    if hit.symbol:
        head += f"  {hit.symbol}"
    head += f"  (score {hit.score:.4f})"
    lines = hit.snippet.split("\n")
    body = "\n".join("    " + line for line in lines[:snippet_lines])
    if len(lines) > snippet_lines:
        body += f"\n    ... ({len(lines) - snippet_lines} more lines)"
    return f"{head}\n{body}"


def cli_search(
    query: str,
    workspace: str | Path,
    k: int = 8,
    as_json: bool = False,
    path_glob: str | None = None,
    mode: str = "hybrid",
) -> int:
    """``search "QUERY" --workspace DIR [--json]``: refresh the index, print the best hits."""
    if mode not in MODES:
        print(f"error: mode must be one of {', '.join(MODES)}", file=sys.stderr)
        return 2
    # One query, then the process exits: PyTorch embeds it sooner than ONNX Runtime loads.
    index = _open(workspace, onnx_queries=False)
    if index is None:
        return 2 if not Path(workspace).is_dir() else 1
    try:
        report = _update(index)
        hits = index.search(query, k=k, path_glob=path_glob, mode=mode)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001
        print(f"error: search failed: {exc}", file=sys.stderr)
        return 1
    if as_json:
        out = {
            "query": query,
            "mode": mode,
            "path_glob": path_glob,
            "index_dir": report.index_dir,
            "note": report.note,
            "hits": [h.to_dict() for h in hits],
        }
        print(json.dumps(out))
        return 0
    if report.note:
        print(f"note: {report.note}", file=sys.stderr)
    if not hits:
        print("no results" if report.chunks_total else "no results (nothing indexed)")
        return 0
    print("\n".join(format_hit_line(i, h) for i, h in enumerate(hits, start=1)))
    return 0
