"""bench.ablation: each rule switched off alone, compared item by item with the baseline."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.ablation import DONE, Outcome, chosen_rules, command, compare, main, outcomes


def _humaneval(folder: Path, passed: dict[str, bool]) -> None:
    folder.mkdir(parents=True)
    rows = [{"task_id": t, "mode": "crew", "passed": p, "seconds": 10.0} for t, p in passed.items()]
    rows.append({"task_id": "HumanEval/0", "mode": "single", "passed": True, "seconds": 1.0})
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_won_and_lost_are_counted_against_the_baseline() -> None:
    base = {"a": Outcome(True, 10.0), "b": Outcome(False, 20.0), "c": Outcome(True, 30.0)}
    off = {k: Outcome(p, 5.0) for k, p in {"a": False, "b": True, "c": True, "d": True}.items()}
    row = compare("keep_best", base, off)
    assert (row.passed, row.items, row.won, row.lost, row.seconds_per_item) == (2, 3, ["b"], ["a"], 5.0)


def test_a_finished_ablation_is_read_not_run_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _humaneval(tmp_path / "baseline", {"HumanEval/0": True, "HumanEval/1": False})
    (tmp_path / "baseline" / DONE).touch()
    _humaneval(tmp_path / "keep_best", {"HumanEval/0": False, "HumanEval/1": False})  # every item: done
    assert (
        main(["--bench", "humaneval", "--rules", "keep_best", "--out", str(tmp_path), "--", "--limit", "2"])
        == 0
    )
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    [base, off] = last["rows"]
    assert (base["passed"], off["passed"], off["lost"]) == (1, 0, ["HumanEval/0"])
    assert "| keep_best | 0 / 2 | 0 | 1 (HumanEval/0) | 1 |" in (tmp_path / "README.md").read_text()


def test_an_item_that_ended_otherwise_counts_as_changed_though_it_passes_both_ways() -> None:
    base = {
        "a": Outcome(True, 1.0, "code 1"),
        "b": Outcome(True, 1.0, "code 2"),
        "c": Outcome(False, 1.0, "code 3"),
    }
    off = {
        "a": Outcome(True, 2.0, "code 1"),
        "b": Outcome(True, 1.0, "other code"),
        "c": Outcome(False, 9.0, "code 3"),
    }
    row = compare("example_usage", base, off)
    assert (row.won, row.lost, row.changed) == ([], [], ["b"])  # seconds alone change nothing


def test_a_stopped_configuration_runs_again_and_a_finished_one_is_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    _humaneval(tmp_path / "baseline", {"HumanEval/0": True, "HumanEval/1": False})
    (tmp_path / "baseline" / DONE).touch()
    _humaneval(tmp_path / "keep_best", {"HumanEval/0": False})  # stopped after one of two problems
    ran: list[list[str]] = []

    def run(argv: list[str], check: bool = False) -> subprocess.CompletedProcess[str]:
        ran.append(argv)
        with (tmp_path / "keep_best" / "records.jsonl").open("a") as out:  # the rest of the problems
            out.write(
                json.dumps({"task_id": "HumanEval/1", "mode": "crew", "passed": True, "seconds": 1.0}) + "\n"
            )
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(subprocess, "run", run)
    main(["--bench", "humaneval", "--rules", "keep_best", "--out", str(tmp_path), "--", "--limit", "2"])
    assert len(ran) == 1 and ran[0][-2:] == ["--without", "keep_best"]  # the baseline was not run again
    assert (tmp_path / "keep_best" / DONE).is_file()
    assert "| keep_best | 1 / 2 | 1 (HumanEval/1) | 1 (HumanEval/0) |" in (tmp_path / "README.md").read_text()


def test_the_sealed_set_results_are_read_per_request(tmp_path: Path) -> None:
    records = [{"request": "01_edit", "crew": {"passed": True, "seconds": 3.0}, "single": {"passed": False}}]
    (tmp_path / "results.json").write_text(json.dumps({"summary": {}, "records": records}))
    assert outcomes("sealed", tmp_path)["01_edit"][:2] == (True, 3.0)  # type: ignore[index]
    assert outcomes("sealed", tmp_path / "none") is None


def test_each_configuration_runs_the_benchmark_with_one_rule_off(tmp_path: Path) -> None:
    argv = command("humaneval", tmp_path, "keep_best", ["--limit", "82"])
    assert argv[:3] == [sys.executable, "-m", "bench.humaneval"]
    assert argv[-2:] == ["--without", "keep_best"] and "--mode" in argv and "--json" in argv
    assert "--without" not in command("sealed", tmp_path, None, ["--set", "dev"])
    with pytest.raises(SystemExit, match="unknown rule"):
        chosen_rules("keep_best,no_such_rule")
    assert "keep_best" in chosen_rules("all") and "plan_retries" not in chosen_rules("all")  # off by default


def test_with_the_cache_each_configuration_runs_under_bench_replay_sharing_one_file(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    argv = command("crew", tmp_path / "keep_best", "keep_best", ["--limit", "3"], calls)
    assert argv[1:7] == ["-m", "bench.replay", "cache", str(calls), "--", "-m"]
    assert argv[7] == "bench.crew" and argv[-2:] == ["--without", "keep_best"]
