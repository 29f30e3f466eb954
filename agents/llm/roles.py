"""The three roles: short prompts, answer schemas and sampling sized for small local models.

Small models follow one short instruction better than a page of rules, so every prompt is a few
lines. The planner answers in JSON held to its shape by a grammar, the coder in Markdown file
blocks (agents/rules/parse/file_blocks.py), the reviewer in assert lines
(agents/rules/checks/written_checks.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.request import FILE_NAME
from agents.rules.parse.file_blocks import FORMAT_RULES
from models.chat_engine import GenerationSettings
from models.reply_budget import ReplyBudget

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # Bounded strings: a tiny model otherwise never closes its quotes.
        "steps": {
            "type": "array",
            "items": {"type": "string", "maxLength": 80},
            "minItems": 1,
            "maxItems": 4,
        },
        "files": {
            "type": "array",
            "items": {"type": "string", "maxLength": 40},
            "minItems": 1,
            "maxItems": 3,
        },
    },
    "required": ["steps", "files"],
}


@dataclass(frozen=True)
class Role:
    name: str
    role: str
    goal: str
    backstory: str
    generation: GenerationSettings
    max_iter: int = 3


@dataclass(frozen=True)
class RoleSet:
    planner: Role
    coder: Role
    reviewer: Role


def _sampling(max_tokens: int, temperature: float, seed: int) -> GenerationSettings:
    # No repeat penalty: code repeats tokens by nature. bench.crew on the 135M model, same run:
    # checks passed in 6 of 22 requests at 1.0 against 1 of 22 at 1.15, every tool call still parsed.
    return GenerationSettings(temperature=temperature, max_tokens=max_tokens, repeat_penalty=1.0, seed=seed)


def roles_for(budget: ReplyBudget, temperature: float = 0.0, seed: int = 42) -> RoleSet:
    """Caps come from the model's budget: short for tiny models, room for real files for coders."""
    return RoleSet(
        planner=Role(
            "planner",
            "Planner",
            "Turn a request into a short plan and a list of files.",
            "You plan small Python changes.",
            _sampling(budget.plan, temperature, seed),
        ),
        coder=Role(
            "coder",
            "Coder",
            "Write whole, working Python files, each in a Markdown code block.",
            "You write complete, simple Python files.",
            _sampling(budget.tool_call, temperature, seed),
            max_iter=6 if budget.tool_call > 1024 else 4,
        ),
        reviewer=Role(
            "reviewer",
            "Reviewer",
            "Check code against the request with a few asserts on concrete examples.",
            "You test Python code.",
            _sampling(budget.review, temperature, seed),
        ),
    )


@dataclass
class Plan:
    steps: list[str]
    files: list[str]
    raw: str = ""

    def text(self) -> str:
        steps = "\n".join(f"{i}. {step}" for i, step in enumerate(self.steps, start=1))
        return f"{steps}\nFiles: {', '.join(self.files) or '(coder decides)'}"


def expected_files(named: tuple[str, ...], plan: Plan) -> list[str]:
    """The files the coder may write: those the request names, plus plan files about them.

    A plan file counts only if its name contains a named file's stem (test_add.py for add.py):
    small planners copy file names from their prompt's example. Empty when the request names no
    file: then any relative path is allowed.
    """
    if not named:
        return []
    stems = [Path(name).stem for name in named]
    related = [
        f for f in plan.files if FILE_NAME.fullmatch(f) and any(stem in Path(f).stem for stem in stems)
    ]
    return list(dict.fromkeys([*named, *related]))[:6]


def parse_plan(raw: str) -> Plan:
    try:
        data = json.loads(raw, strict=False)
        # dict.fromkeys: the small model often lists one step or file several times over.
        steps = list(dict.fromkeys(str(s).strip() for s in data.get("steps", []) if str(s).strip()))
        files = list(dict.fromkeys(str(f).strip() for f in data.get("files", []) if str(f).strip()))
    except (json.JSONDecodeError, AttributeError):
        return Plan([raw.strip()[:500] or "Do what the request asks."], [], raw)
    return Plan(steps or ["Do what the request asks."], files, raw)


def planner_task(request: str) -> str:
    return (
        f"Plan this request: {request}\n"
        "Reply with JSON: up to 4 short steps and the files to create or change."
    )


def coder_task(
    request: str,
    plan: Plan | None,
    feedback: str,
    current: str = "",
    previous: str = "",
    context: str = "",
    *,
    fix: bool = True,
    rules: str = FORMAT_RULES,
    docs: str = "",
) -> str:
    """The single coder call's prompt, plus what the crew knows: the previous request (a follow-up
    means its files), a plan and the last try's failures. `current`: the files as they are now, so
    the coder edits rather than guesses; the request comes after them and the instruction last (the
    0.5B otherwise copied the file back unchanged). `context`: retrieved code, when no file is shown.
    `fix`: the feedback is about the files shown, and the instruction is to fix them; otherwise it
    is a warning for a fresh try. `rules`: how to write the answer (agents/rules/prompt/focused_retry asks for
    some definitions only). `docs`: the documentation of the APIs the request names.
    """
    if feedback and fix:
        # "Keep everything else as it is" after a failure: the 0.5B kept the failing code too.
        instruction = (
            f"The last try was not accepted:\n{feedback}\n"
            "Fix the code that causes these failures and keep the rest. "
        )
    else:
        instruction = (f"An earlier try failed like this:\n{feedback}\n" if feedback else "") + (
            "Make the change the request asks for, and keep everything else as it is. " if current else ""
        )
    return (
        (f"The files in the project:\n{current}\n\n" if current else "")
        + (f"Relevant code:\n{context}\n\n" if context and not current else "")
        + (f"{previous}\n" if previous else "")
        + (f"{docs}\n\n" if docs else "")
        + f"Request: {request}\n"
        + (f"Plan:\n{plan.text()}\n" if plan else "")
        + instruction
        + rules
    )


def plain_task(request: str, current: str, previous: str = "") -> str:
    """The request put as one plain chat call would: what to do and how to answer, then the file."""
    return (
        (f"{previous}\n" if previous else "")
        + f"{request}\nReply with the whole file in one ```python code block."
        + (f"\n\n{current}" if current else "")
    )


def _variable(class_name: str) -> str:
    """TodoList -> todo_list."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()


# How a special method is called: asked for "a __len__", the 1.5B asserted `todo_list.pending() == 1`.
_SPECIAL_CALLS = {
    "__len__": "len({o})",
    "__str__": "str({o})",
    "__repr__": "repr({o})",
    "__contains__": "x in {o}",
    "__getitem__": "{o}[key]",
    "__iter__": "list({o})",
    "__eq__": "{o} == other",
    "__lt__": "{o} < other",
    "__add__": "{o} + other",
    "__sub__": "{o} - other",
    "__mul__": "{o} * other",
    "__bool__": "bool({o})",
    "__call__": "{o}(...)",
}


def _special_calls(code_signatures: str, classes: list[str]) -> str:
    """ "Call __len__ as len(todo_list)." for each special method of these classes."""
    said, owner = [], ""
    for line in code_signatures.splitlines():
        if found := re.match(r"class (\w+)", line):
            owner = found.group(1)
        elif (method := re.match(r"\s+def (__\w+__)\(", line)) and owner in classes:
            form = _SPECIAL_CALLS.get(method.group(1))
            if form:
                said.append(f"{method.group(1)} as {form.format(o=_variable(owner))}")
    return f" Call {', '.join(said)}." if said else ""


def checks_task(request: str, code_signatures: str, data: str = "") -> str:
    """The reviewer sees the request and the code's signatures, not its bodies: its examples must
    come from the request, or they would copy the coder's mistakes. `data`: the start of the data
    files the request names (without them the 0.5B invented the rows of scores.csv)."""
    classes = re.findall(r"^class (\w+)", code_signatures, re.M)[:3]
    # Asked to "create an object on the first line", the 1.5B and the 0.5B still wrote
    # `TodoList().add("a") == 1` then `TodoList().pending() == ["a"]`: a fresh object on every line,
    # so the checks failed on right code and the crew spent its rounds on them.
    objects = "\n".join(f"{_variable(name)} = {name}(...)" for name in classes)
    for_class = (
        f" For each class ({', '.join(classes)}): make one object of it first, as below, call the methods"
        " that change it as plain lines (`obj.method(...)`), and assert on what it returns or holds"
        " after them, always through that object." + _special_calls(code_signatures, classes)
        if classes
        else " For a class, create an object on the first line."
    )
    return (
        (f"The data files:\n{data}\n\n" if data else "") + f"Request: {request}\n"
        f"The code to test defines:\n{code_signatures}\n\n"
        "Do not write the code. Write 3 to 6 assert lines that test it on concrete examples, each"
        " comparing a call's result with the value the request says it must give."
        + for_class
        + " No imports, no functions. Reply with only this block:\n"
        + f"```python\n{objects + chr(10) if objects else ''}assert ...\n```"
    )
