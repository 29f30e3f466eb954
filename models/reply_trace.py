"""What the model weighed at each step of one reply: its top choices, to branch off them later.

A branch is the reply's tokens up to one step, then a lower-ranked choice there; the engine
continues it greedily (`Engine.chat(..., continue_from=branch)`). At temperature 0 that is a
deterministic way to get other versions of an answer where the model was least sure, instead of
sampling at random.

The scores are read before llama.cpp's repeat penalty: with a penalty other than 1.0 the token
taken can differ from the first choice recorded, so branch only off replies sampled without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Choice = tuple[int, float]  # (token id, probability over the whole vocabulary)


@dataclass
class ReplyTrace:
    """Filled while a reply is generated: per step, the `top_k` most likely tokens, best first."""

    top_k: int = 2
    tokens: list[int] = field(default_factory=list)  # the reply's tokens before the last step
    ranked: list[tuple[Choice, ...]] = field(default_factory=list)  # one entry per generated token

    def margin(self, step: int) -> float:
        """How much more likely the first choice was than the second (0 = a coin toss)."""
        choices = self.ranked[step]
        return choices[0][1] - (choices[1][1] if len(choices) > 1 else 0.0)

    def branch(self, step: int, rank: int = 1) -> list[int]:
        """The reply's tokens before `step`, then the choice of that rank (0 = the one taken)."""
        if not 0 <= step < len(self.ranked) or not 0 <= rank < len(self.ranked[step]):
            raise IndexError(f"no choice of rank {rank} at step {step} of {len(self.ranked)}")
        return self.tokens[:step] + [self.ranked[step][rank][0]]


def recording_processors(trace: ReplyTrace, prompt_length: int) -> Any:
    """llama_cpp logits processors that record each step's top choices and change nothing."""
    import numpy as np
    from llama_cpp import LogitsProcessorList

    k = trace.top_k

    def record(input_ids: Any, logits: Any) -> Any:
        top = np.argpartition(logits, -k)[-k:]
        top = top[np.argsort(-logits[top])]
        peak = float(logits[top[0]])
        total = float(np.exp(logits - peak).sum())
        trace.ranked.append(tuple((int(t), float(np.exp(logits[t] - peak)) / total) for t in top))
        trace.tokens = [int(t) for t in input_ids[prompt_length:]]
        return logits

    return LogitsProcessorList([record])
