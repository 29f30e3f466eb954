"""bench.crew's count of runs that copy the made-up task of the crew's prompt examples."""

from __future__ import annotations

import re

from agents.events import AgentFinished, ReviewVerdict, ToolCallStarted
from agents.roles import crew_charter
from bench.crew import EXAMPLE_WORDS, echoes_examples


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
        assert not re.search(rf"\b{word}\b", crew_charter()), word
