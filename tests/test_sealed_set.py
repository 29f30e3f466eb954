"""The sealed set (bench/sealed_requests): every hidden test is right, and bench.sealed counts.

Three sets: the dev and sealed halves (the same mix of seven kinds) and the fresh set of issue 55
(failing, cross, followup). The shape and grading checks run on all three.

Each hidden test is graded against its reference (files/ with reference/ over them: must pass) and
against the untouched project (must fail: the request asks for a real change), all requests in one
pytest process (tests.crew_references, as for bench.crew's set). The runner's logic runs on a
scripted engine, so no test depends on what a model writes; no model ever runs on the sealed half
here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from agents.request import files_named_in
from agents.rules.registry import RuleSwitches
from bench.crew import Outcome, load_requests, lost_in, prepare_workspace
from bench.sealed import (
    FRESH_KINDS,
    KINDS,
    Graded,
    SealedRequest,
    is_user_test,
    load_set,
    main,
    record,
    run_crew_turns,
    run_single_turns,
    summarize,
    user_tests_changed,
)
from tests.scripted_engine import ScriptedEngine, agent_of, by_agent

ROOT = Path(__file__).resolve().parent.parent
DEV, SEALED, FRESH = load_set("dev"), load_set("sealed"), load_set("fresh")
EVERY = DEV + SEALED + FRESH
IDS = [f"{r.folder.parent.name}/{r.name}" for r in EVERY]
FENCE = "```"


# ---------- the set's shape ----------


def test_two_halves_of_20_with_the_same_mix_of_kinds() -> None:
    assert len(DEV) == len(SEALED) == 20
    dev, sealed = Counter(r.kind for r in DEV), Counter(r.kind for r in SEALED)
    assert dev == sealed and set(dev) == set(KINDS), (dev, sealed)
    assert min(dev.values()) >= 2


def test_the_fresh_set_has_ten_of_each_of_its_three_kinds() -> None:
    # Issue 55: 30 requests, at least 10 "fix the failing test", 10 across files, 10 follow-ups.
    fresh = Counter(r.kind for r in FRESH)
    assert fresh == dict.fromkeys(FRESH_KINDS, 10), fresh


def test_every_request_has_its_parts() -> None:
    for r in EVERY:
        assert r.turns and all(r.turns), r.name
        assert r.hidden_test.is_file() and r.reference.is_dir() and r.files.is_dir(), r.name
        assert any(r.reference.rglob("*")), r.name


def test_projects_have_3_to_6_files_and_their_own_tests() -> None:
    for r in EVERY:
        files = [p.relative_to(r.files).as_posix() for p in r.files.rglob("*") if p.is_file()]
        assert 3 <= len(files) <= 6, (r.name, files)
        assert any(is_user_test(f) for f in files), r.name


def test_follow_ups_have_two_or_three_turns_and_the_others_one() -> None:
    for r in EVERY:
        if r.kind == "followup":
            assert 2 <= len(r.turns) <= 3, r.name
        else:
            assert len(r.turns) == 1 and (r.folder / "request.txt").is_file(), r.name
    for half in (DEV, SEALED, FRESH):
        assert {len(r.turns) for r in half if r.kind == "followup"} == {2, 3}


def test_requests_of_kind_noname_name_no_file() -> None:
    for r in EVERY:
        if r.kind == "noname":
            assert files_named_in(r.text) == [], r.name


def test_data_requests_have_a_data_file() -> None:
    for r in EVERY:
        if r.kind == "data":
            assert [p for p in r.files.rglob("*") if p.is_file() and p.suffix != ".py"], r.name


def test_no_request_is_one_of_the_acceptance_sets() -> None:
    acceptance = {a.text.strip().lower() for a in load_requests()}
    for r in EVERY:
        assert not any(t.strip().lower() in acceptance for t in r.turns), r.name


# ---------- the hidden tests against the references ----------


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, tuple[bool, str]]]:
    """Every hidden test against its reference and against the untouched project, in one process."""
    argv = [sys.executable, "-m", "tests.crew_references", *(str(r.folder) for r in EVERY)]
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _solved(request: SealedRequest, folder: Path) -> dict[str, str]:
    before = prepare_workspace(request.as_acceptance(), folder)
    shutil.copytree(request.reference, folder, dirs_exist_ok=True)
    return before


@pytest.mark.parametrize("request_", EVERY, ids=IDS)
def test_the_hidden_test_passes_the_reference_and_fails_the_untouched_project(
    request_: SealedRequest, graded: dict[str, dict[str, tuple[bool, str]]], tmp_path: Path
) -> None:
    passed, output = graded[request_.name]["solved"]
    assert passed, output
    passed, output = graded[request_.name]["untouched"]
    assert not passed, output
    before = _solved(request_, tmp_path)
    assert lost_in(before, tmp_path, request_.text) == {}  # the reference keeps what it must
    assert user_tests_changed(request_, tmp_path) == []  # and never touches the user's tests


def test_names_are_unique_across_the_sets() -> None:
    names = [r.name for r in EVERY]
    assert len(set(names)) == len(names)  # the grader's results are keyed by name


# ---------- the runner on a scripted engine ----------


def blocks(*pairs: tuple[str, str]) -> str:
    """A coder reply: each file's path on its own line, then its content in a block."""
    return "\n".join(f"{path}\n{FENCE}python\n{content}{FENCE}\n" for path, content in pairs)


def reference_reply(request: SealedRequest) -> str:
    return blocks(*((p.name, p.read_text()) for p in sorted(request.reference.iterdir())))


def verdict(approved: bool) -> str:
    return json.dumps({"approved": approved, "fixes": []})


def both_ways(crew: dict[str, list[str]], single: list[str]) -> ScriptedEngine:
    """One engine for the crew's agents and the single call (whose system prompt names no agent)."""
    crew_script = by_agent(**crew)
    pending = list(single)

    def script(messages: list[dict[str, str]]) -> str:
        return pending.pop(0) if agent_of(messages) is None else crew_script(messages)

    return ScriptedEngine(script, parameter_count=494_000_000)


def _invoice_without_tax(request: SealedRequest) -> str:
    text = (request.reference / "invoice.py").read_text()
    return text.split("def tax")[0]  # drops tax and grand_total: lost definitions


def test_the_cli_runs_the_first_dev_request_and_ends_with_its_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = DEV[0]
    engine = both_ways(
        {"coder": [reference_reply(first)], "reviewer": [verdict(True)]},
        [blocks(("invoice.py", _invoice_without_tax(first)))],
    )
    argv = ["--set", "dev", "--limit", "1", "--rounds", "1", "--json", "--out", str(tmp_path)]
    assert main(argv, engine=engine) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert (result["bench"], result["set"], result["requests"]) == ("sealed-set", "dev", 1)
    assert (result["crew_passed"], result["single_passed"], result["points"]) == (1, 0, 100.0)
    assert (result["false_approvals"], result["crew_tests_changed"], result["crew_lost_definitions"]) == (
        0,
        0,
        0,
    )
    assert result["single_lost_definitions"] == 1 and result["date"] and result["commit"]
    # The one call dropped tax and grand_total: the project's tests of them no longer import.
    assert (result["crew_left_worse"], result["single_left_worse"]) == (0, 1)
    assert result["by_kind"] == {"edit": {"requests": 1, "crew_passed": 1, "single_passed": 0}}
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["summary"] == result and saved["records"][0]["request"] == first.name
    assert (tmp_path / f"{first.name}.md").is_file()


def _by_name(name: str) -> SealedRequest:
    return next(r for r in DEV if r.name == name)


def test_a_follow_up_runs_its_turns_in_one_workspace_both_ways() -> None:
    request = _by_name("04_followup_grades_median")
    assert len(request.turns) == 2
    full = (request.reference / "grades.py").read_text()
    first = (request.files / "grades.py").read_text() + (
        "\n\ndef median(scores):\n    s = sorted(scores)\n    m = len(s) // 2\n"
        "    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2\n"
    )
    turns = [blocks(("grades.py", first)), blocks(("grades.py", full))]
    engine = both_ways({"coder": turns, "reviewer": [verdict(True), verdict(True)]}, turns)
    # The project's tests pass before and after each turn: checked_approval would call neither turn
    # approved (tests/test_checked_approval.py); here the turns' own verdicts are what is counted.
    crew = run_crew_turns(engine, request, rounds=1, rules=RuleSwitches(frozenset({"checked_approval"})))
    assert crew.outcome.passed, crew.outcome.test_output
    assert crew.turns_approved == [True, True] and crew.outcome.approved, crew.outcome.message
    single = run_single_turns(engine, request)
    assert single.outcome.passed, single.outcome.test_output
    singles = [c for c in engine.calls if c.agent is None]
    assert len(singles) == 2
    second = singles[1]
    assert request.turns[0] in second.prompt  # the earlier request, as the chat's history
    assert request.turns[1] in second.messages[-1]["content"]
    assert "def median" in second.messages[-1]["content"]  # the project as turn 1 left it
    assert "test_hidden" not in "\n".join(c.prompt for c in engine.calls)


def _graded(passed: bool, approved: bool = False, touched: tuple[str, ...] = ()) -> Graded:
    outcome = Outcome(passed=passed, seconds=2.0, test_output="", files={}, lost={}, approved=approved)
    return Graded(outcome, list(touched), [approved])


def test_the_summary_counts_false_approvals_and_changed_tests() -> None:
    # The crew's side of a false approval on a real run: test_the_cli_runs_... covers the right one.
    fix, follow = DEV[0], _by_name("04_followup_grades_median")
    rows = [
        record(fix, _graded(False, approved=True), _graded(True)),
        record(follow, _graded(True, approved=True), _graded(False, touched=("test_grades.py",))),
    ]
    assert rows[0]["crew"]["false_approval"] and not rows[1]["crew"]["false_approval"]
    assert rows[1]["turns"] == 2 and rows[1]["single"]["tests_changed"] == ["test_grades.py"]
    result = summarize(rows, "dev", "scripted", 1)
    assert (result["crew_passed"], result["single_passed"], result["points"]) == (1, 1, 0.0)
    assert (result["false_approvals"], result["false_approval_rate"], result["crew_approved"]) == (1, 0.5, 2)
    assert (result["crew_tests_changed"], result["single_tests_changed"]) == (0, 1)
    assert result["crew_seconds"] == 4.0 and set(result["by_kind"]) == {"edit", "followup"}


def test_a_changed_or_deleted_user_test_is_found(tmp_path: Path) -> None:
    request = DEV[0]
    prepare_workspace(request.as_acceptance(), tmp_path)
    assert user_tests_changed(request, tmp_path) == []
    (tmp_path / "test_invoice.py").write_text("def test_nothing():\n    pass\n")
    assert user_tests_changed(request, tmp_path) == ["test_invoice.py"]
    (tmp_path / "test_invoice.py").unlink()
    assert user_tests_changed(request, tmp_path) == ["test_invoice.py"]


def test_what_counts_as_a_user_test() -> None:
    for rel in ("test_cart.py", "cart_test.py", "tests/helpers.py", "pkg/tests/data.json", "conftest.py"):
        assert is_user_test(rel), rel
    for rel in ("cart.py", "testing.py", "contest.py", "test_data.csv", "latest.py"):
        assert not is_user_test(rel), rel
