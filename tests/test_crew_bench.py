"""bench.crew: the acceptance set's hidden tests are right, its counts add up, and its count of
runs that copy the made-up task of the crew's old prompt examples.

The hidden tests are graded against the reference solutions kept next to them (no model): a wrong
hidden test would fail a right answer, or pass the untouched workspace. The crew and the single
call run on a scripted engine (fixed replies), so no test depends on what a model writes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from agents.events import AgentFinished, ReviewVerdict, ToolCallStarted
from agents.llm.roles import checks_task, coder_task, planner_task
from agents.request import files_named_in
from agents.rules.write.edit_guard import definitions
from bench.crew import (
    EXAMPLE_WORDS,
    KINDS,
    REQUESTS_DIR,
    AcceptanceRequest,
    echoes_examples,
    load_requests,
    lost_in,
    main,
    merge,
    prepare_workspace,
    record,
    run_crew,
    run_hidden_test,
    run_single,
    summarize,
    write_results,
)
from tests.scripted_engine import ScriptedEngine, by_agent

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = load_requests()
BY_NAME = {r.name: r for r in REQUESTS}
# The library set (bench/library_requests/README.md): requests that need a standard-library API.
LIBRARY_DIR = ROOT / "bench" / "library_requests"
LIBRARY = load_requests(LIBRARY_DIR)
LIBRARY_MODULES = [
    "csv",
    "datetime",
    "argparse",
    "pathlib",
    "re",
    "json",
    "collections",
    "itertools",
    "statistics",
    "sqlite3",
]
GRADED = REQUESTS + LIBRARY
GRADED_IDS = [r.name for r in REQUESTS] + [f"library-{r.name}" for r in LIBRARY]
FENCE = "```"


def _coder_wrote(content: str) -> ToolCallStarted:
    return ToolCallStarted(
        call_id="1", agent="coder", name="write_file", arguments={"path": "primes.py", "content": content}
    )


def test_a_run_echoes_the_examples_where_the_request_did_not_ask_for_them() -> None:
    request = "Write primes.py with is_prime(n) and print the primes below 20."
    assert echoes_examples(request, [_coder_wrote("def is_prime(n):\n    pass\nprint(greet('Ann'))\n")])
    assert echoes_examples(request, [ReviewVerdict(round=1, approved=False, fixes=["greet.py: print it"])])
    assert echoes_examples(
        request, [AgentFinished(agent="planner", round=1, output='{"files": ["greet.py"]}', duration_s=1.0)]
    )
    assert not echoes_examples(request, [_coder_wrote("def is_prime(n):\n    return n > 1\n")])
    assert not echoes_examples(request, [_coder_wrote("Annual = 1\ngreeting = 'hi'\n")])  # whole words only


def test_a_request_that_asks_for_the_same_words_is_not_an_echo() -> None:
    request = 'Write greet.py with greet(name) returning "Hello, " + name; print greet("Ada").'
    assert not echoes_examples(request, [_coder_wrote("def greet(name):\n    return 'Hello, ' + name\n")])
    assert echoes_examples(request, [_coder_wrote("print(greet('Ann'))\n")])  # the name still is


def test_the_counted_words_are_no_longer_in_the_prompts() -> None:
    # The echo share now measures what is left of an example the prompts no longer show.
    for word in EXAMPLE_WORDS:
        prompts = coder_task("x", None, "") + checks_task("x", "def f()") + planner_task("x")
        assert not re.search(rf"\b{word}\b", prompts), word


# ---------- the acceptance set ----------


def test_the_set_has_at_least_30_requests_of_every_kind() -> None:
    assert len(REQUESTS) >= 30
    kinds = Counter(r.kind for r in REQUESTS)
    assert set(kinds) == set(KINDS), kinds
    assert min(kinds.values()) >= 4, kinds
    for r in REQUESTS:
        assert r.text and r.hidden_test.is_file() and r.reference.is_dir(), r.name
        assert files_named_in(r.text), f"{r.name}: the request names no file"


def test_edits_change_files_that_hold_definitions_which_must_survive() -> None:
    edits = [r for r in REQUESTS if r.kind == "edit"]
    assert len(edits) >= 6
    for r in edits:
        sources = [p.read_text() for p in r.files.glob("*.py")]
        assert sources, r.name
        assert max(len(definitions(s) or []) for s in sources) >= 3, r.name


def test_the_library_set_has_one_request_per_module_each_naming_it() -> None:
    assert [r.name.split("_")[2] for r in LIBRARY] == LIBRARY_MODULES
    assert {r.kind for r in LIBRARY} == {"new", "edit"}
    assert not {r.name for r in LIBRARY} & set(BY_NAME)  # graded() keys the results by name
    for r in LIBRARY:
        module = r.name.split("_")[2]
        assert r.hidden_test.is_file() and r.reference.is_dir(), r.name
        assert files_named_in(r.text), f"{r.name}: the request names no file"
        assert re.search(rf"\b{module}\b", r.text), f"{r.name}: the request does not name {module}"
        if r.kind == "edit":
            sources = [p.read_text() for p in r.files.glob("*.py")]
            assert sources and max(len(definitions(s) or []) for s in sources) >= 3, r.name


def test_requests_picks_the_set_to_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked: list[Path] = []
    monkeypatch.setattr("bench.crew.load_requests", lambda root: asked.append(root) or [])
    for argv in (["--requests", str(LIBRARY_DIR)], []):  # no request to run: it stops before a model
        with pytest.raises(SystemExit, match="no requests to run"):
            main([*argv, "--out", str(tmp_path)])
    assert asked == [LIBRARY_DIR, REQUESTS_DIR]


def test_data_requests_have_a_data_file_in_the_workspace() -> None:
    for r in (r for r in REQUESTS if r.kind == "data"):
        assert [p for p in r.files.iterdir() if p.suffix != ".py"], r.name


def _solved(request: AcceptanceRequest, folder: Path) -> dict[str, str]:
    before = prepare_workspace(request, folder)
    shutil.copytree(request.reference, folder, dirs_exist_ok=True)
    return before


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, tuple[bool, str]]]:
    """Every hidden test against its reference and against the untouched workspace, in one process."""
    argv = [sys.executable, "-m", "tests.crew_references", *(str(r.folder) for r in GRADED)]
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("request_", GRADED, ids=GRADED_IDS)
def test_the_hidden_test_passes_the_reference_and_fails_the_untouched_workspace(
    request_: AcceptanceRequest, graded: dict[str, dict[str, tuple[bool, str]]], tmp_path: Path
) -> None:
    passed, output = graded[request_.name]["solved"]
    assert passed, output
    passed, output = graded[request_.name]["untouched"]
    assert not passed, output
    before = _solved(request_, tmp_path)
    assert lost_in(before, tmp_path, request_.text) == {}  # the reference keeps what it must


def test_the_hidden_test_runs_in_the_sandbox(tmp_path: Path) -> None:
    request = BY_NAME["02_edit_fix_mean"]
    _solved(request, tmp_path / "solved")
    passed, output = run_hidden_test(tmp_path / "solved", request.hidden_test)
    assert passed, output
    prepare_workspace(request, tmp_path / "untouched")
    assert not run_hidden_test(tmp_path / "untouched", request.hidden_test)[0]


# ---------- the two ways on a scripted engine ----------


def blocks(*pairs: tuple[str, str]) -> str:
    """A coder reply: each file's path on its own line, then its content in a python block."""
    return "\n".join(f"{path}\n{FENCE}python\n{content}{FENCE}\n" for path, content in pairs)


def reference_reply(request: AcceptanceRequest) -> str:
    return blocks(*((p.name, p.read_text()) for p in sorted(request.reference.iterdir())))


def verdict(approved: bool) -> str:
    return json.dumps({"approved": approved, "fixes": []})


MEAN_ONLY = "def mean(numbers):\n    if not numbers:\n        raise ValueError\n"
MEAN_ONLY += "    return sum(numbers) / len(numbers)\n"


def test_single_writes_the_named_file_and_is_graded_by_the_hidden_test() -> None:
    request = BY_NAME["02_edit_fix_mean"]
    engine = ScriptedEngine([reference_reply(request)], parameter_count=494_000_000)
    single = run_single(engine, request)
    assert single.passed, single.test_output
    assert single.lost == {} and list(single.files) == ["mathx.py"]
    prompt = engine.calls[0].prompt
    assert request.text in prompt and "return total / (len(numbers) + 1)" in prompt  # the file as it is
    assert "test_mean" not in prompt  # the hidden test never reaches a prompt
    assert engine.calls[0].gen.temperature == 0.0


def test_single_counts_a_lost_definition_the_crew_would_refuse() -> None:
    request = BY_NAME["02_edit_fix_mean"]
    single = run_single(ScriptedEngine([blocks(("mathx.py", MEAN_ONLY))]), request)
    assert single.lost == {"mathx.py": ["square", "cube"]}
    assert not single.passed


def test_single_writes_only_the_files_the_request_names() -> None:
    request = BY_NAME["01_new_temperature"]
    reply = blocks(("other.py", "x = 1\n")) + reference_reply(request)
    single = run_single(ScriptedEngine([reply]), request)
    assert list(single.files) == ["temperature.py"] and single.passed


def test_the_crew_run_is_graded_and_its_transcript_has_each_reply_whole() -> None:
    request = BY_NAME["02_edit_fix_mean"]
    engine = ScriptedEngine(by_agent(coder=[reference_reply(request)], reviewer=[verdict(True)]))
    crew = run_crew(engine, request, rounds=1)
    assert crew.passed and crew.approved and not crew.false_approval, crew.test_output
    assert crew.lost == {} and list(crew.files) == ["mathx.py"]
    coder = [s for s in crew.steps if s["step"] == "agent" and s["agent"] == "coder"]
    assert coder and "return total / len(numbers)" in coder[0]["output"]
    assert any(s["step"] == "check" for s in crew.steps)
    assert "test_mean" not in "\n".join(c.prompt for c in engine.calls)


def test_a_reviewer_model_answers_the_reviewers_turns_only() -> None:
    request = BY_NAME["02_edit_fix_mean"]
    coder = ScriptedEngine(by_agent(coder=[reference_reply(request)]))
    reviewer = ScriptedEngine(by_agent(reviewer=[verdict(True)]))
    crew = run_crew(coder, request, rounds=1, reviewer=reviewer)
    assert crew.passed, crew.test_output
    assert {c.agent for c in coder.calls} == {"coder"} and {c.agent for c in reviewer.calls} == {"reviewer"}


def test_an_approved_run_that_fails_the_hidden_test_is_a_false_approval() -> None:
    request = BY_NAME["01_new_temperature"]
    wrong = "def c_to_f(c):\n    return c\n\n\ndef f_to_c(f):\n    return f\n"
    engine = ScriptedEngine(by_agent(coder=[blocks(("temperature.py", wrong))], reviewer=[verdict(True)]))
    crew = run_crew(engine, request, rounds=1)
    assert crew.approved and not crew.passed and crew.false_approval


def test_the_summary_counts_passes_false_approvals_and_lost_definitions() -> None:
    request = BY_NAME["02_edit_fix_mean"]
    right = ScriptedEngine(by_agent(coder=[reference_reply(request)], reviewer=[verdict(True)]))
    lossy = ScriptedEngine([blocks(("mathx.py", MEAN_ONLY))])
    rows = [record(request, run_crew(right, request, rounds=1), run_single(lossy, request))]
    result = summarize(rows, "scripted", rounds=1)
    assert (result["crew_passed"], result["single_passed"], result["false_approvals"]) == (1, 0, 0)
    assert (result["crew_lost_definitions"], result["single_lost_definitions"]) == (0, 1)
    assert result["by_kind"] == {"edit": {"requests": 1, "crew_passed": 1, "single_passed": 0}}


def test_runs_split_across_processes_merge_into_one_summary(tmp_path: Path) -> None:
    fix, new = BY_NAME["02_edit_fix_mean"], BY_NAME["01_new_temperature"]
    right = ScriptedEngine(by_agent(coder=[reference_reply(fix)], reviewer=[verdict(True)]))
    lossy = ScriptedEngine([blocks(("mathx.py", MEAN_ONLY))])
    wrong = "def c_to_f(c):\n    return c\n\n\ndef f_to_c(f):\n    return f\n"
    approves_wrong = ScriptedEngine(
        by_agent(coder=[blocks(("temperature.py", wrong))], reviewer=[verdict(True)])
    )
    single_new = ScriptedEngine([reference_reply(new)])
    parts = {
        "b": [record(fix, run_crew(right, fix, rounds=1), run_single(lossy, fix))],
        "a": [record(new, run_crew(approves_wrong, new, rounds=1), run_single(single_new, new))],
    }
    for name, rows in parts.items():
        (tmp_path / name).mkdir()
        write_results(tmp_path / name, summarize(rows, "scripted", rounds=1), rows)
    merge([tmp_path / "b", tmp_path / "a"], tmp_path / "all", as_json=False)
    merged = json.loads((tmp_path / "all" / "results.json").read_text())
    assert [r["request"] for r in merged["records"]] == ["01_new_temperature", "02_edit_fix_mean"]
    s = merged["summary"]
    assert (s["requests"], s["crew_passed"], s["single_passed"], s["false_approvals"]) == (2, 1, 1, 1)
    with pytest.raises(SystemExit, match="more than one run"):
        merge([tmp_path / "a", tmp_path / "all"], tmp_path / "again", as_json=False)
