"""Prompt-lookup drafting: guess the next tokens by finding the reply's last few tokens earlier in the
context and proposing what followed them there.

A whole-file rewrite mostly copies the file the prompt holds, so the guesses are mostly right and
llama.cpp checks a run of them in one batch instead of one token per eval. The check is exact: a
guess is kept only where the model's own pick agrees (models.metered_llama samples every position),
so greedy output is the same with drafting on or off.

Differences from llama-cpp-python's LlamaPromptLookupDecoding (which takes the first match of an
n-gram of at most 2): longer n-grams first (a 1- or 2-token match in code is mostly `    ` or `):`),
and the source position is followed from one draft to the next, so a copy keeps copying the same
place in the file rather than jumping to the first similar line. The draft's length adapts: it
doubles while drafts are taken whole and halves when most of one is rejected, because on a CPU a
rejected token still costs most of a decode step.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


class PromptLookup:
    """A llama-cpp-python draft model (called with the context's token ids, returns the guesses)."""

    def __init__(
        self, max_ngram: int = 4, min_ngram: int = 2, num_pred_tokens: int = 32, start_tokens: int = 8
    ) -> None:
        self.max_ngram = max_ngram
        self.min_ngram = min_ngram
        self.num_pred_tokens = num_pred_tokens  # the longest draft
        self.length = min(start_tokens, num_pred_tokens)  # the next draft's length
        self._source = -1  # where the last draft was taken from, as an index into the context
        self._length = 0  # the context's length at that draft
        self._drafted = 0  # that draft's length
        self.drafts = 0

    def __call__(self, input_ids: npt.NDArray[np.intc], /, **_: object) -> npt.NDArray[np.intc]:
        length = len(input_ids)
        self._adapt(length)
        start = self._followed(input_ids)
        if start < 0:
            start = self._search(input_ids)
        if start < 0:
            self._drafted = 0
            return np.array([], dtype=np.intc)
        draft = np.asarray(input_ids[start : min(start + self.length, length)], dtype=np.intc)
        self._source, self._length, self._drafted = start, length, len(draft)
        self.drafts += 1
        return draft

    def _adapt(self, length: int) -> None:
        """The context grew by the tokens taken of the last draft plus the model's own next one."""
        if not self._drafted:
            return
        taken = min(length - self._length - 1, self._drafted)
        if taken >= self._drafted:
            self.length = min(self.length * 2, self.num_pred_tokens)
        elif taken < self._drafted // 2:
            self.length = max(self.length // 2, 1)

    def _followed(self, ids: npt.NDArray[np.intc]) -> int:
        """The last draft's source, moved on as far as the context has grown, if it still matches."""
        if self._source < 0:
            return -1
        start = self._source + (len(ids) - self._length)
        n = self.min_ngram
        if start - n < 0 or start >= len(ids) - n:
            return -1
        return start if np.array_equal(ids[start - n : start], ids[-n:]) else -1

    def _search(self, ids: npt.NDArray[np.intc]) -> int:
        """Where the continuation of the longest matching n-gram starts (its latest match)."""
        length = len(ids)
        for n in range(min(self.max_ngram, length - 1), self.min_ngram - 1, -1):
            windows = np.lib.stride_tricks.sliding_window_view(ids[: length - 1], n)
            hits = np.flatnonzero(np.all(windows == ids[-n:], axis=1))
            hits = hits[hits + n < length - 1]  # not the tail itself, something must follow
            if hits.size:
                return int(hits[-1]) + n
        return -1
