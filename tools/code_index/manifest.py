"""The per-table manifest: what each workspace file looked like when it was last indexed.

It is a cache beside the LanceDB table, never ahead of it: a file's entry is written only after
its chunks are committed. It maps path -> (size, mtime_ns, file_hash, status, chunk count), so a
re-scan only reads files whose size or mtime changed. ``clean`` is false while an update runs;
finding it false means the last run was interrupted, and the table (the truth) is re-read to
reconcile. Written atomically (``tools.atomic_files.atomic_write``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tools.atomic_files import atomic_write

MANIFEST_VERSION = 1
STATUS_OK = "ok"


@dataclass(slots=True)
class FileEntry:
    size: int
    mtime_ns: int
    file_hash: str
    status: str  # "ok" or a skip reason ("binary", "undecodable", "too_large")
    chunks: int

    def to_list(self) -> list:
        return [self.size, self.mtime_ns, self.file_hash, self.status, self.chunks]


@dataclass(slots=True)
class Manifest:
    path: Path
    table: str
    model_path: str = ""
    clean: bool = True
    files: dict[str, FileEntry] = field(default_factory=dict)
    writes_since_optimize: int = 0

    @classmethod
    def load(cls, path: Path, table: str) -> Manifest:
        """The stored manifest, or an empty one if missing, unreadable or for another table."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") != MANIFEST_VERSION or data.get("table") != table:
                raise ValueError("other manifest")
            files = {p: FileEntry(*v) for p, v in data.get("files", {}).items()}
            return cls(
                path,
                table,
                data.get("model_path", ""),
                bool(data.get("clean")),
                files,
                int(data.get("writes_since_optimize", 0)),
            )
        except FileNotFoundError:
            # Unknown state: if the table exists, it is reconciled; if not, nothing is lost.
            return cls(path, table, clean=False)
        except (OSError, ValueError, TypeError, AttributeError):
            # Corrupt or foreign: treat as interrupted so the table is reconciled.
            return cls(path, table, clean=False)

    def save(self) -> None:
        data = {
            "version": MANIFEST_VERSION,
            "table": self.table,
            "model_path": self.model_path,
            "clean": self.clean,
            "writes_since_optimize": self.writes_since_optimize,
            "files": {p: e.to_list() for p, e in sorted(self.files.items())},
        }
        # Not durable: a manifest lost in a crash only makes the next update reconcile the table.
        atomic_write(self.path, json.dumps(data, separators=(",", ":")), durable=False)
