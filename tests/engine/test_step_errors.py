"""Issue 21, defect 14: a refused step blames what is wrong in what was typed."""

from __future__ import annotations

import pytest

from engine import NotationError
from engine.actions import parse_action


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
