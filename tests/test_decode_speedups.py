"""The engine's decode speed-ups change no greedy output: the grammar checked after sampling, prompt
lookup drafting, and the previous reply's token ids reused in the next prompt."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

from bench.engine_speedups import WRITE_ARGUMENTS, WRITE_FILE_CALL
from models.chat_engine import GenerationSettings
from models.engine import Engine
from models.prompt_lookup import PromptLookup
from models.reply_splice import Exchange, splice

GREEDY = GenerationSettings(temperature=0.0, max_tokens=160, seed=1234, repeat_penalty=1.0)
FINAL_CALL = {
    "type": "object",
    "properties": {
        "name": {"const": "final_answer"},
        "arguments": {**WRITE_ARGUMENTS, "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
    "required": ["name", "arguments"],
    "additionalProperties": False,
}
REQUESTS = [
    "Write stack.py: a class Stack with push, pop, peek and is_empty.",
    "Write fib.py with a function fib(n) returning the n-th Fibonacci number.",
    "Write greet.py that prints a greeting for each name in a list.",
    "Write a file that says hello.",
]


def _tool_chat(request: str) -> list[dict[str, str]]:
    system = 'Reply with one JSON object: {"name": "write_file", "arguments": {"path": ..., "content": ...}}.'
    return [{"role": "system", "content": system}, {"role": "user", "content": request}]


def test_grammar_checked_after_sampling_gives_the_grammar_first_output(engine: Engine) -> None:
    schema = {"oneOf": [WRITE_FILE_CALL, FINAL_CALL]}
    # The crew samples without a repeat penalty; 1.1 (the default) checks the penalty's history.
    for request, penalty in zip(REQUESTS, (1.0, 1.0, 1.1, 1.1), strict=True):
        gen = replace(GREEDY, repeat_penalty=penalty, max_tokens=96)
        engine.forget_cache()
        checked, _ = engine.chat(_tool_chat(request), gen, schema=schema)
        engine.grammar_first = True
        try:
            engine.forget_cache()
            first, _ = engine.chat(_tool_chat(request), gen, schema=schema)
        finally:
            engine.grammar_first = False
        assert checked == first, request
        if engine.last_stats is not None and engine.last_stats.finish_reason == "stop":
            assert json.loads(checked, strict=False)["name"] in ("write_file", "final_answer")


def test_prompt_lookup_drafts_and_keeps_the_greedy_reply(engine: Engine) -> None:
    source = "\n".join(f"def scale_{i}(x):\n    return x * {i} + {i * 3}\n" for i in range(12))
    request = f"calc.py:\n```python\n{source}```\nRename scale_3 to triple. Whole file."
    chat = [
        {"role": "system", "content": "Reply with the whole new file in one code block."},
        {"role": "user", "content": request},
    ]
    gen = replace(GREEDY, max_tokens=300)
    engine.forget_cache()
    plain, plain_stats = engine.chat(chat, gen)
    engine.forget_cache()
    drafted, stats = engine.chat(chat, replace(gen, prompt_lookup=True))
    assert drafted == plain
    assert stats.completion_tokens == plain_stats.completion_tokens
    # Some evals checked several drafted tokens at once: fewer evals than generated tokens.
    assert len(engine._llm.eval_sizes) < stats.completion_tokens  # noqa: SLF001


def test_follow_up_reuses_the_reply_token_ids(engine: Engine) -> None:
    chat = [{"role": "user", "content": "Write a Python function that reverses a string."}]
    reply, first = engine.chat(chat, GREEDY)
    chat += [{"role": "assistant", "content": reply}, {"role": "user", "content": "Add a docstring."}]
    _, second = engine.chat(chat, GREEDY)
    # Everything up to the end of the reply came from the cache: only the new turn was evaluated
    # (give or take the reply's last token, which is evaluated only if generation went on).
    new_turn = second.prompt_tokens - first.prompt_tokens - first.completion_tokens
    assert second.prompt_tokens_evaluated <= new_turn + 2


def _pieces(vocab: dict[int, bytes]):  # noqa: ANN202 - a tiny fake tokenizer's two halves
    return vocab.__getitem__, lambda text: [len(text)]  # "tokens" of the rest: its length, to check it


def test_splice_reuses_the_reply_as_far_as_the_text_agrees() -> None:
    vocab = {1: b"def", 2: b" f", 3: b"():", 4: b"\n", 9: b""}
    piece_of, rest = _pieces(vocab)
    exchange = Exchange("<u>hi<a>", (7, 8), (1, 2, 3, 4, 9))
    # The whole reply, then the template's closing text.
    assert splice(exchange, "<u>hi<a>def f():\n<end>", piece_of, rest) == [7, 8, 1, 2, 3, 4, len(b"<end>")]
    # The reply stored stripped: its last token is not in the text and is left out.
    assert splice(exchange, "<u>hi<a>def f():<end>", piece_of, rest) == [7, 8, 1, 2, 3, len(b"<end>")]
    # A prompt that does not extend the last one, or a reply edited from its first token: no splice.
    assert splice(exchange, "<u>other<a>def f():\n", piece_of, rest) is None
    assert splice(exchange, "<u>hi<a>class A:", piece_of, rest) is None
    assert splice(None, "<u>hi<a>def", piece_of, rest) is None


def test_splice_never_cuts_inside_a_character() -> None:
    e_acute = "é".encode()  # two bytes, generated as two byte tokens
    vocab = {1: b"caf", 2: e_acute[:1], 3: e_acute[1:]}
    piece_of, rest = _pieces(vocab)
    exchange = Exchange("<a>", (5,), (1, 2, 3))
    # The text has a different character after the first byte: the cut goes back before it.
    other = "caf" + bytes([e_acute[0], 0xA8]).decode()
    assert splice(exchange, "<a>" + other, piece_of, rest) == [5, 1, len(other.encode()) - 3]


def test_prompt_lookup_follows_the_place_it_copies_from() -> None:
    file = [10, 11, 12, 13, 14, 15, 16, 10, 11, 12, 20, 21]
    lookup = PromptLookup(max_ngram=3, min_ngram=2, num_pred_tokens=3, start_tokens=3)
    context = np.array([*file, 99, 10, 11, 12], dtype=np.intc)
    # The longest match's latest place: "10 11 12" is followed by 20 21 there.
    assert lookup(context).tolist() == [20, 21, 99]
    # All three taken and one more: the copy goes on from the same place.
    context = np.array([*context, 20, 21, 99, 10], dtype=np.intc)
    assert lookup(context).tolist() == [11, 12, 20]
    # One of four taken: the next draft is half as long.
    lookup = PromptLookup(max_ngram=3, min_ngram=2, num_pred_tokens=4, start_tokens=4)
    first = np.array([*file, 99, 10, 11, 12], dtype=np.intc)
    assert lookup(first).tolist() == [20, 21, 99, 10]
    lookup(np.array([*first, 20, 5], dtype=np.intc))
    assert lookup.length == 2
    assert PromptLookup()(np.array([1, 2, 3, 4], dtype=np.intc)).size == 0
