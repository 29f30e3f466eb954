"""Text put into Markdown that must show as it is: the user's words, model output, file names.

A request for "a __len__ method" showed as "a **len** method" in the chat and in the undo message;
a model's reply in a fence could close the fence and become markup.
"""

from __future__ import annotations

import re

# What Markdown reads as markup anywhere in a line, and at a line's start (a heading, a quote, a
# list item); other text stays as typed, so a plain request reads (and is stored) as it was.
# HTML: a tag's `<` and an entity's `&` are written as entities.
_INLINE = re.compile(r"([\\`*_~\[\]|])")
_LINE_START = re.compile(r"^(\s*)([#>+=-])", re.M)
_ENTITY = re.compile(r"&(?=#?\w+;)")
_LIST_NUMBER = re.compile(r"^(\s*\d+)([.)])", re.M)


def literal(text: str) -> str:
    """The text escaped so that Markdown (and the HTML it allows) shows it character for character."""
    escaped = _INLINE.sub(r"\\\1", text)
    escaped = _LIST_NUMBER.sub(r"\1\\\2", escaped)
    escaped = _LINE_START.sub(r"\1\\\2", escaped)
    return _ENTITY.sub("&amp;", escaped).replace("<", "&lt;")


QUOTE_CHARS = 200  # a request quoted in a message: enough to recognise it, not a pasted file


def quoted(text: str, limit: int = QUOTE_CHARS) -> str:
    """A label in quotes, as text; a long one is cut (the whole request is in the chat)."""
    text = " ".join(text.split()) if len(text) > limit else text
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{literal(text)}'"


def fence(text: str, language: str = "") -> str:
    # A fence longer than any backtick run inside, so model output cannot break out of it.
    ticks = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks}{language}\n{text}\n{ticks}"
