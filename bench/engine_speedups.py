"""bench.engine's speed-up figures: grammar-constrained decoding and prompt-lookup rewrites.

- constrained_ratio: decode tokens/s of a schema-constrained write_file call that writes a given
  60-line file over unconstrained tokens/s, same prompt, same run, alternating. Also llama-cpp-python's own
  grammar-first chain (the engine before the check-second sampler) for comparison.
- rewrite_speedup: seconds to rewrite a 150-line file with a one-line change, greedy, prompt
  lookup off / on (models.prompt_lookup), and llama-cpp-python's LlamaPromptLookupDecoding beside
  it; each reply must be identical to the one without drafting.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from typing import Any

from models.chat_engine import GenerationSettings
from models.engine import Engine

# A write_file call as JSON: the shape a structured answer of the crew's size is held to.
WRITE_ARGUMENTS = {
    "type": "object",
    "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
    "required": ["path", "content"],
    "additionalProperties": False,
}
WRITE_FILE_CALL = {
    "type": "object",
    "properties": {"name": {"const": "write_file"}, "arguments": WRITE_ARGUMENTS},
    "required": ["name", "arguments"],
    "additionalProperties": False,
}
TOOL_SYSTEM = (
    "You save files with the write_file tool. Reply with exactly one JSON object with the keys name "
    '("write_file") and arguments (an object with the keys path and content, content being the whole file).'
)
REWRITE_SYSTEM = (
    "You edit Python files. Reply with the whole new file in one ```python code block, nothing else."
)


def rewrite_source(lines: int = 150) -> str:
    """A plain module of `lines` lines: small functions, each different, as a user's file is."""
    out: list[str] = ['"""Unit conversions."""', ""]
    index = 0
    while len(out) < lines - 5:
        out += [
            f"def convert_{index}(value: float, scale: float = {index + 2}.0) -> float:",
            f'    """Scale value by {index + 2} and shift it by {index}."""',
            "    if value < 0:",
            f'        raise ValueError("convert_{index} takes values >= 0")',
            f"    return value * scale + {index}",
            "",
            "",
        ]
        index += 1
    out += ["", 'if __name__ == "__main__":', "    print(convert_0(1.0))", "    print(convert_1(2.0))"]
    return "\n".join(out[:lines]) + "\n"


def _tool_messages() -> list[dict[str, str]]:
    # The file is given, so the call writes 60 lines on any model (asked to write "about 60 lines"
    # itself, the 135M stopped after 26 tokens), and the free and constrained replies are alike.
    request = f"Save this code as convert.py with write_file:\n```python\n{rewrite_source(60)}```"
    return [{"role": "system", "content": TOOL_SYSTEM}, {"role": "user", "content": request}]


def constrained(engine: Engine, gen: GenerationSettings, rounds: int) -> dict[str, Any]:
    schema = WRITE_FILE_CALL
    rates: dict[str, list[tuple[int, float]]] = {"free": [], "checked": [], "grammar_first": []}
    order = ["free", "checked", "grammar_first"]
    for round_index in range(rounds):
        for who in order[round_index % 3 :] + order[: round_index % 3]:
            engine.grammar_first = who == "grammar_first"
            try:
                _, stats = engine.chat(_tool_messages(), gen, schema=None if who == "free" else schema)
            finally:
                engine.grammar_first = False
            decode_s = stats.total_s - stats.time_to_first_token_s
            rates[who].append((stats.completion_tokens - 1, decode_s))
            _progress(f"constrained {who}: {stats.completion_tokens} tokens, {decode_s:.1f} s")

    def pooled(who: str) -> float:
        tokens = sum(t for t, _ in rates[who])
        seconds = sum(s for _, s in rates[who])
        return tokens / seconds if seconds else 0.0

    free, checked, first = pooled("free"), pooled("checked"), pooled("grammar_first")
    return {
        "free_tps": round(free, 2),
        "constrained_tps": round(checked, 2),
        "grammar_first_tps": round(first, 2),
        "constrained_ratio": round(checked / free, 4) if free else 0.0,
        "grammar_first_ratio": round(first / free, 4) if free else 0.0,
        "constrained_tokens": [t + 1 for t, _ in rates["checked"]],
    }


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _rewrite_messages(source: str) -> list[dict[str, str]]:
    request = (
        f"convert.py:\n```python\n{source}```\n"
        "In convert_7, change the error message to say 'convert_7 needs a value >= 0'. "
        "Reply with the whole new convert.py."
    )
    return [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": request}]


def rewrite(
    engine: Engine, gen: GenerationSettings, rounds: int, with_llama_cpp: bool = True
) -> dict[str, Any]:
    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

    from models.prompt_lookup import PromptLookup

    messages = _rewrite_messages(rewrite_source())
    gen = replace(gen, max_tokens=max(gen.max_tokens, 2000))
    drafters: dict[str, Any] = {"off": None, "ours": PromptLookup, "llama_cpp": LlamaPromptLookupDecoding}
    if not with_llama_cpp:
        del drafters["llama_cpp"]
    seconds: dict[str, list[float]] = {who: [] for who in drafters}
    replies: dict[str, set[str]] = {who: set() for who in drafters}
    tokens = 0
    engine.chat(messages, replace(gen, max_tokens=1))  # the prompt into the cache for all alike
    order = list(drafters)
    try:
        for round_index in range(rounds):
            turn = round_index % len(order)
            for who in order[turn:] + order[:turn]:
                factory = drafters[who]
                if factory is not None:
                    engine.draft_factory = factory
                started = time.perf_counter()
                text, stats = engine.chat(messages, replace(gen, prompt_lookup=factory is not None))
                seconds[who].append(time.perf_counter() - started)
                _progress(f"rewrite {who}: {stats.completion_tokens} tokens, {seconds[who][-1]:.1f} s")
                replies[who].add(text)
                tokens = stats.completion_tokens
    finally:
        vars(engine).pop("draft_factory", None)  # back to the class's
    base = replies["off"]
    off = sum(seconds["off"])
    result = {
        "rewrite_tokens": tokens,
        "rewrite_s_off": round(off / rounds, 2),
        "rewrite_reply_lines": next(iter(base)).count("\n") + 1 if base else 0,
    }
    for who, suffix in (("ours", ""), ("llama_cpp", "_llama_cpp")):
        if who in drafters:
            result |= {
                f"rewrite_s_{who}": round(sum(seconds[who]) / rounds, 2),
                f"rewrite_speedup{suffix}": round(off / sum(seconds[who]), 3),
                f"rewrite_identical{suffix}": len(base) == 1 and replies[who] == base,
            }
    return result
