"""Issue 21, defects 14 and 19: a refused step blames what is wrong in what was typed."""

from __future__ import annotations

import pytest

from engine import NotationError, RummikubError
from engine.actions import parse_action
from tests.engine.helpers import position


@pytest.mark.parametrize(
    ("text", "blamed"),
    [
        ("play K3 to -1", "'-1' is not a meld number"),
        ("play R11 to 1 2", "'1 2' is not a meld number"),
        ("play R11 onto meld x", "'meld x' is not a meld number"),
        ("play K3 to", "Say which meld, by its number."),
        ("move R7 from 2 to x", "'x' is not a meld number"),
        ("move R7 from two to 3", "'two' is not a meld number"),
    ],
)
def test_a_bad_meld_number_after_to_is_blamed_not_the_word_to(text: str, blamed: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_action(text)
    message = str(err.value)
    assert message.startswith(blamed), message
    assert "'to'" not in message and "is not a tile" not in message


def test_a_meld_number_too_long_to_read_is_one_sentence_not_a_crash() -> None:
    with pytest.raises(NotationError, match="is not a meld number"):
        parse_action("play R8 to " + "9" * 5000)


def test_a_good_target_still_parses() -> None:
    assert str(parse_action("play r8 to meld 3")) == "play R8 to 3"
    assert str(parse_action("play R8 onto #2")) == "play R8 to 2"
    assert str(parse_action("play R8 to new")) == "play R8"


@pytest.mark.parametrize(
    "step",
    [
        "swap J in 1 with R3",
        "swap J in 1 with R3 from 2",
        "play R3 to 1",
        "move R3 from 1 to new",
        "split 1 at R3",
    ],
)
def test_a_step_naming_a_meld_that_does_not_exist_says_so_first(step: str) -> None:
    game = position(["R3 R4 R5 J", "K1"])  # before the initial meld, on an empty table
    draft = game.draft()
    with pytest.raises(RummikubError) as err:
        draft.apply_text(step)
    assert str(err.value) == "There is no meld 1; the table is empty."


def test_swap_names_the_missing_meld_before_the_initial_meld_rule() -> None:
    game = position(["R3 R4 R5 J", "K1"], "K5 B5 J", melded=[False, True])
    draft = game.draft()
    with pytest.raises(RummikubError) as err:
        draft.apply_text("swap J in 4 with O5")
    assert str(err.value) == "There is no meld 4; the melds are numbered 1 to 1."
    with pytest.raises(RummikubError, match="before your initial meld"):
        draft.apply_text("swap J in 1 with O5")
