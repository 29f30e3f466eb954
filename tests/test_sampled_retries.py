"""Rule sampled_retries: retries are sampled (seeded), not greedy: greedy repeats itself."""

from pathlib import Path

from tests.crew_script import crew, files

WRONG = "def add(a, b):\n    return a - b\n"
REQUEST = "Write calc.py with add(a, b) and print add(2, 3)."


def _temperatures(tmp_path: Path, without: frozenset[str]) -> list[float]:
    off = without | {"reviewer_checks", "plain_retry"}
    _, _, engine = crew(tmp_path, REQUEST, coder=[files(("calc.py", WRONG))] * 3, rounds=3, without=off)
    return [c.gen.temperature for c in engine.calls_of("coder")]


def test_retries_are_sampled_with_a_seed_each(tmp_path: Path) -> None:
    first, *retries = _temperatures(tmp_path, frozenset())
    assert first == 0 and retries and all(t > 0 for t in retries)


def test_switched_off_retries_are_greedy(tmp_path: Path) -> None:
    assert set(_temperatures(tmp_path, frozenset({"sampled_retries"}))) == {0}
