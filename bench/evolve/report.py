"""bench.evolve's outputs: the fitness plot, the winner as a crew profile, the summary line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.crew_profile import CrewProfile, save_profile
from bench.evolve.search import Member

PLOT = "fitness.png"


def plot(lineage: list[dict[str, Any]], path: Path, problems: int) -> Path | None:
    """Best and mean problems passed per generation, and the hand-tuned crew's as a line."""
    if not lineage:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    generations = [row["generation"] for row in lineage]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(generations, [row["best"] for row in lineage], "o-", label="best")
    ax.plot(generations, [row["mean"] for row in lineage], "s--", label="mean")
    hand = [m for m in lineage[0]["members"] if m["origin"] == "hand-tuned"]
    if hand:
        ax.axhline(hand[0]["passed"], color="grey", linestyle=":", label="hand-tuned crew")
    # The tie-breaker: the best member's seconds per problem (wall time: load on the machine counts)
    best_seconds = [
        min(m["seconds_per_problem"] for m in row["members"] if m["passed"] == row["best"]) for row in lineage
    ]
    ax2 = ax.twinx()
    ax2.plot(generations, best_seconds, "^:", color="tab:green", label="best's s/problem")
    ax2.set_ylabel("seconds per problem (tie-breaker)", color="tab:green")
    ax2.set_ylim(0, max(best_seconds) * 1.3 + 1)
    ax2.legend(loc="center right", fontsize=8, framealpha=0.6)
    ax.set_xlabel("generation")
    ax.set_ylabel(f"problems passed (of {problems})")
    ax.set_xticks(generations)
    ax.set_ylim(0, problems + 0.5)
    ax.legend(loc="lower left", fontsize=8, framealpha=0.6)
    ax.set_title("bench.evolve: fitness per generation")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def generation_row(
    generation: int, members: list[Member], rng_state: list[Any], seconds: float
) -> dict[str, Any]:
    scores = [m.passed for m in members]
    return {
        "generation": generation,
        "members": [m.to_dict() for m in members],
        "best": max(scores),
        "mean": round(sum(scores) / len(scores), 3),
        "seconds": round(seconds, 1),
        "rng_state": rng_state,
    }


def winner_profile(best: Member, model: str, name: str, note: str) -> CrewProfile:
    return CrewProfile.from_settings(name, best.config.settings(), model=model, note=note)


def write_winner(best: Member, model: str, name: str, note: str, folders: list[Path]) -> list[Path]:
    profile = winner_profile(best, model, name, note)
    return [save_profile(profile, folder) for folder in folders]


def model_stem(model: str) -> str:
    """qwen2.5-coder-0.5b-instruct-q4_k_m.gguf -> qwen2.5-coder-0.5b"""
    stem = model.removesuffix(".gguf")
    for tail in ("-instruct", "-q4_k_m", "-q8_0"):
        stem = stem.split(tail)[0] if tail in stem else stem
    return stem


def describe(config: dict[str, Any]) -> str:
    """What a configuration changes from the hand-tuned crew, in a few words."""
    parts = []
    if config["rounds"] != 3:
        parts.append(f"rounds {config['rounds']}")
    if config["retry"] != "fresh":
        parts.append(f"retry {config['retry']}")
    if config["retry_temperature"] != 0.7:
        parts.append(f"retry temperature {config['retry_temperature']}")
    parts += [f"without {name}" for name in config["without"]]
    parts += [f"with {name}" for name in config["with"]]
    return ", ".join(parts) or "the hand-tuned crew"


def lineage_markdown(lineage: list[dict[str, Any]]) -> str:
    lines = [
        "| generation | id | origin | parents | configuration | passed | s/problem |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in lineage:
        for m in row["members"]:
            lines.append(
                f"| {row['generation']} | `{m['id']}` | {m['origin']} | {', '.join(m['parents']) or '-'} | "
                f"{describe(m['config'])} | {m['passed']}/{m['problems']} | {m['seconds_per_problem']} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":  # python -m bench.evolve.report OUT: the lineage as a table, the plot redrawn
    import sys

    from bench.evolve.store import read_lineage

    out = Path(sys.argv[1])
    rows = read_lineage(out)
    if rows:
        plot(rows, out / PLOT, rows[0]["members"][0]["problems"])
    print(lineage_markdown(rows))
