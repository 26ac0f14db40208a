"""Issue 21, defect 4: tiles laid from the rack this turn are still the player's to rearrange or
take back, before and after the initial meld; ``hint`` and ``auto`` complete a half-built draft
whenever some legal play does, keeping what was played when any legal play does."""

from __future__ import annotations

import pytest

from engine import Draft, Game, IllegalMoveError
from engine.hints import hint, hint_text
from engine.steps import apply_step
from tests.engine.helpers import position


def tables(draft: Draft) -> list[str]:
    return sorted(slot.text() for slot in draft.slots if slot.tiles)


def rack(draft: Draft) -> list[str]:
    return sorted(str(t) for t in draft.rack)


def follow_hint(draft: Draft) -> Draft:
    """Type the hint's commands one by one; the draft ends where the hint said, legal."""
    found = hint(draft)
    assert found is not None and found.commands
    for command in found.commands:
        apply_step(draft, command)
    assert tuple(s.text() for s in draft.slots) == found.table
    assert draft.problems() == []
    return draft


def half_built_opening() -> tuple[Game, Draft]:
    # The best opening from the start of the turn puts the joker with O11 O12 (48 points); the
    # player has laid R9 B9, which only the joker completes: B9 R9 J + K3 K4 K5 is 39.
    game = position(["R9 B9 J K3 K4 K5 O11 O12 R1", "K1"])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9")
    return game, draft


def test_hint_completes_a_half_built_initial_meld() -> None:
    game, draft = half_built_opening()
    message = hint_text(game, 0, draft)
    assert message is not None
    follow_hint(draft)
    assert tables(draft) == ["B9 R9 J=9", "K3 K4 K5"]
    game.commit(draft)
    assert game.players[0].melded


def test_auto_completes_a_half_built_initial_meld_keeping_what_was_played() -> None:
    game, draft = half_built_opening()
    apply_step(draft, "auto")
    assert draft.slots[0].text() == "B9 R9 J=9"  # meld 1 is still the player's meld 1
    assert tables(draft) == ["B9 R9 J=9", "K3 K4 K5"]
    assert rack(draft) == ["O11", "O12", "R1"]
    game.commit(draft)


def test_auto_with_tiles_completes_a_half_built_initial_meld() -> None:
    game, draft = half_built_opening()
    apply_step(draft, "auto J K3 K4 K5")
    assert tables(draft) == ["B9 R9 J=9", "K3 K4 K5"]
    game.commit(draft)


def test_hint_completes_a_half_built_set_after_the_initial_meld() -> None:
    # From the start the best play is O12 O13 J (37 points, three tiles); R9 B9 J keeps what
    # the player laid and places as many.
    game = position(["R9 B9 J O12 O13", "K1"], "K5 K6 K7", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9")
    follow_hint(draft)
    assert tables(draft) == ["B9 R9 J=9", "K5 K6 K7"]
    auto = game.draft(0)
    apply_step(auto, "play R9 B9")
    apply_step(auto, "auto")
    assert tables(auto) == ["B9 R9 J=9", "K5 K6 K7"]
    game.commit(auto)


def test_arrange_may_take_back_a_tile_played_this_turn() -> None:
    game = position(["R9 B9 K3 K4 K5", "K1"], "O1 O2 O3", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9")
    apply_step(draft, "arrange O1 O2 O3 / K3 K4 K5")
    assert rack(draft) == ["B9", "R9"]
    outcome = game.commit(draft)
    assert sorted(str(t) for t in outcome.placed) == ["K3", "K4", "K5"]


def test_auto_takes_back_what_no_legal_turn_can_keep_and_the_hint_says_so() -> None:
    # Nothing completes R9 B9; the only initial meld is K10 K11 K12.
    game = position(["R9 B9 K10 K11 K12 O1", "K1"])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9")
    message = hint_text(game, 0, draft)
    assert message is not None
    assert str(message).startswith("Took B9 R9 back to your rack; new set K10 K11 K12.")
    follow_hint(draft)
    assert rack(draft) == ["B9", "O1", "R9"]
    auto = game.draft(0)
    apply_step(auto, "play R9 B9")
    apply_step(auto, "auto")
    assert tables(auto) == ["K10 K11 K12"] and auto.is_legal
    game.commit(auto)


def test_auto_with_tiles_that_cannot_join_what_was_played_says_why_and_changes_nothing() -> None:
    game = position(["R9 B9 K10 K11 K12 O1", "K1"])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9")
    before = draft.state
    with pytest.raises(IllegalMoveError) as refused:
        apply_step(draft, "auto K10 K11 K12")
    assert str(refused.value) == (
        "K10 K11 K12 cannot be placed together with the tiles you already played; auto alone "
        "finds the best play, taking back R9 B9."
    )
    assert draft.state == before


def test_a_joker_laid_this_turn_can_be_swapped_back_before_the_initial_meld() -> None:
    game = position(["R9 B9 J O9 K10 K11 K12", "K1"])
    draft = game.draft(0)
    apply_step(draft, "play R9 B9 J")
    apply_step(draft, "swap J in 1 with O9")
    assert draft.slots[0].text() == "B9 O9 R9"
    assert "J" in rack(draft) and not draft.held
    apply_step(draft, "play K10 K11 K12")
    game.commit(draft)
