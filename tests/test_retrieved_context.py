"""Rule retrieved_context: code found by search is shown when no file is."""

from pathlib import Path

from tests.crew_script import crew, files

CODE = "def total(xs):\n    return sum(xs)\n"


def _coder_prompt(tmp_path: Path, without: frozenset[str]) -> str:
    (tmp_path / "money.py").write_text("def to_cents(amount):\n    return round(amount * 100)\n")
    _, _, engine = crew(
        tmp_path, "Write cart.py whose total uses to_cents for each amount.",
        coder=[files(("cart.py", CODE))], without=without | {"small_project_files"},
    )  # fmt: skip
    return engine.calls_of("coder")[0].prompt


def test_the_code_search_finds_is_shown(tmp_path: Path) -> None:
    prompt = _coder_prompt(tmp_path, frozenset())
    assert "Relevant code:" in prompt and "def to_cents" in prompt


def test_switched_off_it_is_not(tmp_path: Path) -> None:
    prompt = _coder_prompt(tmp_path, frozenset({"retrieved_context"}))
    assert "Relevant code:" not in prompt and "def to_cents" not in prompt
