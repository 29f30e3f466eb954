"""The crew's rule registry: every rule is named, reasoned, evidenced, tested, switchable, and
docs/crew.md says what the registry says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.rules.registry import RULES, RuleSwitches, Stage, markdown, parse_names, rules_of

ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_has_a_reason_evidence_that_exists_and_a_test_file_named_after_it() -> None:
    names = [r.name for r in RULES]
    assert len(names) == len(set(names)), "two rules share a name"
    for rule in RULES:
        assert rule.reason.strip(), rule.name
        assert (ROOT / rule.evidence).exists(), f"{rule.name}: no {rule.evidence}"
        assert (ROOT / rule.test).is_file(), f"{rule.name}: no {rule.test}"
        assert rule.test == f"tests/test_{rule.name}.py", f"{rule.name}: its test file is named after it"


def test_the_iterated_stages_name_a_function_for_every_rule() -> None:
    for stage in (Stage.WRITE, Stage.STATIC):
        for rule in rules_of(stage):
            assert callable(rule.function()), rule.name
    for rule in RULES:
        if rule.stage not in (Stage.WRITE, Stage.STATIC):
            assert not rule.apply, f"{rule.name}: its stage asks by name; `apply` would never run"


def test_a_rule_switched_off_is_off_and_the_others_stay_as_they_were() -> None:
    switches = RuleSwitches(disabled=frozenset({"keep_best"}))
    assert not switches.on("keep_best")
    assert all(switches.on(r.name) == r.default for r in RULES if r.name != "keep_best")
    assert RuleSwitches(enabled=frozenset({"plan_retries"})).on("plan_retries")
    assert not RuleSwitches().on("plan_retries")  # off unless asked for


def test_an_unknown_rule_name_is_refused_with_the_names_to_choose_from() -> None:
    with pytest.raises(ValueError, match="no such rule: keep_bset.*keep_best"):
        parse_names("keep_bset")
    with pytest.raises(ValueError, match="no such rule"):
        RuleSwitches(disabled=frozenset({"nope"}))
    assert parse_names(" keep_best, plain_retry ,") == {"keep_best", "plain_retry"}


def test_docs_crew_md_is_generated_from_the_registry() -> None:
    on_disk = (ROOT / "docs" / "crew.md").read_text()
    assert on_disk.strip() == markdown().strip(), (
        "docs/crew.md is stale: python -m agents.rules.registry --markdown"
    )
    assert "Where does a rule that rejects X go?" in on_disk
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
