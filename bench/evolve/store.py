"""What bench.evolve keeps on disk, so that a stopped search continues where it stopped.

- OUT/cache.jsonl: one line per (model, task, configuration key) evaluated: passed, seconds.
  Appended and flushed as each problem finishes; a line cut short by a kill is skipped.
- OUT/lineage.jsonl: one line per finished generation: every member (configuration, parents,
  scores), best and mean, and the random generator's state after the generation was bred.
- OUT/run.json: the search's parameters; a resumed run must match them.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

CACHE = "cache.jsonl"
LINEAGE = "lineage.jsonl"
RUN = "run.json"


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    if not path.is_file():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut short by a kill
            continue
    return rows


def _append(path: Path, row: dict[str, Any]) -> None:
    if path.is_file() and path.stat().st_size:
        with path.open("rb") as fh:
            fh.seek(-1, os.SEEK_END)
            ended = fh.read(1) == b"\n"
        if not ended:  # a half line from a kill: end it so this row is whole
            with path.open("a", encoding="utf-8") as fh:
                fh.write("\n")
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


class ResultCache:
    """Per (model, task id, configuration key): {"passed": bool, "seconds": float}."""

    def __init__(self, out: Path, model: str) -> None:
        self.path = out / CACHE
        self.model = model
        self.rows: dict[tuple[str, str], dict[str, Any]] = {}
        for row in _read_jsonl(self.path):
            if row.get("model") == model:
                self.rows[(row["task_id"], row["key"])] = row

    def get(self, task_id: str, config_key: str) -> dict[str, Any] | None:
        return self.rows.get((task_id, config_key))

    def put(self, task_id: str, config_key: str, passed: bool, seconds: float) -> dict[str, Any]:
        row = {
            "model": self.model,
            "task_id": task_id,
            "key": config_key,
            "passed": passed,
            "seconds": round(seconds, 3),
        }
        _append(self.path, row)
        self.rows[(task_id, config_key)] = row
        return row

    def keys(self) -> set[str]:
        return {config_key for _, config_key in self.rows}


def read_lineage(out: Path) -> list[dict[str, Any]]:
    return _read_jsonl(out / LINEAGE)


def append_generation(out: Path, row: dict[str, Any]) -> None:
    _append(out / LINEAGE, row)


def rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def restore_rng(state: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((state[0], tuple(state[1]), state[2]))
    return rng


def check_run(out: Path, params: dict[str, Any], *, resume: bool) -> None:
    """Writes OUT/run.json, or on --resume checks the parameters are the same search's."""
    path = out / RUN
    if resume and path.is_file():
        before = json.loads(path.read_text(encoding="utf-8"))
        fixed = ("model", "population", "elite", "problems", "seed")
        changed = [k for k in fixed if before.get(k) != params.get(k)]
        if changed:
            raise SystemExit(f"--resume: {', '.join(changed)} differ from {path}; use another --out")
    elif not resume and read_lineage(out):
        raise SystemExit(f"{out / LINEAGE} exists: add --resume to continue it, or use another --out")
    path.write_text(json.dumps(params, indent=1) + "\n", encoding="utf-8")
