"""Fit each call into the context window, saying what was left out: nothing is ever cut silently.

Before a call, the prompt is counted with the model's own tokenizer. When the prompt and the
reply's cap do not fit the context, parts go in a fixed order, least needed first:
1. retrieved code ("Relevant code:"), which only hints at where to look;
2. older feedback: earlier tool results in a tool loop, then the last try's feedback beyond its
   first line;
3. the contents of files shown beside the file being edited (those the request names are kept).
What is left out is reported (a Notice in the run). If the prompt still leaves less than
MIN_REPLY_TOKENS for the reply, the call is refused with a plain message rather than sent for
llama.cpp to reject or CrewAI to summarize away.

The prompt sections are the headings agents/llm/roles.py writes (coder_task); tests build prompts with
coder_task, so a renamed heading fails them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.request import files_named_in
from agents.rules.parse.file_blocks import FORMAT_RULES

Message = dict[str, str]
MIN_REPLY_TOKENS = 128  # below this a reply cannot hold even a small function

RETRIEVED = re.compile(r"Relevant code:\n.*?\n\n(?=\S)", re.S)
FEEDBACK = re.compile(
    r"((?:The last try was not accepted|An earlier try failed like this):\n[^\n]*\n)(.*?)"
    r"(?=Make the change|Fix the code|" + re.escape(FORMAT_RULES[:24]) + r"|\Z)",
    re.S,
)
FILES = re.compile(r"The files in the project:\n(.*?)\n\n(?=\S)", re.S)
FILE_BLOCK = re.compile(r"^([^\n`]+)\n```[\w+-]*\n.*?\n```$", re.S | re.M)
REQUEST = re.compile(r"^Request: (.*)$", re.M)
LEFT_OUT_RESULT = "(an earlier tool result, left out to fit the context)"


class PromptTooLongError(RuntimeError):
    """Even the shortened prompt does not leave room for a reply; the message says so plainly."""


@dataclass
class Fit:
    messages: list[Message]
    prompt_tokens: int
    reply_cap: int
    left_out: list[str] = field(default_factory=list)  # in words, for the notice

    def notice(self) -> str:
        if not self.left_out:
            return ""
        return (
            f"The prompt did not fit the {self.prompt_tokens + self.reply_cap}-token budget, so "
            + "; ".join(self.left_out)
            + " was left out."
        )


def fit_to_context(
    messages: list[Message], count: Callable[[list[Message]], int], n_ctx: int, reply_cap: int
) -> Fit:
    """The messages shortened (in the fixed order) until prompt + reply cap fit `n_ctx`."""
    messages = [dict(m) for m in messages]
    tokens = count(messages)
    left_out: list[str] = []
    for shrink in (_drop_retrieved, _drop_older_results, _trim_feedback, _drop_other_files):
        if tokens + reply_cap <= n_ctx:
            break
        said = shrink(messages)
        if said:
            left_out.append(said)
            tokens = count(messages)
    if tokens + reply_cap > n_ctx:
        if tokens + MIN_REPLY_TOKENS > n_ctx:
            raise PromptTooLongError(
                f"Your request is about {tokens} tokens even with {_or_nothing(left_out)} left out; the "
                f"context holds {n_ctx}, and the reply needs room too. Shorten the request or the files "
                "it shows, or raise the context size in the model panel."
            )
        left_out.append(f"room for the reply (capped at {n_ctx - tokens} tokens instead of {reply_cap})")
        reply_cap = n_ctx - tokens
    return Fit(messages, tokens, reply_cap, left_out)


def _or_nothing(left_out: list[str]) -> str:
    return ", ".join(left_out) if left_out else "nothing"


def _last_user(messages: list[Message]) -> Message | None:
    return next((m for m in reversed(messages) if m["role"] == "user"), None)


def _task_message(messages: list[Message]) -> Message | None:
    """The message holding the task's sections (the first user message in a tool loop)."""
    return next((m for m in messages if m["role"] == "user" and REQUEST.search(m["content"])), None)


def _drop_retrieved(messages: list[Message]) -> str:
    for message in messages:
        content, n = RETRIEVED.subn("", message["content"])
        if n:
            message["content"] = content
            return "the retrieved code"
    return ""


def _drop_older_results(messages: list[Message]) -> str:
    last = _last_user(messages)
    dropped = 0
    for message in messages:
        is_result = message["role"] == "user" and message["content"].startswith("Result of ")
        if is_result and message is not last and message["content"] != LEFT_OUT_RESULT:
            message["content"] = LEFT_OUT_RESULT
            dropped += 1
    return f"{dropped} earlier tool result(s)" if dropped else ""


def _trim_feedback(messages: list[Message]) -> str:
    message = _task_message(messages)
    if message is None:
        return ""
    match = FEEDBACK.search(message["content"])
    if match is None or not match.group(2).strip():
        return ""
    message["content"] = message["content"][: match.start(2)] + message["content"][match.end(2) :]
    return "the last try's feedback after its first line"


def _drop_other_files(messages: list[Message]) -> str:
    message = _task_message(messages)
    if message is None:
        return ""
    section = FILES.search(message["content"])
    if section is None:
        return ""
    request = REQUEST.search(message["content"])
    keep = set(files_named_in(request.group(1) if request else ""))
    blocks = list(FILE_BLOCK.finditer(section.group(1)))
    if not keep and blocks:
        keep = {blocks[0].group(1).strip()}  # no file named: the first shown is the one in view
    dropped = [b.group(1).strip() for b in blocks if b.group(1).strip() not in keep]
    if not dropped:
        return ""
    body = FILE_BLOCK.sub(
        lambda b: b.group(0) if b.group(1).strip() in keep else f"{b.group(1).strip()}: (left out)",
        section.group(1),
    )
    content = message["content"]
    message["content"] = content[: section.start(1)] + body + content[section.end(1) :]
    return "the contents of " + ", ".join(dropped)
