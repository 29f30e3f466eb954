"""Rule unbound_names: a name the new code reads that nothing binds, with the import that would."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.request_checks import imports_for
from agents.rules.static.request_checks import unbound_names as _unbound_names
from agents.rules.static.scan import StaticScan


@rule(
    "unbound_names",
    Stage.STATIC,
    reason="a name the new code reads that nothing binds, with the import that would",
    evidence="bench/results/2026-11-26-crew-1.5b-house",
    per_file=True,
)
def unbound_names(scan: StaticScan, rel: str) -> list[str]:
    """Names the file reads that nothing binds and that were not so before the run, with the
    import where another file defines them (the 1.5B's signup.py called is_email unimported)."""
    before = set(_unbound_names(scan.originals.get(rel) or ""))
    names = [name for name in _unbound_names(scan.sources[rel]) if name not in before]
    if not names:
        return []
    others = {other: text for other, text in scan.sources.items() if other != rel}
    imports = imports_for(names, others)
    hint = f" ({'; '.join(imports)})" if imports else ""
    them = "it" if len(names) == 1 else "them"
    return [f"{rel} uses {', '.join(names)} without defining or importing {them}{hint}."]
