"""Per-problem records in, summary JSON, markdown table and PNG chart out.

The summary is always rebuilt from every record in the JSONL for the model, so a resumed or
extended run reports everything measured so far. HumanEval's first 82 problems (0-81) were used
to tune the harness and the crew; 82-163 are the held-out half and are shown on their own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DEV_END = 82  # problems 0-81 tune; 82-163 are held out
MODES = ("single", "crew")


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every complete line of the JSONL; a line cut off by a killed run is skipped (it reruns)."""
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def latest(records: list[dict[str, Any]], mode: str, model: str) -> list[dict[str, Any]]:
    """One record per problem for this mode and model (the last one written), in problem order."""
    rows = {r["task_id"]: r for r in records if r["mode"] == mode and r["model"] == model}
    return sorted(rows.values(), key=lambda r: r["index"])


def _rate(records: list[dict[str, Any]]) -> dict[str, Any]:
    passed = sum(bool(r["passed"]) for r in records)
    return {
        "problems": len(records),
        "passed": passed,
        "pass_at_1": round(passed / len(records), 4) if records else None,
    }


def _mean(records: list[dict[str, Any]], key: str) -> float | None:
    return round(sum(r[key] for r in records) / len(records), 2) if records else None


def summarize(records: list[dict[str, Any]], model: str, settings: dict[str, Any]) -> dict[str, Any]:
    """pass@1 for all problems and each half, seconds and tokens per problem, for each mode."""
    modes: dict[str, Any] = {}
    for mode in MODES:
        rows = latest(records, mode, model)
        if not rows:
            continue
        modes[mode] = {
            "all": _rate(rows),
            "dev_0_81": _rate([r for r in rows if r["index"] < DEV_END]),
            "heldout_82_163": _rate([r for r in rows if r["index"] >= DEV_END]),
            "seconds_per_problem": _mean(rows, "seconds"),
            "tokens_per_problem": _mean(rows, "tokens"),
            "llm_calls_per_problem": _mean(rows, "llm_calls"),
            "rounds_per_problem": _mean(rows, "rounds"),
            # Only the crew runs the examples; a single call's record has none to count.
            "examples_all_passed": sum(0 < r["examples_total"] <= r["examples_passed"] for r in rows),
        }
    summary: dict[str, Any] = {"bench": "humaneval", "model": model, "settings": settings, "modes": modes}
    if "single" in modes and "crew" in modes:
        # Points of pass@1 on the problems both modes have done, so a partial run compares like with like.
        both = {r["task_id"] for r in records if r["mode"] == "single" and r["model"] == model}
        both &= {r["task_id"] for r in records if r["mode"] == "crew" and r["model"] == model}
        rate = {
            mode: _rate([r for r in latest(records, mode, model) if r["task_id"] in both]) for mode in MODES
        }
        if both:
            summary["crew_minus_single_points"] = round(
                100 * (rate["crew"]["pass_at_1"] - rate["single"]["pass_at_1"]), 2
            )
            summary["compared_problems"] = len(both)
    return summary


def _pct(rate: dict[str, Any]) -> str:
    if not rate["problems"]:
        return "-"
    return f"{100 * rate['pass_at_1']:.1f}% ({rate['passed']}/{rate['problems']})"


def markdown(summary: dict[str, Any]) -> str:
    lines = [
        f"HumanEval pass@1, model `{summary['model']}`, temperature 0, "
        f"seed {summary['settings'].get('seed')}, crew rounds {summary['settings'].get('rounds')}"
        # the bench-only procedure (gone since 2026-11-23) branched; the product's crew does not
        + (f", branches {summary['settings']['branches']}" if summary["settings"].get("branches") else "")
        + "".join(f", without {n}" for n in summary["settings"].get("rules", {}).get("without", []))
        + "".join(f", with {n}" for n in summary["settings"].get("rules", {}).get("with", []))
        + (", the planner planning each retry" if summary["settings"].get("plan_retries") else ""),
        "",
        "| mode | all | dev 0-81 | held-out 82-163 | s/problem | tokens/problem | LLM calls/problem |",
        "|---|---|---|---|---|---|---|",
    ]
    for mode, m in summary["modes"].items():
        lines.append(
            f"| {mode} | {_pct(m['all'])} | {_pct(m['dev_0_81'])} | {_pct(m['heldout_82_163'])} "
            f"| {m['seconds_per_problem']} | {m['tokens_per_problem']} | {m['llm_calls_per_problem']} |"
        )
    if "crew_minus_single_points" in summary:
        lines += [
            "",
            f"crew - single: {summary['crew_minus_single_points']:+.1f} points of pass@1 "
            f"on the {summary['compared_problems']} problems both modes ran.",
        ]
    return "\n".join(lines) + "\n"


def chart(summary: dict[str, Any], path: Path) -> None:
    """Two panels: pass@1 per mode (all, dev, held-out), and seconds per problem per mode."""
    import matplotlib

    matplotlib.use("Agg")  # no display: the chart is a file
    import matplotlib.pyplot as plt

    modes = list(summary["modes"])
    parts = [("all", "all"), ("dev_0_81", "dev 0-81"), ("heldout_82_163", "held-out 82-163")]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    width = 0.8 / max(len(modes), 1)
    for offset, mode in enumerate(modes):
        rates = [summary["modes"][mode][key] for key, _ in parts]
        xs = [i + offset * width for i in range(len(parts))]
        bars = left.bar(xs, [100 * (r["pass_at_1"] or 0) for r in rates], width, label=mode)
        # A half not run yet is "n/a", not a measured 0 %.
        labels = [f"{100 * r['pass_at_1']:.1f}" if r["problems"] else "n/a" for r in rates]
        left.bar_label(bars, labels=labels, fontsize=8)
    left.set_xticks(
        [i + width * (len(modes) - 1) / 2 for i in range(len(parts))], [name for _, name in parts]
    )
    left.set_ylabel("pass@1 (%)")
    left.set_title("HumanEval pass@1")
    left.legend()
    seconds = [summary["modes"][mode]["seconds_per_problem"] or 0 for mode in modes]
    bars = right.bar(modes, seconds, color=["C0", "C1"][: len(modes)])
    right.bar_label(bars, fmt="%.1f", fontsize=8)
    right.set_ylabel("seconds per problem")
    right.set_title("Time per problem")
    fig.suptitle(f"{summary['model']}, temperature 0")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_reports(summary: dict[str, Any], out: Path) -> dict[str, Path]:
    paths = {"summary": out / "summary.json", "table": out / "summary.md", "chart": out / "pass_at_1.png"}
    paths["summary"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    paths["table"].write_text(markdown(summary), encoding="utf-8")
    if summary["modes"]:
        chart(summary, paths["chart"])
    return paths
