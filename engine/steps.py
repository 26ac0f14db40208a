"""A turn's steps as typed or stored, applied to the draft: the one door for every caller (the
chat's commands, a stored draft replayed after a restart, a record's turns, ``hint`` checking
its own commands).

Every step but ``auto`` is the draft's own business; ``auto`` needs the solver, which the draft
(a value) does not know: it is resolved here into its answer and then applied, and the draft
records the resolved form (``auto R7 => ...``), which replays without asking the solver again.
A stored ``auto`` step without its answer (drafts stored before answers were recorded) is
resolved again on the way.
"""

from __future__ import annotations

from engine.actions import Action, Auto, parse_action
from engine.auto import resolve
from engine.draft import Draft


def apply_step(draft: Draft, text: str) -> Action:
    """Parse and apply one step such as ``play R5 R6 R7``, ``auto`` or a stored
    ``auto R7 => R4 R5 R6 R7``; returns the step as applied (raises ``RummikubError`` with one
    sentence and changes nothing when the step is refused)."""
    return apply_action(draft, parse_action(text))


def apply_action(draft: Draft, action: Action) -> Action:
    """Apply a parsed step, resolving ``auto`` with the solver first."""
    if isinstance(action, Auto):
        action = resolve(draft, action)
    draft.apply(action)
    return action
