"""The workspace's conversation on disk, so the chat survives a page reload and an app restart.

One file, WORKSPACE/.localcrew/chat.json, holds the chat as the page shows it (Gradio's message
dicts: the user's requests, the crew's turns, each run's outcome). It is written whole to a
temporary file and renamed over the old one, so a crash leaves the old chat or the new one, never
half of either; only the newest MAX_MESSAGES are kept, so the page and the file stay small.
A file that cannot be read gives an empty chat and a notice: the page must load anyway.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from tools.atomic_files import atomic_write

MAX_MESSAGES = 200
MAX_MESSAGE_CHARS = 20_000  # a streamed turn is cut to 6,000 on the page; this only guards the file
CHAT_FILE = Path(".localcrew") / "chat.json"
FORMAT = 1

Message = dict[str, Any]


def _clean(message: Any) -> Message | None:
    """A message worth keeping, in the shape the Chatbot takes; None for anything else."""
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
        return None
    content = message.get("content")
    if not isinstance(content, str):
        return None  # files and components are not stored: they would point into temp folders
    if len(content) > MAX_MESSAGE_CHARS:
        content = "…" + content[-MAX_MESSAGE_CHARS:]
    kept: Message = {"role": message["role"], "content": content}
    metadata = message.get("metadata")
    if isinstance(metadata, dict) and metadata:
        # A reloaded chat shows no spinner: whatever was pending when it was saved is over.
        kept["metadata"] = {k: v for k, v in metadata.items() if isinstance(v, (str, int, float))}
        if kept["metadata"].get("status") == "pending":
            kept["metadata"]["status"] = "done"
    return kept


def bounded(messages: list[Any]) -> list[Message]:
    kept = [m for m in (_clean(m) for m in messages) if m is not None]
    kept = kept[-MAX_MESSAGES:]
    # Start on a user's request when one is kept, so the chat never opens mid-answer.
    first_user = next((i for i, m in enumerate(kept) if m["role"] == "user"), 0)
    return kept[first_user:] if len(kept) == MAX_MESSAGES else kept


class ChatStore:
    """One workspace's chat, in memory and on disk; thread-safe (two tabs may finish runs together).

    A run adds its messages with begin() and replaces them as it streams with update(); a Clear
    while a run streams starts the new chat with that run's messages rather than bringing the
    cleared chat back.
    """

    def __init__(self, workspace: Path) -> None:
        self.path = Path(workspace) / CHAT_FILE
        self._lock = threading.Lock()
        self._messages: list[Message] | None = None  # read on first use
        self._epoch = 0  # bumped by clear(): handles from before it write into the new chat
        self.notice = ""  # why the saved chat could not be read, for the page to show

    def load(self) -> tuple[list[Message], str]:
        """(messages, notice): the notice is "" unless the file was there and unreadable."""
        with self._lock:
            return list(self._read()), self.notice

    def begin(self, messages: list[Any]) -> tuple[int, int]:
        """Append a run's first messages; returns the handle update() takes."""
        with self._lock:
            chat = self._read()
            handle = (self._epoch, len(chat))
            chat.extend(bounded(messages))
            self._write()
            return handle

    def opens_conversation(self, handle: tuple[int, int]) -> bool:
        """Whether the run with this handle is the first of its conversation: nothing before it in
        the chat (a new conversation, a first request, or a chat that could not be read). Such a
        run must not be taken as a follow-up of an earlier run the chat no longer shows."""
        return not self.before(handle)

    def before(self, handle: tuple[int, int]) -> list[Message]:
        """The chat before a run's messages (what the page shows above the streaming run)."""
        with self._lock:
            epoch, start = handle
            return list(self._read()[:start]) if epoch == self._epoch else []

    def update(self, handle: tuple[int, int], messages: list[Any]) -> tuple[tuple[int, int], str]:
        """Replace the run's messages (from its handle on) with `messages`; returns the handle to
        use next (it moves when the chat was cleared or trimmed) and "" or why nothing was saved."""
        with self._lock:
            chat = self._read()
            epoch, start = handle
            if epoch != self._epoch:
                start = len(chat)  # cleared since: this run's messages start the new chat
            del chat[start:]
            chat.extend(bounded(messages))
            trimmed = bounded(chat)
            start = max(0, start - (len(chat) - len(trimmed)))
            self._messages = trimmed
            return (self._epoch, start), self._write()

    def save(self, messages: list[Any]) -> str:
        """Replace the whole chat."""
        with self._lock:
            self._messages = bounded(messages)
            return self._write()

    def clear(self) -> str:
        """Forget the conversation (the workspace's files are not touched)."""
        with self._lock:
            self._messages, self._epoch, self.notice = [], self._epoch + 1, ""
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                return f"The saved chat could not be removed: {exc}"
        return ""

    def _read(self) -> list[Message]:
        if self._messages is not None:
            return self._messages
        self._messages = []
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return self._messages
        except (OSError, UnicodeDecodeError) as exc:
            self.notice = f"The saved chat could not be read ({exc}); starting an empty one."
            return self._messages
        try:
            data = json.loads(raw)
            messages = data.get("messages") if isinstance(data, dict) else None
            if not isinstance(messages, list):
                raise ValueError("no list of messages")
        except ValueError as exc:
            # Kept aside, not overwritten by the next save: it may be all the user has.
            aside = self.path.with_name(self.path.name + ".damaged")
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
            self.notice = f"The saved chat was damaged ({exc}); kept as {aside.name}, a new chat starts."
            return self._messages
        self._messages = bounded(messages)
        return self._messages

    def _write(self) -> str:
        data = {"format": FORMAT, "messages": self._messages or []}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.path.parent / ".gitignore"
            if not ignore.exists():  # as the snapshot store does: the user's `git status` stays clean
                ignore.write_text("*\n", encoding="utf-8")
            atomic_write(self.path, json.dumps(data, ensure_ascii=False))
        except OSError as exc:
            return f"The chat could not be saved in {self.path.parent}: {exc}"
        return ""


class ChatSaver:
    """Keeps one run's messages in a store: the first call adds them, later calls replace them."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store
        self.handle: tuple[int, int] | None = None

    def __call__(self, messages: list[Any]) -> None:
        if self.handle is None:
            self.handle = self.store.begin(messages)
        else:
            self.handle, _ = self.store.update(self.handle, messages)

    def opens_conversation(self) -> bool:
        """True when this run starts a new conversation (see ChatStore.opens_conversation)."""
        return self.handle is not None and self.store.opens_conversation(self.handle)
