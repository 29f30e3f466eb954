"""Rule answer_questions: a request that only asks about the code ("What does report.py do?",
"Why does test_total fail?") is answered in words from the files it is about, and nothing is written.

Issue 58 asks for an Ask mode; before it, "Explain cli.py" went to the coder as a change request:
its reply was parsed for files, written, checked, and sent round again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.rules.rule import Stage, rule

if TYPE_CHECKING:  # the page imports NOTE; the run's modules load CrewAI
    from agents.llm.roles import Role
    from agents.run.state import RunState

NOTE = "Nothing was written: this read as a question. Say what to change, and it will be changed."
INSTRUCTION = (
    "Answer the question about this project in a few sentences of plain prose. Name the file and"
    " function you mean, and quote a line of code where it helps. Do not rewrite the files; if a"
    " change is needed, say which and where in one sentence."
)


def question_task(question: str, shown: str, retrieved: str, evidence: str, memory: str) -> str:
    """The question put to the coder: the files it is about (or the code retrieved for it), what
    the tests and commands say now, the question, and how to answer."""
    return (
        (f"The files in the project:\n{shown}\n\n" if shown else "")
        + (f"Relevant code:\n{retrieved}\n\n" if retrieved and not shown else "")
        + (f"{memory}\n" if memory else "")
        + (f"{evidence}\n\n" if evidence else "")
        + f"Question: {question}\n{INSTRUCTION}"
    )


Ask = Callable[..., str]  # the runner's one agent step: (role, round, task, expected, plain=...)


@rule(
    "answer_questions",
    Stage.PROMPT,
    reason=(
        "a request that only asks about the code is answered in words from its files, and nothing is written"
    ),
    evidence="tests/test_answer_questions.py",
)
def answer_question(state: RunState, coder: Role, ask: Ask, shown: str) -> str:
    """The coder's answer to the question, then the note that nothing was written. It is shown
    what the run found before round 1: how the tests it names fail, how its commands crash."""
    tests = state.tests_before.evidence if state.tests_before is not None else ""
    evidence = "\n\n".join(filter(None, [tests, state.crashes_before]))
    task = question_task(state.facts.text, shown, state.context_text, evidence, state.memory)
    reply = ask(coder, 1, task, "a short answer in prose", plain=True).strip()
    return f"{reply or '(The model gave no answer; ask again in other words.)'}\n\n{NOTE}"
