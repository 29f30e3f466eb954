"""Rule echoed_answer: an answer that leaves the files exactly as they were is sent back."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan


@rule(
    "echoed_answer",
    Stage.STATIC,
    reason="an answer that leaves the files exactly as they were is sent back",
    evidence="bench/results/2026-11-25-crew-0.5b",
)
def echoed_answer(scan: StaticScan) -> list[str]:
    """The 0.5B often copies the file it was shown back as it was: checks that passed before would
    pass again and approve a run that did nothing."""
    if not scan.echoed:
        return []
    # "Exactly as it was" only of the same bytes: the code compares by syntax tree, and a round
    # said to leave report.py "exactly as it was" had dropped the user's comment.
    before = scan.originals  # None: not known here, so no difference to tell
    same = [rel for rel in scan.echoed if before.get(rel) in (None, scan.sources.get(rel, before.get(rel)))]
    told = []
    if same:
        left = ", ".join(same)
        told.append(f"Your answer left {left} exactly as it was; make the change the request asks.")
    if other := [rel for rel in scan.echoed if rel not in same]:
        told.append(
            f"Your answer left the code of {', '.join(other)} as it was (only imports, comments or layout"
            " differ); make the change the request asks."
        )
    return told
