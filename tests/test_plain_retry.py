"""Rule plain_retry: after round 1's checks fail on a one-file request, one plain round more."""

from pathlib import Path

from tests.crew_script import FENCE, crew, files

WRONG = "def double(x):\n    return x + 3\n"
RIGHT = "def double(x):\n    return 3 * x\n"
REQUEST = "Make double(x) in util.py return three times x."
EXAMPLE = 'def double(x):\n    """Double.\n\n    >>> double(2)\n    6\n    """\n    return 2 * x\n'


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "util.py").write_text(EXAMPLE)
    replies = [files(("util.py", WRONG)), f"{FENCE}python\n{RIGHT}{FENCE}", files(("util.py", RIGHT))]
    return crew(tmp_path, REQUEST, coder=replies, rounds=2, without=without)


def test_the_second_round_asks_as_one_plain_call_would(tmp_path: Path) -> None:
    summary, _, engine = _run(tmp_path, frozenset())
    second = engine.calls_of("coder")[1]
    assert [m["role"] for m in second.messages] == ["user"] and second.gen.temperature == 0
    assert summary.rounds_used == 2


def test_switched_off_the_second_round_is_a_sampled_crew_try(tmp_path: Path) -> None:
    _, _, engine = _run(tmp_path, frozenset({"plain_retry"}))
    second = engine.calls_of("coder")[1]
    assert second.messages[0]["role"] == "system" and second.gen.temperature > 0
