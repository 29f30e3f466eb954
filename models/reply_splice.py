"""Reuse the previous reply's own token ids when the next prompt repeats it.

The next turn's prompt holds the last reply as text. Tokenizing that text again does not always
give back the tokens the model generated (a reply can be spelled by several token sequences), and
the KV cache only reuses an exact token prefix: bench.engine's turn 3 re-evaluated 97 of 308 prompt
tokens for that reason. So when the new rendered prompt starts with the last prompt's text followed
by (a prefix of) the last reply, its tokens are the last call's tokens, then the reply's token ids as
far as the text agrees, and only the rest is tokenized.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Exchange:
    prompt_text: str  # the rendered prompt, as tokenized
    prompt_tokens: tuple[int, ...]
    reply_tokens: tuple[int, ...]  # the ids the model sampled, in order


def splice(
    exchange: Exchange | None,
    prompt_text: str,
    piece_of: Callable[[int], bytes],
    tokenize_rest: Callable[[bytes], list[int]],
) -> list[int] | None:
    """The tokens for `prompt_text` reusing `exchange`'s, or None when the prompt does not extend it.

    `piece_of(token)`: the token's bytes; `tokenize_rest(text)`: tokens of text that follows others
    (no BOS, special tokens parsed).
    """
    if exchange is None or not exchange.reply_tokens or not prompt_text.startswith(exchange.prompt_text):
        return None
    rest = prompt_text[len(exchange.prompt_text) :].encode("utf-8")
    kept, offset = _reply_prefix(exchange.reply_tokens, rest, piece_of)
    if kept == 0:
        return None
    return [*exchange.prompt_tokens, *exchange.reply_tokens[:kept], *tokenize_rest(rest[offset:])]


def _reply_prefix(reply: Sequence[int], text: bytes, piece_of: Callable[[int], bytes]) -> tuple[int, int]:
    """How many of `reply`'s tokens spell a prefix of `text`, and how many bytes they spell; the
    cut falls between characters (the rest is tokenized as text)."""
    ends = [0]
    for token in reply:
        piece = piece_of(token)
        if not piece or not text.startswith(piece, ends[-1]):
            break
        ends.append(ends[-1] + len(piece))
    while len(ends) > 1 and ends[-1] < len(text) and text[ends[-1]] & 0xC0 == 0x80:
        ends.pop()  # inside a UTF-8 character
    return len(ends) - 1, ends[-1]
