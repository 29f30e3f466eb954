"""Sample first, check the grammar second: the scheme of llama.cpp's own common sampler.

llama-cpp-python puts the grammar inside the sampling chain, so every token costs a grammar check
of the whole vocabulary (~49k tokens on SmolLM2, ~152k on Qwen) before top-k even runs. Here the
chain samples without the grammar, and the grammar checks only the one token chosen; only when it
rejects that token are the candidates filtered by the grammar and the chain applied again.

At temperature 0 the result is the token the grammar-first chain picks: greedy takes the first
highest logit, and the grammar only ever removes tokens; if the unconstrained pick is allowed it is
also the first highest among the allowed ones, and if not, the resample is the grammar-first pass.

`CheckedSampler` stands where llama-cpp-python keeps its sampler (`Llama._sampler`): it offers the
same `sample(ctx, idx)`. It also records every token it returns (the reply's own token ids).
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


class CheckedSampler:
    """llama-cpp-python's sampler chain without the grammar, and the grammar as a separate check.

    `grammar` None: the chain samples natively (nothing changes but the recording)."""

    def __init__(self, chain: Any, grammar: Any | None, n_vocab: int, sampled: list[int]) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self.chain = chain
        self.grammar = grammar
        self.sampled = sampled
        self.grammar_rejections = 0  # how often the check sent it to the slow path
        if grammar is not None:
            self._ids = np.arange(n_vocab, dtype=np.int32)
            self._data = np.zeros(n_vocab, dtype=_TOKEN_DATA)
            self._n_vocab = n_vocab
            self._single = np.zeros(1, dtype=_TOKEN_DATA)

    def sample(self, ctx: Any, idx: int = -1) -> int:
        # Without a grammar the chain applies and accepts natively, in C.
        token = int(self.chain.sample(ctx, idx)) if self.grammar is None else self._checked(ctx.ctx, idx)
        self.sampled.append(token)
        return token

    def _checked(self, ctx: Any, idx: int) -> int:
        lib = self._lib
        logits = np.ctypeslib.as_array(lib.llama_get_logits_ith(ctx, idx), shape=(self._n_vocab,))
        token = self._apply(self.chain.sampler, logits)
        if not self._allowed(token):
            self.grammar_rejections += 1
            candidates = self._fill(logits)
            lib.llama_sampler_apply(self.grammar.sampler, ctypes.byref(candidates))
            token = self._select(self.chain.sampler, candidates)
        lib.llama_sampler_accept(self.grammar.sampler, token)
        lib.llama_sampler_accept(self.chain.sampler, token)
        return token

    def _fill(self, logits: np.ndarray) -> Any:
        # Samplers sort and cut the array in place, so it is rebuilt before each pass.
        self._data["id"] = self._ids
        self._data["logit"] = logits
        self._data["p"] = 0.0
        return self._lib.llama_token_data_array(
            data=self._data.ctypes.data_as(self._lib.llama_token_data_p),
            size=self._n_vocab,
            selected=-1,
            sorted=False,
        )

    def _apply(self, sampler: Any, logits: np.ndarray) -> int:
        return self._select(sampler, self._fill(logits))

    def _select(self, sampler: Any, candidates: Any) -> int:
        self._lib.llama_sampler_apply(sampler, ctypes.byref(candidates))
        if candidates.selected < 0:
            raise RuntimeError("the sampling chain selected no token")
        return int(candidates.data[candidates.selected].id)

    def _allowed(self, token: int) -> bool:
        single = self._single
        single["id"], single["logit"], single["p"] = token, 1.0, 0.0
        array = self._lib.llama_token_data_array(
            data=single.ctypes.data_as(self._lib.llama_token_data_p), size=1, selected=-1, sorted=False
        )
        self._lib.llama_sampler_apply(self.grammar.sampler, ctypes.byref(array))
        return bool(np.isfinite(single["logit"][0]))

    def close(self) -> None:
        for sampler in (self.chain, self.grammar):
            if sampler is not None:
                sampler.close()


def grammar_sampler(model: Any, grammar: Any) -> Any:
    """A chain holding only `grammar` (a LlamaGrammar) for `model` (llama-cpp-python's LlamaModel)."""
    from llama_cpp._internals import LlamaSampler

    sampler = LlamaSampler()
    sampler.add_grammar(model, grammar)
    return sampler
