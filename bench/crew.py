"""Crew benchmark: tool-call reliability, orchestration overhead and prompt reuse on the bundled model.

    python -m bench.crew [--limit N] [--rounds 1] [--json]

For each request, in a fresh temporary workspace:
- LocalCrew: a full crew run (planner, coder with grammar-constrained native tool calls, sandboxed
  checks, reviewer). tool_call_parse_rate = tool calls that parsed and went to execution / all
  tool-call replies (executed + malformed); a write_file cut off by max_tokens and kept up to its
  last complete line counts as executed, and repaired_cut_off_calls says how many there were.
  overhead = crew wall time / time inside LLM calls - 1.
  prefill_fraction = prompt tokens llama.cpp evaluated / prompt tokens sent, over every call.
- Plain CrewAI ReAct on the same model and tools: the same coder task with CrewAI's own text
  protocol (Action / Action Input / Observation) and no grammar. Every reply is classified with
  CrewAI's own parser; react_parse_rate = replies that give a known tool with a JSON-object input /
  replies that tried to act (final answers are left out of both rates alike). CrewAI 1.15 takes a
  reply it cannot parse as the final answer, so such a run ends without running any tool:
  react_files_written counts the runs that wrote a file at all, next to LocalCrew's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import agents.crewai_setup  # noqa: F401
import offline  # noqa: F401, I001
from agents.crew_runner import CrewRunner, CrewSettings, kickoff_one_agent
from agents.crew_tools import ToolContext, coder_tools
from agents.events import (
    AgentFinished,
    CheckRun,
    EventBus,
    Notice,
    ReviewVerdict,
    ToolCallFailed,
    ToolCallStarted,
)
from agents.local_llm import LocalLLM
from agents.roles import roles_for
from models.catalog import resolve_model
from models.engine import Engine, EngineSettings
from models.reply_budget import reply_budget_for
from tools.workspace_files import WorkspaceFiles

REQUESTS = [
    "Write add.py with a function add(a, b) that returns a + b and prints add(2, 3).",
    'Write hello.py that prints "Hello, world!".',
    "Write square.py with square(x) returning x * x; print square(4).",
    "Write is_even.py with is_even(n) returning True for even numbers; print is_even(10).",
    'Write reverse.py with reverse(s) returning the reversed string; print reverse("abc").',
    "Write maximum.py with maximum(items) returning the largest item; print maximum([3, 9, 2]).",
    'Write count_vowels.py with count_vowels(s); print count_vowels("banana").',
    "Write fizzbuzz.py that prints FizzBuzz for the numbers 1 to 15.",
    "Write factorial.py with factorial(n) computed with a loop; print factorial(5).",
    "Write celsius.py with to_fahrenheit(c); print to_fahrenheit(100).",
    'Write words.py with word_count(text) returning the number of words; print word_count("a b c").',
    "Write average.py with average(numbers); print average([1, 2, 3]).",
    'Write palindrome.py with is_palindrome(s); print is_palindrome("level").',
    "Write primes.py with is_prime(n) and print the primes below 20.",
    "Write fib.py with fib(n) returning the n-th Fibonacci number; print fib(10).",
    'Write greet.py with greet(name) returning "Hello, " + name; print greet("Ada").',
    "Write unique.py with unique(items) returning the items without duplicates; print unique([1, 1, 2]).",
    "Write clamp.py with clamp(x, low, high); print clamp(15, 0, 10).",
    'Write title.py with title_case(s) capitalising each word; print title_case("hello world").',
    "Write stack.py with a class Stack with push and pop; push 1 and 2, then print pop().",
    "Write sum_digits.py with sum_digits(n); print sum_digits(1234).",
    "Write gcd.py with gcd(a, b) using Euclid's algorithm; print gcd(12, 18).",
]


# The made-up task of the crew's prompt examples (greet.py, greet('Ann'); agents/roles.py and
# agents/tool_calls.py): the bundled model copies it into plans, code and reviews of other
# requests. A run echoes it when any agent's output or tool call uses these words and the request
# does not. Change these words with the examples, or the share measures nothing.
EXAMPLE_WORDS = ("greet", "Ann")


def echoes_examples(request: str, history: list[Any]) -> bool:
    said = [e.output for e in history if isinstance(e, AgentFinished)]
    said += [json.dumps(e.arguments) for e in history if isinstance(e, ToolCallStarted)]
    said += [" ".join(e.fixes) for e in history if isinstance(e, ReviewVerdict)]
    words = [w for w in EXAMPLE_WORDS if not re.search(rf"\b{w}\b", request, re.I)]
    return any(re.search(rf"\b{w}\b", text) for w in words for text in said)


class ReActLLM(LocalLLM):
    """The same engine with CrewAI's plain text protocol: no native tools, no grammar."""

    replies: list[str] = []

    def supports_function_calling(self) -> bool:
        return False

    def _answer(self, chat: list[dict[str, str]], schema: Any, task: Any, agent: Any) -> str:
        text = self._generate(chat, None, tuple(self.stop_sequences), task, agent)
        self.replies.append(text)
        return text or " "


def classify_react(reply: str, tool_names: set[str]) -> str:
    """'tool' (usable call), 'final', or 'broken', as CrewAI's own parser sees the reply."""
    from crewai.agents.parser import AgentAction, AgentFinish, OutputParserError, parse

    try:
        parsed = parse(reply)
    except OutputParserError:
        return "broken"
    if isinstance(parsed, AgentFinish):
        return "final"
    if not isinstance(parsed, AgentAction) or parsed.tool.strip() not in tool_names:
        return "broken"
    try:
        return "tool" if isinstance(json.loads(parsed.tool_input), dict) else "broken"
    except (json.JSONDecodeError, TypeError):
        return "broken"


def run_localcrew(engine: Engine, request: str, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-crew-") as folder:
        bus = EventBus()
        summary = CrewRunner(engine, Path(folder), bus, CrewSettings(rounds=rounds)).run(request)
    history = bus.history
    return {
        "executed": sum(isinstance(e, ToolCallStarted) for e in history),
        "malformed": sum(isinstance(e, ToolCallFailed) and e.name == "(malformed call)" for e in history),
        "repaired": sum(isinstance(e, Notice) and "was cut off" in e.message for e in history),
        "checks_passed": any(isinstance(e, CheckRun) and e.passed for e in history),
        "wall_s": summary.duration_s,
        "llm_s": summary.llm_seconds,
        "sent": summary.prompt_tokens_sent,
        "evaluated": summary.prompt_tokens_evaluated,
        "files": summary.files_changed,
        "echoes_examples": echoes_examples(request, history),
    }


def run_react(engine: Engine, request: str) -> dict[str, int]:
    role = roles_for(reply_budget_for(engine.info, engine.settings.n_ctx)).coder
    with tempfile.TemporaryDirectory(prefix="bench-react-") as folder:
        tools = coder_tools(ToolContext(WorkspaceFiles(Path(folder)), EventBus()))
        llm = ReActLLM(
            model="react",
            engine=engine,
            agent_name="coder",
            generation=role.generation,
            context_window=engine.settings.n_ctx,
            replies=[],
        )
        # A ReAct run that crashes still counts its replies.
        with contextlib.suppress(Exception):
            kickoff_one_agent(
                replace(role, max_iter=3),
                llm,
                tools,
                f"{request}\nWrite the file with the write_file tool.",
                "one-line summary",
            )
        wrote = any(p.is_file() for p in Path(folder).rglob("*") if ".localcrew" not in p.parts)
    kinds = [classify_react(reply, {t.name for t in tools}) for reply in llm.replies]
    return {
        "tool": kinds.count("tool"),
        "broken": kinds.count("broken"),
        "final": kinds.count("final"),
        "wrote": wrote,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crew", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--limit", type=int, default=len(REQUESTS))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    engine = Engine(resolve_model(args.model), EngineSettings(n_ctx=4096))
    engine.load()
    requests = REQUESTS[: args.limit]
    ours, theirs = [], []
    started = time.perf_counter()
    for number, request in enumerate(requests, start=1):
        ours.append(run_localcrew(engine, request, args.rounds))
        theirs.append(run_react(engine, request))
        o, t = ours[-1], theirs[-1]
        print(
            f"[{number:2d}/{len(requests)}] localcrew: {o['executed']} executed, {o['malformed']} malformed, "
            f"checks {'passed' if o['checks_passed'] else 'failed'}"
            f"{', echoes the examples' if o['echoes_examples'] else ''} | react: {t['tool']} usable, "
            f"{t['broken']} broken, {t['final']} final  — {request[:50]}",
            flush=True,
        )

    executed = sum(o["executed"] for o in ours)
    malformed = sum(o["malformed"] for o in ours)
    usable = sum(t["tool"] for t in theirs)
    broken = sum(t["broken"] for t in theirs)
    result = {
        "bench": "crew",
        "model": engine.model_path.name,
        "requests": len(requests),
        "tool_calls": executed + malformed,
        "tool_call_parse_rate": round(executed / (executed + malformed), 4) if executed + malformed else 0.0,
        "repaired_cut_off_calls": sum(o["repaired"] for o in ours),
        "react_tool_replies": usable + broken,
        "react_parse_rate": round(usable / (usable + broken), 4) if usable + broken else 0.0,
        "overhead": round(sum(o["wall_s"] for o in ours) / sum(o["llm_s"] for o in ours) - 1, 4),
        "prefill_fraction": round(sum(o["evaluated"] for o in ours) / sum(o["sent"] for o in ours), 4),
        "files_written_share": round(sum(bool(o["files"]) for o in ours) / len(ours), 4),
        "react_files_written_share": round(sum(t["wrote"] for t in theirs) / len(theirs), 4),
        "checks_passed_share": round(sum(o["checks_passed"] for o in ours) / len(ours), 4),
        "example_echo_share": round(sum(o["echoes_examples"] for o in ours) / len(ours), 4),
        "crew_seconds_per_request": round(sum(o["wall_s"] for o in ours) / len(ours), 2),
        "bench_seconds": round(time.perf_counter() - started, 1),
    }
    print(
        f"tool calls parsed and executed: {executed}/{executed + malformed} = "
        f"{result['tool_call_parse_rate']:.1%};   plain CrewAI ReAct: {usable}/{usable + broken} = "
        f"{result['react_parse_rate']:.1%}"
    )
    print(
        f"orchestration overhead: {result['overhead']:.1%} of LLM time;  prompt tokens evaluated / sent: "
        f"{result['prefill_fraction']:.3f};  checks passed in {result['checks_passed_share']:.0%} of requests"
    )
    print(f"runs echoing the prompt examples: {result['example_echo_share']:.0%}")
    if args.json:
        print(json.dumps(result))
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
