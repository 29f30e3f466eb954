"""The engine's llama_cpp.Llama: counts what each eval processes, samples grammar-checked, drafts.

Four changes to llama-cpp-python's Llama, each where its own generate loop calls in:
- `eval` records how many tokens each call processed (the prompt tokens really evaluated);
- `eval` reads a long prompt one n_batch chunk at a time and stops between chunks when `cancel` is
  set (PromptCancelledError): llama-cpp-python's own loop cannot be left, and a Stop during a
  20,000-character request waited 81 s for the whole prompt;
- `_init_sampler` returns a models.grammar_sampling.CheckedSampler: the grammar checks the token
  the chain sampled instead of filtering the whole vocabulary first, and the reply's token ids are
  recorded (`sampled`) so the next turn can reuse them exactly;
- while `draft_model` is set (prompt lookup), a short batch asks llama.cpp for the logits of every
  position, which the speculative loop samples, without llama-cpp-python's `logits_all`: that would
  keep an n_ctx x n_vocab score array (2.5 GB for Qwen at 4096) and compute the prompt's logits.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from models.chat_engine import PromptCancelledError
from models.grammar_sampling import CheckedSampler, grammar_sampler

DRAFT_BATCH_MAX = 64  # batches up to this long get every position's logits while drafting


@lru_cache(maxsize=1)
def metered_llama_class() -> type:
    from llama_cpp import Llama  # deferred: llama_cpp is heavy

    class MeteredLlama(Llama):
        eval_sizes: list[int]
        sampled: list[int]
        # True: llama-cpp-python's own chain (grammar over the whole vocabulary), for comparisons.
        grammar_first: bool = False
        cancel: Any = None  # a threading.Event; set, a prompt being read stops at the next chunk

        def eval(self, tokens: Any) -> None:  # noqa: A003 - overriding llama_cpp's name
            self.eval_sizes.append(len(tokens))
            if self.draft_model is None or len(tokens) > DRAFT_BATCH_MAX:
                self._eval_in_chunks(list(tokens))
                return
            import llama_cpp

            self._ctx.kv_cache_seq_rm(-1, self.n_tokens, -1)
            n_past = self.n_tokens
            self._batch.set_batch(batch=tokens, n_past=n_past, logits_all=True)
            # A draft check stands for decode steps: decode's thread count, not the prompt's. On
            # 2 busy cores a 17-token batch took 2-6 s on 2 threads against 0.3-0.4 s on 1.
            llama_cpp.llama_set_n_threads(self._ctx.ctx, self.n_threads, self.n_threads)
            try:
                self._ctx.decode(self._batch)
            finally:
                llama_cpp.llama_set_n_threads(self._ctx.ctx, self.n_threads, self.n_threads_batch)
            self.input_ids[n_past : n_past + len(tokens)] = tokens
            self.n_tokens += len(tokens)
            self._requires_eval = False

        def _eval_in_chunks(self, tokens: list[int]) -> None:
            """llama-cpp-python's eval, called one n_batch chunk at a time (the same decode calls)."""
            for start in range(0, len(tokens), self.n_batch):
                if start and self.cancel is not None and self.cancel.is_set():
                    raise PromptCancelledError("stopped while the prompt was read")
                super().eval(tokens[start : start + self.n_batch])

        def _init_sampler(self, **kwargs: Any) -> Any:
            if self.grammar_first:
                return super()._init_sampler(**kwargs)
            grammar = kwargs.pop("grammar", None)
            chain = super()._init_sampler(**kwargs, grammar=None)
            checker = grammar_sampler(self._model, grammar) if grammar is not None else None
            return CheckedSampler(chain, checker, self._n_vocab, self.sampled)

    return MeteredLlama
