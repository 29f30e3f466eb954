"""The settle stage: what is done about the reviewer's own failed checks.
Its rules, in the order they run (as docs/crew.md lists them); each home asks
`rules.on(<the rule's function>)` where the rule applies."""

from __future__ import annotations

from agents.rules.settle.check_disputes import disputes
from agents.rules.settle.mutator_checks import unpromised
from agents.rules.settle.outside_checks import outside_the_request
from agents.rules.settle.reviewer_version import candidates
from agents.rules.settle.unasked_put_back import put_back_where_allowed

ORDER = (
    unpromised,
    outside_the_request,
    disputes,
    candidates,
    put_back_where_allowed,
)
