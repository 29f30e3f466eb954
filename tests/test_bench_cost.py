"""bench.crew and bench.sealed print, per model, the figure that decides between models: passes, the
median seconds a request and the seconds per solved request, for the crew and the one call."""

from __future__ import annotations

from typing import Any

from bench.crew import cost_figures, cost_line


def _rows(crew: list[tuple[bool, float]], single: list[tuple[bool, float]]) -> list[dict[str, Any]]:
    return [
        {"crew": {"passed": c[0], "seconds": c[1]}, "single": {"passed": s[0], "seconds": s[1]}}
        for c, s in zip(crew, single, strict=True)
    ]


def test_seconds_per_solved_request_is_all_seconds_over_the_passes() -> None:
    rows = _rows([(True, 100.0), (False, 120.0), (True, 90.0)], [(False, 10.0), (False, 30.0), (True, 20.0)])
    assert cost_figures(rows, "crew") == {"crew_median_seconds": 100.0, "crew_seconds_per_solved": 155.0}
    assert cost_figures(rows, "single") == {"single_median_seconds": 20.0, "single_seconds_per_solved": 60.0}
    assert cost_figures(_rows([(False, 5.0)], [(False, 1.0)]), "crew")["crew_seconds_per_solved"] is None


def test_the_issue_s_figures_read_as_a_line_per_model() -> None:
    # 12 requests: the 0.5B's crew passes 3 at 45 s each, the 1.5B's 8 at 113 s each.
    small = _rows([(i < 3, 45.0) for i in range(12)], [(i < 2, 12.0) for i in range(12)])
    large = _rows([(i < 8, 113.0) for i in range(12)], [(i < 8, 30.0) for i in range(12)])
    lines = []
    for model, rows in (("0.5b.gguf", small), ("1.5b.gguf", large)):
        result = {
            "model": model,
            "requests": 12,
            **cost_figures(rows, "crew"),
            **cost_figures(rows, "single"),
        }
        result |= {way + "_passed": sum(r[way]["passed"] for r in rows) for way in ("crew", "single")}
        lines.append(cost_line(result))
    assert lines[0] == (
        "cost on 0.5b.gguf: crew 3/12 passed, median 45 s a request, 180 s per solved request; "
        "one call 2/12 passed, median 12 s a request, 72 s per solved request"
    )
    assert "crew 8/12 passed, median 113 s a request, 170 s per solved request" in lines[1]


def test_both_benches_print_the_cost_line() -> None:
    from bench import crew, sealed

    rows = [
        {"request": "01_x", "kind": "edit", "turns": 1,
         "crew": {"passed": True, "seconds": 40.0, "lost": {}, "tests_changed": [], "files": [],
                  "approved": True, "turns_approved": [True], "false_approval": False, "rounds": 1,
                  "echoes": False},
         "single": {"passed": False, "seconds": 8.0, "lost": {}, "tests_changed": [], "files": []}},
    ]  # fmt: skip
    crew_lines = crew.summary_lines(crew.summarize(rows, "m.gguf", 1), rows)
    sealed_lines = sealed.summary_lines(sealed.summarize(rows, "dev", "m.gguf", 1))
    expected = (
        "cost on m.gguf: crew 1/1 passed, median 40 s a request, 40 s per solved request; "
        "one call 0/1 passed, median 8 s a request, none solved"
    )
    assert expected in crew_lines and expected in sealed_lines
