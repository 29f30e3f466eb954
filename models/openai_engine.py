"""A ChatEngine over any OpenAI-compatible server: llama-server, vLLM, Ollama, LM Studio,
llama_cpp.server. For a team past one machine: the model runs where the GPU is, the crew here.

Only the URL the user gives is ever contacted (proxies from the environment are ignored, so a
loopback server is not reached through one). The API key is read from the environment variable the
user names and is never shown or logged.

Failures end the call with one EngineError saying what happened at which URL: the server down,
slow past the timeout, answering 5xx (tried again first: a server still loading answers 503), a
stream cut in the middle, a reply that is not a chat completion, or text that is not JSON where a
JSON schema was asked. Retries happen only before the first piece arrives, so a reply is never
doubled.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from models.chat_engine import (
    CallStats,
    ChatEngine,
    ChatStream,
    ContextOverflowError,
    EngineError,
    GenerationSettings,
    JsonSchema,
    Message,
)
from models.repetition import loop_start

DEFAULT_N_CTX = 4096
DEFAULT_GENERATION = GenerationSettings()
CHARS_PER_TOKEN = 3  # a server without a tokenizer endpoint: over-count rather than overflow
REPETITION_CHECK_EVERY = 16  # as the in-process engine: a loop costs at most this many pieces more
# A served model is assumed able to code (long reply caps) unless its name says it is small.
ASSUMED_PARAMETERS = 7_000_000_000
SNIPPET = 200  # characters of a server's error body shown in a message
OVERFLOW_WORDS = ("exceed context window", "maximum context length", "context length", "too many tokens")


class RemoteEngineError(EngineError):
    """The server could not answer; the message names the URL and what went wrong."""


@dataclass(frozen=True)
class RemoteSettings:
    base_url: str  # e.g. http://127.0.0.1:8080/v1
    model: str | None = None  # None: the first model the server lists
    api_key_env: str | None = None  # the NAME of the variable holding the key, never the key
    n_ctx: int = 0  # 0: what the server reports, else DEFAULT_N_CTX
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 120.0  # the longest wait for the next piece (a long prompt's first)
    retries: int = 2  # more tries when the server is down, slow to answer or answers 5xx
    retry_wait_s: float = 0.5  # doubled after each try

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/")


@dataclass(frozen=True)
class RemoteInfo:
    """What the crew reads of a model it cannot open: a name, and a size guessed from that name."""

    name: str
    parameter_count: int
    file_size: int = 0


@dataclass
class RemoteLoadReport:
    url: str
    model: str
    n_ctx: int
    n_ctx_source: str  # "the server", "--n-ctx" or "assumed"
    load_s: float
    messages: list[str] = field(default_factory=list)
    n_gpu_layers: int = 0  # the server's business; here for code that reads a local report

    def summary(self) -> str:
        return f"{self.model} on {self.url} (context {self.n_ctx} tokens, {self.n_ctx_source})"


def parameters_from_name(name: str) -> int:
    """'qwen2.5-coder:7b', 'Qwen2.5-Coder-0.5B-Instruct', 'SmolLM2-135M' -> a parameter count."""
    found = re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)\s*([bBmM])(?![a-zA-Z])", name)
    if not found:
        return ASSUMED_PARAMETERS
    number, unit = found[-1]
    return int(float(number) * (1e9 if unit in "bB" else 1e6))


class OpenAIEngine(ChatEngine):
    """Streaming chat completions from an OpenAI-compatible server (a models.chat_engine.ChatEngine).

    Calls may run concurrently (a batching server serves them together); each call's statistics
    are on its own stream.
    """

    backend = "openai"

    def __init__(self, settings: RemoteSettings, *, transport: Any = None) -> None:
        self.remote = settings
        self.settings = replace(settings, n_ctx=settings.n_ctx or DEFAULT_N_CTX)
        self.model_path = Path(settings.model or "server-model")
        self.info: RemoteInfo | None = None
        self.load_report: RemoteLoadReport | None = None
        self.last_stats: CallStats | None = None
        self._transport = transport  # tests may hand httpx a transport; None: real sockets
        self._client: Any = None
        self._structured = "json_schema"  # switched to "grammar" once a server refuses json_schema

    # ---------- connecting ----------
    @property
    def loaded(self) -> bool:
        return self.load_report is not None

    def load(self, on_message: Callable[[str], None] | None = None) -> RemoteLoadReport:
        """Reach the server, pick the model, learn the context size. Nothing is loaded here."""
        started = time.perf_counter()
        url = self.remote.url
        (on_message or (lambda _text: None))(f"Connecting to the model server at {url}…")
        listing = self._get_json("/models")
        models = [m for m in listing.get("data", []) if isinstance(m, dict) and m.get("id")]
        model = self.remote.model or (models[0]["id"] if models else None)
        if not model:
            raise RemoteEngineError(f"The model server at {url} lists no model; name one with --model.")
        messages = []
        if models and model not in {m["id"] for m in models}:
            listed = ", ".join(m["id"] for m in models[:5])
            messages.append(f"The server does not list {model} (it lists {listed}); asking for it anyway.")
        entry = next((m for m in models if m["id"] == model), {})
        served_ctx = _served_context(entry)
        if self.remote.n_ctx:
            n_ctx, source = self.remote.n_ctx, "--n-ctx"
        elif served_ctx:
            n_ctx, source = served_ctx, "the server"
        else:
            n_ctx, source = DEFAULT_N_CTX, "assumed; the server does not say: pass --n-ctx"
        self.settings = replace(self.settings, n_ctx=n_ctx, model=model)
        self.model_path = Path(model)
        served_params = (entry.get("meta") or {}).get("n_params")  # llama-server says; others do not
        parameters = served_params if isinstance(served_params, int) else parameters_from_name(model)
        self.info = RemoteInfo(name=model, parameter_count=parameters)
        self.load_report = RemoteLoadReport(
            url, model, n_ctx, source, time.perf_counter() - started, messages
        )
        return self.load_report

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    def _http(self) -> Any:
        if self._client is None:
            import httpx  # deferred: only a remote backend needs it

            headers = {}
            key_env = self.remote.api_key_env
            if key_env:
                key = os.environ.get(key_env)
                if not key:
                    raise RemoteEngineError(f"The API key variable ${key_env} is not set.")
                headers["Authorization"] = f"Bearer {key}"
            timeout = httpx.Timeout(
                self.remote.read_timeout_s, connect=self.remote.connect_timeout_s, pool=None
            )
            # trust_env=False: no proxy from the environment, no .netrc; only this URL is contacted.
            self._client = httpx.Client(
                headers=headers, timeout=timeout, trust_env=False, transport=self._transport
            )
        return self._client

    def _get_json(self, path: str) -> dict[str, Any]:
        import httpx

        url = self.remote.url + path
        try:
            response = self._with_retries(lambda: self._http().get(url))
        except httpx.HTTPError as exc:
            raise RemoteEngineError(self._unreachable(exc)) from exc
        if response.status_code == 404:
            raise RemoteEngineError(
                f"{url} answered 404: the base URL of an OpenAI-compatible API usually ends in /v1."
            )
        _raise_for_status(response, self.remote)
        try:
            data = response.json()
        except ValueError as exc:
            raise RemoteEngineError(f"{url} did not answer JSON: {response.text[:SNIPPET]!r}") from exc
        return data if isinstance(data, dict) else {}

    # ---------- counting ----------
    def count_tokens(self, messages: list[Message]) -> int:
        """An estimate: OpenAI's API has no tokenizer endpoint, and only counts afterwards (usage)."""
        chars = sum(len(m.get("content", "")) for m in messages)
        return chars // CHARS_PER_TOKEN + 4 * len(messages)

    # ---------- generating ----------
    def stream_chat(
        self,
        messages: list[Message],
        gen: GenerationSettings = DEFAULT_GENERATION,
        cancel: threading.Event | None = None,
        *,
        schema: JsonSchema | None = None,
    ) -> ChatStream:
        def pieces() -> Iterator[str]:  # runs on the first next(), once `reply` exists
            estimate = self.count_tokens(messages)  # until the server's usage says better
            stats = CallStats(prompt_tokens=estimate, prompt_tokens_evaluated=estimate)
            reply.stats = self.last_stats = stats
            started = time.perf_counter()
            try:
                yield from self._stream(messages, gen, cancel, schema, stats, started)
            finally:
                stats.total_s = time.perf_counter() - started
                decode_s = stats.total_s - stats.time_to_first_token_s
                if stats.completion_tokens > 1 and decode_s > 0:
                    stats.decode_tokens_per_s = (stats.completion_tokens - 1) / decode_s

        reply = ChatStream(pieces())
        return reply

    def complete_many(
        self,
        messages: list[Message],
        gens: Sequence[GenerationSettings],
        cancel: threading.Event | None = None,
        *,
        schema: JsonSchema | None = None,
    ) -> list[tuple[str, CallStats]]:
        """One reply per settings, asked in parallel: a batching server (llama-server with
        --parallel, vLLM) decodes them together. Parallel requests rather than one with `n`, which
        llama-server ignores and which cannot carry a seed and a temperature per reply. The first
        failure is raised once every request has ended."""
        gens = list(gens)
        if len(gens) <= 1:
            return [self.chat(messages, gen, cancel, schema=schema) for gen in gens]
        with ThreadPoolExecutor(max_workers=len(gens), thread_name_prefix="complete-many") as pool:
            futures = [pool.submit(self.chat, messages, gen, cancel, schema=schema) for gen in gens]
            wait(futures)
        return [future.result() for future in futures]

    def _stream(
        self,
        messages: list[Message],
        gen: GenerationSettings,
        cancel: threading.Event | None,
        schema: JsonSchema | None,
        stats: CallStats,
        started: float,
    ) -> Iterator[str]:
        if cancel is not None and cancel.is_set():
            stats.finish_reason = "cancelled"
            return
        response = self._open(messages, gen, schema)
        reply: list[str] = []
        done = False
        try:
            for event in self._events(response):
                if cancel is not None and cancel.is_set():
                    stats.finish_reason = "cancelled"
                    return
                done = done or event is _DONE
                if event is _DONE:
                    continue
                piece = self._apply(event, stats, started)
                if piece:
                    reply.append(piece)
                    yield piece
                    if len(reply) % REPETITION_CHECK_EVERY == 0 and loop_start("".join(reply)) is not None:
                        stats.finish_reason = "repetition"
                        return
        finally:
            response.close()  # the server sees the connection go and stops generating
        if not done and stats.finish_reason is None:
            raise RemoteEngineError(
                f"The model server at {self.remote.url} closed the stream in the middle of the reply "
                f"(after {len(reply)} pieces)."
            )
        if schema is not None and stats.finish_reason not in ("length", "repetition"):
            _require_json("".join(reply), self.remote.url)

    def _apply(self, event: dict[str, Any], stats: CallStats, started: float) -> str:
        """One chunk into the statistics; returns its text."""
        if "error" in event:
            raise RemoteEngineError(
                f"The model server at {self.remote.url} failed in the middle of the reply: "
                f"{str(event['error'])[:SNIPPET]}"
            )
        usage = event.get("usage") or {}
        if usage:  # the last chunk, when the server honours stream_options.include_usage
            stats.prompt_tokens = usage.get("prompt_tokens") or stats.prompt_tokens
            stats.prompt_tokens_evaluated = stats.prompt_tokens
            stats.completion_tokens = usage.get("completion_tokens") or stats.completion_tokens
        timings = event.get("timings") or {}
        if "prompt_n" in timings:  # llama-server says how much of the prompt its cache spared
            stats.prompt_tokens_evaluated = int(timings["prompt_n"])
        choices = event.get("choices") or []
        if not choices:
            return ""
        choice = choices[0]
        if choice.get("finish_reason"):
            stats.finish_reason = choice["finish_reason"]
        text = (choice.get("delta") or {}).get("content") or ""
        if text:
            if stats.time_to_first_token_s == 0.0:
                stats.time_to_first_token_s = time.perf_counter() - started
            if not usage:
                stats.completion_tokens += 1  # a llama.cpp server sends one token a chunk
        return text

    def _body(self, messages: list[Message], gen: GenerationSettings, schema: JsonSchema | None) -> dict:
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": gen.max_tokens,
            "temperature": gen.temperature,
            "top_p": gen.top_p,
            "seed": gen.seed,
            # llama.cpp's names; servers that do not know them ignore them.
            "top_k": gen.top_k,
            "min_p": gen.min_p,
            "repeat_penalty": gen.repeat_penalty,
        }
        if gen.stop:
            body["stop"] = list(gen.stop)
        if schema is not None and self._structured == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": True},
            }
        elif schema is not None:
            from models.schema_grammar import schema_gbnf

            body["grammar"] = schema_gbnf(schema)
        return body

    def _open(self, messages: list[Message], gen: GenerationSettings, schema: JsonSchema | None) -> Any:
        """The streaming response, once the server accepted the request (status 200)."""
        import httpx

        url = self.remote.url + "/chat/completions"

        def send() -> Any:
            client = self._http()
            request = client.build_request("POST", url, json=self._body(messages, gen, schema))
            return client.send(request, stream=True)

        try:
            response = self._with_retries(send)
            if schema is not None and self._refuses_json_schema(response):
                # llama_cpp.server takes a grammar instead; later calls send one at once.
                self._structured = "grammar"
                response = self._with_retries(send)
        except httpx.HTTPError as exc:
            raise RemoteEngineError(self._unreachable(exc)) from exc
        if response.status_code != 200:
            response.read()
            response.close()
            _raise_for_status(response, self.remote)
        return response

    def _refuses_json_schema(self, response: Any) -> bool:
        return self._structured == "json_schema" and _refuses_json_schema(response)

    def _with_retries(self, attempt: Callable[[], Any]) -> Any:
        """Try again when the server is down, slow to answer, or answers 5xx; the last error stays."""
        import httpx

        wait = self.remote.retry_wait_s
        for remaining in range(self.remote.retries, -1, -1):
            try:
                response = attempt()
            except httpx.TransportError:  # refused, reset, or no answer within the timeout
                if remaining == 0:
                    raise
            else:
                if response.status_code < 500 or remaining == 0 or _refuses_json_schema(response):
                    return response
                response.close()
            time.sleep(wait)
            wait *= 2
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _unreachable(self, exc: Exception) -> str:
        import httpx

        url, tries = self.remote.url, self.remote.retries + 1
        if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
            why = "could not be reached (is it running? check --base-url)"
        elif isinstance(exc, httpx.TimeoutException):
            why = f"sent nothing for {self.remote.read_timeout_s:g} s"
        else:
            why = f"failed: {type(exc).__name__}: {exc}"
        return f"The model server at {url} {why}; tried {tries} time(s)."

    def _events(self, response: Any) -> Iterator[Any]:
        """The server-sent events of a streaming completion, as dicts; _DONE at `data: [DONE]`."""
        import httpx

        try:
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue  # blank separators, comments, `event:` lines
                data = line[5:].strip()
                if data == "[DONE]":
                    yield _DONE
                    return
                try:
                    event = json.loads(data)
                except json.JSONDecodeError as exc:
                    raise RemoteEngineError(
                        f"The model server at {self.remote.url} sent something that is not a chat "
                        f"completion: {data[:SNIPPET]!r}"
                    ) from exc
                yield event if isinstance(event, dict) else {}
        except httpx.TimeoutException as exc:
            raise RemoteEngineError(
                f"The model server at {self.remote.url} sent nothing for "
                f"{self.remote.read_timeout_s:g} s in the middle of the reply."
            ) from exc
        except httpx.TransportError as exc:  # connection reset, chunked body cut short
            raise RemoteEngineError(
                f"The model server at {self.remote.url} closed the stream in the middle of the reply "
                f"({type(exc).__name__})."
            ) from exc


_DONE: Any = object()


def _refuses_json_schema(response: Any) -> bool:
    """A refusal of response_format json_schema (llama_cpp.server answers it with HTTP 500): asking
    again the same way cannot help, a grammar can."""
    if response.status_code < 400:
        return False
    response.read()  # kept on the response, for the error message if it is another refusal
    response.close()
    return "response_format" in response.text and "json_schema" in response.text


def _served_context(entry: dict[str, Any]) -> int:
    """The context a server runs a model with: vLLM's max_model_len. (llama-server lists only the
    training context, n_ctx_train, which is not the one it was started with.)"""
    value = entry.get("max_model_len")
    return value if isinstance(value, int) and value > 0 else 0


def _raise_for_status(response: Any, remote: RemoteSettings) -> None:
    if response.status_code < 400:
        return
    text = response.text[:SNIPPET]
    if any(word in text.lower() for word in OVERFLOW_WORDS):
        raise ContextOverflowError(text)  # the crew handles an overflow as it does in process
    if response.status_code in (401, 403):
        key = f"${remote.api_key_env}" if remote.api_key_env else "no key (--api-key-env NAME)"
        raise RemoteEngineError(
            f"The model server at {remote.url} refused the request (HTTP {response.status_code}); "
            f"the key sent was {key}."
        )
    raise RemoteEngineError(
        f"The model server at {remote.url} answered HTTP {response.status_code}: {text!r}"
        + (f"; tried {remote.retries + 1} time(s)." if response.status_code >= 500 else "")
    )


def _require_json(text: str, url: str) -> None:
    try:
        json.loads(text, strict=False)
    except json.JSONDecodeError:
        raise RemoteEngineError(
            f"The model server at {url} answered with text that is not JSON although a JSON schema "
            f"was asked (does it support response_format json_schema?): {text[:80]!r}"
        ) from None
