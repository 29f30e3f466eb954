"""Record a benchmark's model calls, then replay them against other code: the same replies for the
same prompts, so "the crew behaves as before" is checked call by call, at the cost of one run.

    python -m bench.replay record CALLS.jsonl -- -m bench.humaneval --mode crew --limit 82 ...
    python -m bench.replay replay CALLS.jsonl -- -m bench.humaneval --mode crew --limit 82 ...

Run from the tree under test (its `models.engine.Engine` is patched before the benchmark starts,
so an older commit can be recorded too). `record` calls the real model and appends each call's
key (messages, sampling settings, schema) and reply; `replay` answers each call from that file
and never decodes. A prompt the recording never saw is a divergence: it is counted, logged to
CALLS.jsonl.misses, and that call fails (the benchmark's own error handling then takes over). The
last line is one JSON object: calls answered, divergences.

    python -m bench.replay cache CALLS.jsonl -- -m bench.humaneval ...

`cache` answers what the file knows and decodes (and appends) what it does not: a configuration
that differs from a recorded one in a few rules pays only for the calls those rules change. Its
timings are not the model's (answered calls take no time); its pass counts are, at temperature 0
or a fixed seed. The JSON line then counts calls answered and calls decoded.
"""

from __future__ import annotations

import json
import runpy
import sys
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agents.run.noise import without_run_noise

_LOCK = threading.Lock()
MODES = ("record", "replay", "cache")


def call_key(messages: list[dict[str, str]], gen: Any, schema: Any) -> str:
    kept = ("temperature", "top_p", "top_k", "seed", "max_tokens", "stop", "repeat_penalty")
    settings = {k: v for k, v in asdict(gen).items() if k in kept}
    return json.dumps({"messages": messages, "gen": settings, "schema": schema}, sort_keys=True, default=str)


def stable(key: str) -> str:
    """The key as matched: without run times and object addresses (agents/run/noise.py), which
    differ between two runs of the same code; a match that needs this is counted (`loose`)."""
    return without_run_noise(key)


class Recording:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.replies: dict[str, list[dict[str, Any]]] = {}
        self.exact: set[str] = set()
        self.answered = 0
        self.loose = 0  # answered only with the volatile text masked
        self.misses = 0

    def load(self) -> None:
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                self.replies.setdefault(stable(row["key"]), []).append(row)
                self.exact.add(row["key"])

    def add(self, key: str, text: str, stats: Any) -> None:
        row = {"key": key, "text": text, "stats": asdict(stats) if stats is not None else None}
        with _LOCK, self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")

    def take(self, key: str, *, log_miss: bool = True) -> dict[str, Any] | None:
        """The recorded reply (a key seen several times answers in the order recorded)."""
        with _LOCK:
            rows = self.replies.get(stable(key))
            if not rows:
                self.misses += 1
                if log_miss:
                    with Path(f"{self.path}.misses").open("a", encoding="utf-8") as out:
                        out.write(key + "\n")
                return None
            self.answered += 1
            self.loose += key not in self.exact
            return rows.pop(0) if len(rows) > 1 else rows[0]


def _patch(mode: str, recording: Recording) -> None:
    from models.chat_engine import CallStats, ChatStream
    from models.engine import Engine

    real = Engine.stream_chat

    def stream_chat(self: Any, messages: Any, gen: Any = None, cancel: Any = None, grammar: Any = None,
                    **kwargs: Any) -> ChatStream:  # fmt: skip
        from models.chat_engine import GenerationSettings

        gen = gen or GenerationSettings()
        key = call_key(messages, gen, kwargs.get("schema"))
        row = recording.take(key, log_miss=mode == "replay") if mode != "record" else None
        if row is None and mode != "replay":  # record, or a call the cache does not know yet
            inner = real(self, messages, gen, cancel, grammar, **kwargs)

            def recorded() -> Iterator[str]:
                pieces = []
                try:
                    for piece in inner:
                        pieces.append(piece)
                        yield piece
                finally:  # also when the reader stops early: what it read is the reply
                    inner.close()
                    stream.stats = inner.stats
                    recording.add(key, "".join(pieces), inner.stats)

            stream = ChatStream(recorded())
            return stream
        if row is None:
            raise RuntimeError("bench.replay: a prompt the recording never saw")

        def replayed() -> Iterator[str]:
            yield row["text"]
            stream.stats = CallStats(**row["stats"]) if row["stats"] else CallStats()
            self.last_stats = stream.stats

        stream = ChatStream(replayed())
        return stream

    Engine.stream_chat = stream_chat  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 4 or argv[0] not in MODES or argv[2] != "--" or argv[3] != "-m":
        print(__doc__, file=sys.stderr)
        return 2
    mode, path, module, rest = argv[0], Path(argv[1]), argv[4], argv[5:]
    recording = Recording(path)
    if mode == "replay" or (mode == "cache" and path.exists()):
        recording.load()
    _patch(mode, recording)
    sys.argv = [module, *rest]
    code = 0
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    missed = "decoded" if mode == "cache" else "divergences"
    counts = {"answered": recording.answered, "answered_loosely": recording.loose, missed: recording.misses}
    print(json.dumps({"bench": "replay", "mode": mode, **counts, "exit": code}))
    return code


if __name__ == "__main__":
    sys.exit(main())
