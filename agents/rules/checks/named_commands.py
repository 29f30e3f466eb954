"""Rule named_commands: a Python command line the request names (`python cli.py low crashes`) is
a check of its own: run in the sandbox before round 1, its traceback is shown to the coder as the
failure to fix; run after each round, a traceback fails the round.

In the IDE the user wrote "python cli.py low crashes: TypeError: 'ArgumentParser' object is not
callable ... Fix it."; the project's tests call no command, every round's checks passed, and the
1.5B returned cli.py unchanged until the run's time was spent (2026-11-29).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule
from agents.run.crew_tools import Check, ToolContext, _report
from tools.sandbox import RunResult, run_command

LABEL = "the commands the request names"
MOST = 3
TRACEBACK_LINES = 12


def _argv(command: str) -> list[str] | None:
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[1:] if len(words) > 1 and words[0].startswith("python") else None


def _runs(context: ToolContext, named: Sequence[str]) -> tuple[list[dict[str, str]], RunResult | None]:
    """Each named command's crash in the sandbox ({command, error, traceback}; none for one that
    ended without one), and the sandbox's run (None: no command to run). Nothing it writes is
    applied back."""
    commands = {c: argv for c in named[:MOST] if (argv := _argv(c))}
    if not commands:
        return [], None
    program = _PROGRAM.replace("__COMMANDS__", repr(commands)).replace("__LINES__", str(TRACEBACK_LINES))
    limits = replace(context.limits, apply_back=False, wall_s=max(context.limits.wall_s, 60.0))
    result = run_command(context.root, [sys.executable, "-c", program], limits)
    found = [line[len("CRASH ") :] for line in result.stdout_tail.splitlines() if line.startswith("CRASH ")]
    crashes = []
    for line in found:
        try:
            crashes.append(json.loads(line))
        except ValueError:
            continue
    return crashes, result


def _report_crashes(context: ToolContext, result: RunResult, crashes: list[dict[str, str]]) -> Check:
    problem = "; ".join(f"{c['command']} fails: {c['error']}" for c in crashes)
    return _report(context, result, problem, command=LABEL)


def crash_evidence(context: ToolContext, facts: RequestFacts) -> tuple[str, list[str]]:
    """What the named commands do now, where they crash (shown to the coder before round 1), and
    the commands that crash (a judge for the candidate search)."""
    if not context.rules.on(named_command_check):
        return "", []
    crashes, _ = _runs(context, facts.commands)
    shown = "\n\n".join(f"$ {c['command']}\n{c['traceback']}" for c in crashes)
    return shown, [c["command"] for c in crashes]


def run_commands_judge(context: ToolContext, commands: Sequence[str]) -> tuple[Check, int]:
    """The commands as a candidate's judge: a check, and how many of them no longer crash. The
    commands are ones that crashed before the run, so each runs."""
    crashes, result = _runs(context, commands)
    assert result is not None
    return _report_crashes(context, result, crashes), len(commands) - len(crashes)


@rule(
    "named_commands",
    Stage.CHECKS,
    reason=(
        "a Python command the request names is run before round 1 (its traceback shown as the failure) "
        "and after each round (a traceback fails it): the tests call no command"
    ),
    evidence="tests/test_named_commands.py",
)
def named_command_check(context: ToolContext) -> Check | None:
    """The check of the commands the request names after a round (None: none named, or none crashed)."""
    facts = context.facts
    if not facts.commands or not context.rules.on(named_command_check):
        return None
    crashes, result = _runs(context, facts.commands)
    return _report_crashes(context, result, crashes) if crashes and result is not None else None


# Runs in the sandbox, in the workspace: each command with no input and a short limit (one still
# running at its limit has started); a crash is a traceback, cut to its last lines, or argparse
# refusing the command line the user wrote.
_PROGRAM = r"""
import json, re, subprocess, sys
COMMANDS = __COMMANDS__
for command, argv in COMMANDS.items():
    try:
        done = subprocess.run([sys.executable, *argv], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=10)
    except subprocess.TimeoutExpired:
        continue
    err = done.stderr
    lines = [line for line in err.splitlines() if line.strip()]
    usage = [line for line in lines if re.match(r"^\S+: error: ", line)]
    if done.returncode == 2 and usage and lines[0].startswith("usage:"):
        # argparse refused the command line the user gave ("unrecognized arguments: --below")
        print("CRASH " + json.dumps({"command": command, "error": usage[-1][:200], "traceback": err[-800:]}))
        continue
    if done.returncode == 0 or "Traceback (most recent call last)" not in err:
        continue
    if not lines or lines[-1].startswith("EOFError"):
        continue  # it waited for input: it ran
    tail = "\n".join(lines[-__LINES__:])
    print("CRASH " + json.dumps({"command": command, "error": lines[-1][:200], "traceback": tail}))
"""
