"""Rule entry_commands: each command of an entry point the run touched (argparse sub-commands, a
click group's commands) that ran before the run still runs, and each new one runs, in the sandbox.

The project's tests call none of them: asked to add a `low` command to a shop's cli.py, the 1.5B
wrote `list = sub.add_parser("list")` and `low(...)` for the stock filter; every check passed, and
both `python cli.py list` and the new `python cli.py low` raised TypeError (IDE use, 2026-11-29).
"""

from __future__ import annotations

import sys
from dataclasses import replace

from agents.rules.checks.probe_program import HELPERS
from agents.rules.rule import Stage, rule
from agents.run.crew_tools import Check, ToolContext, _report
from tools.sandbox import run_command

LABEL = "commands"
MOST_COMMANDS = 5  # per entry point; each is a process of its own, twice


@rule(
    "entry_commands",
    Stage.CHECKS,
    reason=(
        "each command of an entry point the run touched that ran before still runs, and each new one "
        "runs: the tests call none of them"
    ),
    evidence="tests/test_entry_commands.py",
)
def broken_commands(
    context: ToolContext, entries: list[str], originals: dict[str, str | None] | None
) -> tuple[Check | None, list[str]]:
    """The sandbox's check of the entry points' commands (None when none fails by the run's doing)
    and its lines. `originals`: the changed files as they were (None: no baseline, every failure
    counts)."""
    if not entries or not context.rules.on(broken_commands):
        return None, []
    program = (
        _PROGRAM.replace("__ENTRIES__", repr(entries))
        .replace("__ORIGINALS__", repr(originals or {}))
        .replace("__BASELINE__", repr(originals is not None))
        .replace("__MOST__", repr(MOST_COMMANDS))
    )
    limits = replace(context.limits, apply_back=False, wall_s=max(context.limits.wall_s, 60.0))
    result = run_command(context.root, [sys.executable, "-c", program], limits)
    lines = [line[len("BROKEN ") :] for line in result.stdout_tail.splitlines() if line.startswith("BROKEN ")]
    if not lines:
        return None, []
    return _report(context, result, "; ".join(lines), command=LABEL), lines


# Runs in the sandbox, in the workspace (nothing it writes is applied back). Each command runs
# bare, in a process of its own with no input and a short limit; one that is still running at its
# limit has started. A command fails when it ends in a traceback; one that failed the same way on
# the project as it was (a copy of its files with the run's changes undone) is not the run's doing.
# A new command is excused a missing file or input (it may need data the user has not made yet).
_PROGRAM = (
    HELPERS
    + r"""
ENTRIES, ORIGINALS, BASELINE, MOST = __ENTRIES__, __ORIGINALS__, __BASELINE__, __MOST__
EXCUSED_NEW = {"FileNotFoundError", "EOFError", "PermissionError", "KeyboardInterrupt"}


def run(root, argv, timeout):
    try:
        return subprocess.run([sys.executable, *argv], cwd=root, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def error(root, done):
    if done is None or done.returncode == 0:
        return ""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if "Traceback (most recent call last)" not in done.stderr or not lines:
        return ""  # a usage error or a chosen exit code: the program said no, it did not crash
    if not re.match(r"^[\w.]+(Error|Exception|Interrupt)\b", lines[-1]):
        return ""
    return lines[-1][:200] + place(root, done.stderr)


def commands(root, rel):
    done = run(root, [rel, "--help"], 5)
    if done is None or done.returncode != 0:
        return []
    text = done.stdout
    usage = re.search(r"\{([\w-]+(?:,[\w-]+)+|[\w-]+)\}", text)  # argparse: usage: cli.py {add,list} ...
    if usage:
        return usage.group(1).split(",")[:MOST]
    block = re.search(r"\nCommands:\n((?:  +\S.*\n?)+)", text)  # click
    return [line.split()[0] for line in block.group(1).splitlines()][:MOST] if block else []


before = baseline(ORIGINALS, True) if BASELINE else None
for rel in ENTRIES:
    had = before is not None and os.path.exists(os.path.join(before, rel))
    old = set(commands(before, rel)) if had else set()
    for name in commands(".", rel):
        now = error(".", run(".", [rel, name], 3))
        if not now:
            continue
        if name in old:
            then = error(before, run(before, [rel, name], 3))
            if then and kind(then) == kind(now):
                continue
            print(f"BROKEN python {rel} {name} fails: {now}; it ran before the run")
        elif kind(now) not in EXCUSED_NEW:
            print(f"BROKEN python {rel} {name} (new) fails: {now}")
"""
)
