"""The crew's rule registry: every rule is named, reasoned, evidenced, tested, switchable, and
docs/crew.md says what the registry says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.rules.registry import RULES, markdown, parse_names, refuse_unknown, rule, switches, unlisted
from agents.rules.rounds.keep_best import keep_best
from agents.rules.rounds.plan_retries import plan_retries
from agents.rules.rule import RuleSwitches, Stage
from agents.rules.rule import rule as declare

ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_has_a_reason_evidence_that_exists_and_a_test_file_named_after_it() -> None:
    names = [r.name for r in RULES]
    assert len(names) == len(set(names)), "two rules share a name"
    for each in RULES:
        assert each.reason.strip(), each.name
        assert (ROOT / each.evidence).exists(), f"{each.name}: no {each.evidence}"
        assert (ROOT / each.test).is_file(), f"{each.name}: no {each.test}"
        assert each.test == f"tests/test_{each.name}.py", f"{each.name}: its test file is named after it"


FOLDER = {Stage.PROMPT: "prompt", Stage.PARSE: "parse", Stage.WRITE: "write", Stage.STATIC: "static",
          Stage.CHECKS: "checks", Stage.SETTLE: "settle", Stage.ROUNDS: "rounds"}  # fmt: skip


def test_every_rule_is_declared_in_a_file_of_its_stages_folder_and_listed_in_its_order() -> None:
    assert unlisted() == []
    for each in RULES:
        assert callable(each.function), each.name
        assert each.home.startswith(f"agents/rules/{FOLDER[each.stage]}/"), (each.name, each.home)
        assert (ROOT / each.home).is_file(), each.home


def test_a_rule_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        declare("keep_best", Stage.ROUNDS, reason="again", evidence="tests")(lambda: None)


def test_only_a_declared_rule_can_be_asked_about() -> None:
    with pytest.raises(TypeError, match="not a rule"):
        RuleSwitches().on(len)


def test_a_rule_switched_off_is_off_and_the_others_stay_as_they_were() -> None:
    off = switches(disabled=["keep_best"])
    assert not off.on(rule("keep_best")) and not off.on(keep_best)
    assert all(off.on(r) == r.default for r in RULES if r.name != "keep_best")
    assert switches(enabled=["plan_retries"]).on(plan_retries)
    assert not RuleSwitches().on(plan_retries)  # off unless asked for


def test_an_unknown_rule_name_is_refused_with_the_names_to_choose_from() -> None:
    with pytest.raises(ValueError, match="no such rule: keep_bset.*keep_best"):
        parse_names("keep_bset")
    with pytest.raises(ValueError, match="no such rule"):
        switches(disabled=["nope"])
    with pytest.raises(ValueError, match="no such rule"):
        refuse_unknown(RuleSwitches(disabled=frozenset({"nope"})))
    assert parse_names(" keep_best, plain_retry ,") == {"keep_best", "plain_retry"}


def test_docs_crew_md_is_generated_from_the_registry() -> None:
    on_disk = (ROOT / "docs" / "crew.md").read_text()
    assert on_disk.strip() == markdown().strip(), (
        "docs/crew.md is stale: python -m agents.rules.registry --markdown"
    )
    assert "Add a rule that refuses a write" in on_disk and "Change the round policy" in on_disk
    assert all(f"`{r.name}`" in on_disk for r in RULES)


def test_the_crew_benchmark_lists_the_registry_as_one_json_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.crew", "--list-rules", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    listed = json.loads(lines[0])["rules"]
    assert [r["name"] for r in listed] == [r.name for r in RULES]
    assert {r["stage"] for r in listed} == {str(s) for s in Stage}
    assert all({"reason", "evidence", "default", "test"} <= r.keys() for r in listed)


def test_a_benchmark_refuses_an_unknown_rule_before_loading_anything() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.humaneval", "--without", "no_such_rule", "--limit", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 2 and "no such rule: no_such_rule" in done.stderr
