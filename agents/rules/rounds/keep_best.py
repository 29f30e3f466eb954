"""Rule keep_best: the best of {the project as it was, each round} is what stays on disk."""

from __future__ import annotations

from agents.events import EventBus, Notice
from agents.rules.rounds.fix_or_leave import fixed_nothing
from agents.rules.rounds.worse_never_kept import worse_rounds
from agents.rules.rule import Stage, rule
from agents.run.crew_tools import ToolContext, WriteFileTool
from agents.run.versions import Kept, Version, best, regressed, restore, text_of


@rule(
    "keep_best",
    Stage.ROUNDS,
    reason="the best of {the project as it was, each round} is what stays on disk",
    evidence="tests/test_keep_best.py",
)
def keep_best(
    context: ToolContext,
    versions: list[Version],
    bus: EventBus,
    *,
    as_it_was: bool,
    judged: frozenset[str] = frozenset(),
) -> Kept | None:
    """No round passed: leave the files as the round that passed most checks wrote them (the
    earliest of equals), not as the last try left them, with every file the rounds touched and
    that round did not write as it was before the run. `as_it_was`: the project's tests ran before
    the run, and a round that broke one of them cannot win; nor can a round that left a problem the
    project did not have (rule worse_never_kept): when every round did, the project as it was
    stays; nor, where failing tests judge the request (`judged`), a round that made none of them
    pass (rule fix_or_leave). None: the files stay as the last round left them."""
    whole = context.rules.on(worse_rounds)
    worse = worse_rounds(versions) if whole else ()
    fixing = context.rules.on(fixed_nothing)
    broke = [v for v in versions if (as_it_was and regressed(v)) or (whole and v.damage)]
    candidates = [v for v in versions if v not in broke and not (fixing and fixed_nothing(v, judged))]
    kept = best(candidates)
    if kept is None:
        if not versions:
            return None
        restore(context, set(context.written), bus)
        why = "each left the project worse" if worse else "each broke a test that passed before the run"
        if len(broke) < len(versions):
            why = f"none made {', '.join(sorted(judged)[:3])} pass"
        bus.emit(
            Notice(
                level="warning",
                message=f"No try beat the project as it was: {why}. The files are as they were before"
                " it; the best try's diff is above.",
            )
        )
        line = "every try left it worse" if worse else "every try broke a test that passed before"
        line = "no try fixed the failing tests it was asked about" if len(broke) < len(versions) else line
        return Kept(0, [f"the project as it was: {line}"], True, worse)
    if kept is versions[-1] and set(kept.contents) == set(context.written):
        return None
    context.agent = "crew"
    writer = WriteFileTool().bind(context)
    changed = [rel for rel, text in kept.contents.items() if text_of(context, rel) != text]
    failed = [rel for rel in changed if writer.run(path=rel, content=kept.contents[rel]).startswith("Error")]
    if failed:
        bus.emit(
            Notice(level="warning", message=f"Could not put back round {kept.round}'s {', '.join(failed)}.")
        )
        return None
    restore(context, set(context.written) - set(kept.contents), bus)
    if kept is not versions[-1]:
        bus.emit(
            Notice(
                level="info",
                message=f"Kept round {kept.round}'s version: it passed more checks than the last try.",
            )
        )
    as_before = all(text_of(context, rel) == context.originals.get(rel) for rel in context.written)
    return Kept(kept.round, kept.check_lines, as_before, worse)
