"""The README stays a user's page, and what it and docs/benchmarks.md point at is there.

The README is capped at 400 lines: experiment logs go to their own folder under bench/results/
(a README each), the method and current figures to docs/benchmarks.md. A link to a results folder
that was renamed or never committed would leave a figure without its evidence, so every relative
link of both pages, and every bench/results path they name in the text, must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
PAGES = [README, BENCHMARKS]
MAX_README_LINES = 400

LINK = re.compile(r"\]\(([^)\s]+)\)")  # [text](target) and ![alt](target)
RESULTS_PATH = re.compile(r"bench/results/[A-Za-z0-9._/-]*[A-Za-z0-9_/-]")  # named in text or code


def _links(text: str) -> list[str]:
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def _local_target(page: Path, target: str) -> Path:
    return (page.parent / target.split("#", 1)[0]).resolve()


def test_the_readme_is_at_most_400_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_README_LINES}): move experiment logs to "
        "bench/results/<dated folder>/README.md and figures to docs/benchmarks.md"
    )


def test_the_first_two_commands_are_the_launcher() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block is not None, "README.md starts with no bash block"
    commands = [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands[:2] == ["./launch.sh", "./launch.sh test"]
    assert (ROOT / "launch.sh").exists() and (ROOT / "launch.bat").exists()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = [target for target in _links(text) if not _local_target(page, target).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to what is not there: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_results_folder_named_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = {match.rstrip("/") for match in RESULTS_PATH.findall(text)}
    named |= {
        str(_local_target(page, target).relative_to(ROOT))
        for target in _links(text)
        if "bench/results" in str(_local_target(page, target))
    }
    # A path a page shows as the output of a command to run (bench.humaneval --out ...) is not a
    # claim that it exists; those are marked in the page as `--out bench/results/...`.
    produced = {match.rstrip("/") for match in re.findall(r"--out (bench/results/\S+)", text)}
    missing = sorted(path for path in named - produced if not (ROOT / path).exists())
    assert not missing, f"{page.relative_to(ROOT)} names results that are not there: {missing}"


def test_every_linked_results_folder_has_its_own_readme() -> None:
    folders = {
        _local_target(page, target)
        for page in PAGES
        for target in _links(page.read_text(encoding="utf-8"))
        if "bench/results/" in str(_local_target(page, target))
    }
    runs = {path.parent if path.name == "README.md" else path for path in folders}
    runs.discard(ROOT / "bench" / "results")
    lacking = sorted(
        str(run.relative_to(ROOT)) for run in runs if run.is_dir() and not (run / "README.md").exists()
    )
    assert not lacking, f"results folders without a README.md: {lacking}"


def test_the_results_readmes_link_to_what_is_there() -> None:
    missing = [
        f"{readme.relative_to(ROOT)} -> {target}"
        for readme in sorted((ROOT / "bench" / "results").glob("*/README.md"))
        for target in _links(readme.read_text(encoding="utf-8"))
        if not _local_target(readme, target).exists()
    ]
    assert not missing, missing
