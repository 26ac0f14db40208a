"""Each rule of a turn by name, on exact positions."""

from __future__ import annotations

import pytest

from engine import Game, IllegalMoveError, NotYourTurnError, Rules
from engine.tiles import tiles_text
from tests.engine.helpers import position, table_text


def play(game: Game, *steps: str) -> None:
    draft = game.draft()
    for step in steps:
        draft.apply_text(step)
    game.commit(draft)


def refused(game: Game, *steps: str) -> str:
    """Apply steps and commit, expecting a refusal; the game must be unchanged."""
    before = game.to_text()
    draft = game.draft()
    with pytest.raises(IllegalMoveError) as err:
        for step in steps:
            draft.apply_text(step)
        game.commit(draft)
    assert game.to_text() == before
    return str(err.value)


# ----- the initial meld ---------------------------------------------------------------------


def test_initial_meld_of_30_from_rack_is_accepted() -> None:
    game = position(["R10 R11 R12 K1", "B1"])
    play(game, "play R10 R11 R12")
    assert table_text(game) == ["R10 R11 R12"]
    assert game.players[0].melded and game.current == 1


def test_initial_meld_below_threshold_is_refused() -> None:
    game = position(["R8 R9 R10 K1", "B1"])
    assert "is worth 27; it must total at least 30" in refused(game, "play R8 R9 R10")


def test_initial_meld_may_be_several_sets() -> None:
    game = position(["R1 R2 R3 K8 B8 O8 R8", "B1"])
    play(game, "play R1 R2 R3", "play K8 B8 O8")
    assert len(game.table) == 2


def test_initial_meld_with_a_joker_counts_the_tile_it_stands_for() -> None:
    game = position(["R9 R10 J K1", "B1"])
    play(game, "play R9 R10 J")  # J = R11: 9 + 10 + 11 = 30
    assert game.table[0].text() == "R9 R10 J=R11"


def test_opening_threshold_is_a_setting() -> None:
    game = position(["R7 R8 R9 K1", "B1"], rules=Rules(opening_threshold=24))
    play(game, "play R7 R8 R9")
    assert game.players[0].melded


def test_initial_meld_touching_the_table_is_refused() -> None:
    game = position(["R12 R13 B13 K1", "B1"], "K12 O12 B12 / B1 B2 B3", melded=[False, True])
    message = refused(game, "play R12 to 1")
    assert "before your initial meld" in message
    assert "before your initial meld" in refused(game, "move K12 from 1 to new")


def test_initial_meld_by_arrange_using_table_tiles_is_refused() -> None:
    game = position(["R13 B13 K1", "B1"], "K13 O13 R13", melded=[False, True])
    message = refused(game, "arrange K13 O13 R13 B13#1")
    assert "Before your initial meld" in message


# ----- the turn ---------------------------------------------------------------------------


def test_rearranging_alone_does_not_count() -> None:
    game = position(["K1", "B1"], "R1 R2 R3 R4 R5 R6", melded=[True, True])
    assert "at least one tile from your rack" in refused(game, "split 1 at R4")


def test_draw_ends_the_turn_and_marks_the_new_tile() -> None:
    game = position(["K1", "B1"], pool="O5 R7")
    outcome = game.draw()
    assert outcome.kind == "draw" and [str(t) for t in outcome.drawn] == ["R7"]
    assert str(game.players[0].drawn) == "R7" and game.current == 1
    assert "R7" in tiles_text(game.players[0].rack)


def test_drawn_tile_cannot_be_played_that_turn() -> None:
    game = position(["R10 R11", "B1"], pool="R12")
    game.draw()
    with pytest.raises(NotYourTurnError):
        game.draft(0)


def test_not_your_turn() -> None:
    game = position(["K1", "B1"])
    with pytest.raises(NotYourTurnError, match="not your turn"):
        game.draw(1)


def test_every_set_valid_at_the_end() -> None:
    game = position(["R5 R6 R8 K1", "B1"], melded=[True, True])
    assert "8 is missing" in refused(game, "play R5 R6 R8") or "7 is missing" in refused(
        game, "play R5 R6 R8"
    )


def test_add_split_and_move_after_initial_meld() -> None:
    game = position(["R6 K7", "B1"], "R4 R5 R6 R7 R8 / K8 K9 K10", melded=[True, True])
    play(game, "play R6 to 1", "split 1 at R6#1", "play K7 to 2")
    assert table_text(game) == ["R4 R5 R6", "K7 K8 K9 K10", "R6 R7 R8"]


def test_stale_draft_is_refused() -> None:
    game = position(["R1 R2 R3 R10 R11 R12", "B1 B2"], pool="O1 O2 O3")
    draft = game.draft()
    draft.apply_text("play R10 R11 R12")
    game.draw()
    game.draw()
    with pytest.raises(IllegalMoveError, match="earlier turn"):
        game.commit(draft)


def test_meld_numbers_stay_the_same_during_a_turn() -> None:
    game = position(["B4", "B1"], "R1 R2 R3 / K5 K6 K7 / O9 B9 K9", melded=[True, True])
    draft = game.draft()
    draft.apply_text("move R1 R2 R3 from 1 to new")
    draft.apply_text("play B4 to 2")  # meld 2 is still K5 K6 K7
    assert [s.text() for s in draft.slots] == ["", "B4 K5 K6 K7", "K9 B9 O9", "R1 R2 R3"]


def test_undo_and_reset_are_exact() -> None:
    game = position(["R10 R11 R12 K11 B11 O11", "B1"])
    draft = game.draft()
    draft.apply_text("play R10 R11 R12")
    after_one = draft.state
    draft.apply_text("play K11 B11 O11")
    draft.undo()
    assert draft.state == after_one
    draft.reset()
    assert draft.state == draft.base and not draft.changed
    draft.undo()  # reset itself can be undone
    assert draft.state == after_one
    assert draft.undo()
    assert draft.undo() is False  # nothing left to undo: a plain answer, nothing changes
    assert draft.state == draft.base


def test_bad_step_changes_nothing() -> None:
    game = position(["R10 R11 R12", "B1"])
    draft = game.draft()
    draft.apply_text("play R10 R11 R12")
    before = draft.state
    for bad in ["play R13", "move R10 from 9 to 1", "split 1 at K3", "swap J in 1 with R9"]:
        with pytest.raises(IllegalMoveError):
            draft.apply_text(bad)
        assert draft.state == before


# ----- jokers -----------------------------------------------------------------------------


def test_joker_retrieval_allowed_after_initial_meld() -> None:
    game = position(["R6 K3 K4", "B1"], "R5 J R7", melded=[True, True])
    play(game, "swap J in 1 with R6", "play K3 K4 J")
    assert table_text(game) == ["R5 R6 R7", "K3 K4 J=K5"]


def test_joker_retrieval_for_either_missing_colour_of_a_group() -> None:
    game = position(["R9 K3 K4", "B1"], "K9 B9 J", melded=[True, True])
    play(game, "swap J in 1 with R9", "play J K3 K4")
    assert table_text(game) == ["K9 B9 R9", "J=K2 K3 K4"]


def test_joker_retrieval_refused_before_initial_meld() -> None:
    game = position(["R6 K3 K4 K5", "B1"], "R5 J R7", melded=[False, True])
    assert "before your initial meld" in refused(game, "swap J in 1 with R6")


def test_joker_retrieval_refused_in_the_opening_turn_itself() -> None:
    game = position(["R10 R11 R12 R6 K3 K4", "B1"], "R5 J R7", melded=[False, True])
    assert "before your initial meld" in refused(game, "play R10 R11 R12", "swap J in 1 with R6")


def test_joker_must_be_replaced_by_the_tile_it_stands_for() -> None:
    game = position(["R8 K3 K4", "B1"], "R5 J R7", melded=[True, True])
    assert "stands for R6, not R8" in refused(game, "swap J in 1 with R8")


def test_retrieved_joker_must_be_played_the_same_turn() -> None:
    game = position(["R6 K3 K4", "B1"], "R5 J R7", melded=[True, True])
    assert "must be played this turn" in refused(game, "swap J in 1 with R6")


def test_retrieved_joker_cannot_be_added_to_an_existing_set() -> None:
    game = position(["R6 K3", "B1"], "R5 J R7 / B1 B2 B3", melded=[True, True])
    assert "new set" in refused(game, "swap J in 1 with R6", "play J to 2")


def test_retrieved_joker_onto_existing_set_by_arrange_is_refused() -> None:
    game = position(["R6 K3", "B1"], "R5 J R7 / B1 B2 B3", melded=[True, True])
    message = refused(game, "arrange R5 R6 R7 / B1 B2 B3 J")
    assert "new set" in message or "in its place" in message


def test_retrieval_still_needs_a_rack_tile() -> None:
    game = position(["K1", "B1"], "R5 J R7 / K6 B6 O6 R6 / B1 B2 B3 B4 B5", melded=[True, True])
    message = refused(
        game,
        "swap J in 1 with R6 from 2",
        "move B5 from 3 to new",
        "move B4 from 3 to 4",
        "play J to 4",
    )
    assert "at least one tile from your rack" in message


def test_joker_may_stay_in_a_set_that_is_rearranged() -> None:
    game = position(["R8", "B1"], "R5 R6 J", melded=[True, True])
    play(game, "play R8 to 1")
    assert table_text(game) == ["R5 R6 J=R7 R8"]


def test_joker_sliding_along_its_run_counts_as_retrieval() -> None:
    game = position(["R7", "B1"], "R5 R6 J", melded=[True, True])
    message = refused(game, "arrange R5 R6 R7 J=R8")
    assert "new set" in message
