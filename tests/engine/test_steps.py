"""Issue 22: the draft is a value that knows no solver; ``engine.steps`` resolves ``auto`` above
it, and the resolved step the draft stores replays on the draft alone, exactly."""

from __future__ import annotations

import pytest

from engine.actions import Auto, parse_action
from engine.steps import apply_step
from tests.engine.helpers import position


def test_a_resolved_auto_step_replays_on_the_draft_alone() -> None:
    game = position(["O10 K1", "B1"], "R1 R2 R3 / K5 K6 K7 / O7 O8 O9", melded=[True, True])
    live = game.draft()
    apply_step(live, "move R1 R2 R3 from 1 to new")
    apply_step(live, "auto O10")
    stored = list(live.steps)
    assert stored[1] == "auto O10 => - / K5 K6 K7 / O7 O8 O9 O10 / R1 R2 R3"
    again = game.draft()
    for step in stored:
        again.apply_text(step)  # Draft.apply_text: no solver on this path
    assert again.state == live.state and again.steps == stored
    action = parse_action(stored[1])
    assert isinstance(action, Auto) and parse_action(str(action)) == action


def test_an_unresolved_auto_is_not_the_drafts_job() -> None:
    draft = position(["O10 K1", "B1"], "O7 O8 O9", melded=[True, True]).draft()
    with pytest.raises(TypeError, match=r"engine\.steps\.apply_step"):
        draft.apply_text("auto")
    assert not draft.changed


def test_a_stated_layout_must_keep_every_meld_number() -> None:
    draft = position(["O10 K1", "B1"], "R1 R2 R3 / O7 O8 O9", melded=[True, True]).draft()
    with pytest.raises(ValueError, match="no place for meld 2"):
        apply_step(draft, "auto O10 => O7 O8 O9 O10")
    assert not draft.changed
