"""Rule follow_up_memory: a follow-up is shown the previous request and the files it changed."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.run.state import RunState
from tools.run_snapshot import RunInfo


@rule(
    "follow_up_memory",
    Stage.PROMPT,
    reason="a follow-up is shown the previous request and the files it changed",
    evidence="tests/test_follow_up_memory.py",
)
def follow_up_memory(state: RunState, previous: RunInfo, files: list[str]) -> None:
    """A follow-up ("now make it ignore case") means the previous run's files: name them, and
    show them to the coder when the request names none itself. A request that names files of
    its own, none of them the previous run's, starts a new topic: told of the previous request
    ("make count_words ignore punctuation"), the 0.5B's fix of mean() in stats.py stripped
    punctuation from the numbers."""
    # A previous run that wrote nothing was about the files it followed, if it followed any.
    earlier = [f for f in previous.files_written or previous.followed if f in files]
    # A data file named is what the code reads, not a new topic: "Add that test again, but write
    # the CSV with (tmp_path / 'marks.csv')" lost the test file it followed up on.
    named = [f for f in state.facts.files if f.endswith(".py")]
    if named and not any(f in earlier for f in named):  # a new topic
        return
    state.earlier = [f for f in earlier if f.endswith(".py")][:3]
    what = "It changed" if previous.files_written else "It changed nothing; it was about"
    state.memory = (
        f"Previous request in this project: {previous.label[:300]}\n"
        f"{what}: {', '.join(earlier) or 'no file'}."
    )
