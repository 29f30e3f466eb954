"""Rule checked_approval on runs already recorded: which approvals it takes back.

The rule changes only the label at a run's end (approved, or "every check passed, not approved"),
never what the crew does, so its effect on a recorded run is exact: read each crew transcript's
turns, the project's tests before the run (the first check, before round 1) and the last approved
round's checks, and apply agents.checked_approval.changes_shown to them.

    python bench/results/2026-11-27-checked-approval/from_transcripts.py DIR [DIR ...]

Prints one line per approved run and ends with one JSON line per folder and one for all.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from agents.checked_approval import changes_shown  # noqa: E402
from agents.tests_before import TestResults  # noqa: E402

_HEADER = re.compile(r"^### (.*)$", re.M)


def sections(text: str) -> list[tuple[str, str]]:
    """(header, body) of each '### ' section, in order."""
    marks = list(_HEADER.finditer(text))
    return [
        (m.group(1), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)])
        for i, m in enumerate(marks)
    ]


def turn_checked(turn: str) -> bool | None:
    """None: the turn was not approved; else whether its approval rests on a check of the change."""
    parts = sections(turn)
    verdicts = [i for i, (h, _) in enumerate(parts) if h.startswith("verdict:")]
    if not verdicts or not parts[verdicts[-1]][0].startswith("verdict: approved"):
        return None
    first_round = next((i for i, (h, _) in enumerate(parts) if h.startswith("round ")), len(parts))
    before_parts = [b for h, b in parts[:first_round] if h.startswith("check ") and "pytest" in h]
    before = TestResults.parse(before_parts[0]) if before_parts else None
    last = verdicts[-1]
    coder = max(i for i, (h, _) in enumerate(parts[:last]) if h.startswith("round ") and "coder" in h)
    checks = [(h, b) for h, b in parts[coder:last] if h.startswith("check ")]
    if len(checks) != 1 or "pytest" not in checks[0][0]:
        return True  # asserts ran beside the tests, or a project without tests: not this rule's
    return changes_shown(before, TestResults.parse(checks[0][1]))


def run(path: Path) -> dict | None:
    text = path.read_text()
    crew = text.split("\n## Single call", 1)[0]
    hidden = re.search(r"^## Crew: hidden test (PASSED|FAILED)", crew, re.M)
    if hidden is None:
        return None
    turns = re.split(r"\n- user: turn \d+:", crew)[1:] or [crew]
    found = [turn_checked(t) for t in turns]
    approved = bool(found) and all(f is not None for f in found)
    return {
        "run": f"{path.parent.name}/{path.stem}",
        "hidden_passed": hidden.group(1) == "PASSED",
        "approved": approved,
        "approved_with_rule": approved and all(found),
    }


def tally(runs: list[dict]) -> dict:
    def count(key: str, passed: bool) -> int:
        return sum(r[key] and r["hidden_passed"] == passed for r in runs)

    return {
        "runs": len(runs),
        "approvals": count("approved", True) + count("approved", False),
        "false_approvals": count("approved", False),
        "approvals_with_rule": count("approved_with_rule", True) + count("approved_with_rule", False),
        "false_approvals_with_rule": count("approved_with_rule", False),
        "right_approvals_taken_back": count("approved", True) - count("approved_with_rule", True),
    }


def main(folders: list[str]) -> None:
    everything = []
    for folder in folders:
        runs = [r for p in sorted(Path(folder).glob("*.md")) if p.name != "README.md" and (r := run(p))]
        for r in runs:
            if r["approved"]:
                kept = "kept" if r["approved_with_rule"] else "TAKEN BACK"
                print(f"{r['run']:60s} hidden {'pass' if r['hidden_passed'] else 'FAIL'}  approval {kept}")
        print(json.dumps({"folder": folder, **tally(runs)}))
        everything += runs
    print(json.dumps({"folder": "all", **tally(everything)}))


if __name__ == "__main__":
    main(sys.argv[1:])
