from __future__ import annotations

import pytest

from engine import Color, Edition, NotationError, Tile, parse_tile, parse_tiles, parse_tokens
from engine.notation import parse_meld_tokens
from engine.tiles import Face, distinct_copies


@pytest.mark.parametrize(
    "text", ["R7", "r7", "7r", "red7", "red 7", "7 red", "Red-7", " R7 ", "7R"]
)
def test_forgiving_input_for_one_tile(text: str) -> None:
    assert parse_tile(text) == Tile(Color.RED, 7)


@pytest.mark.parametrize("text", ["J", "j", "joker", "JOKER", "*"])
def test_joker_spellings(text: str) -> None:
    assert parse_tile(text).is_joker


def test_colour_words_and_letters() -> None:
    assert [str(t) for t in parse_tiles("k1 black2 b3 blue4 o5 orange6 yellow7 r8")] == [
        "K1",
        "K2",
        "B3",
        "B4",
        "O5",
        "O6",
        "O7",
        "R8",
    ]


def test_strict_short_output_and_pasteable_repr() -> None:
    tile = Tile(Color.BLUE, 12, copy=1)
    assert str(tile) == "B12"
    assert tile.code == "B12#1"
    assert eval(repr(tile)) == tile
    assert str(Tile.joker()) == "J"


def test_joker_pin_notation() -> None:
    tokens = parse_tokens("J=R4 R5 R6")
    assert tokens[0].pin == Face(Color.RED, 4)
    assert parse_tokens("J=9")[0].pin == Face(None, 9)


def test_copies_round_trip() -> None:
    assert parse_tile("R7#1") == Tile(Color.RED, 7, 1)
    assert distinct_copies(parse_tiles("R7 R7 R7")) == [
        Tile(Color.RED, 7, 0),
        Tile(Color.RED, 7, 1),
        Tile(Color.RED, 7, 2),
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("R7 X9", "'X9' (tile 2"),
        ("R14", "'R14' (tile 1) has number 14"),
        ("R0", "has number 0"),
        ("R7 K9 blue", "'blue' (tile 3"),
        ("R7R8", "'R7R8' (tile 1"),
    ],
)
def test_bad_notation_names_the_token_and_its_position(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_tiles(text)
    assert fragment in str(err.value)


def test_meld_lists() -> None:
    melds = parse_meld_tokens("R4 R5 R6 / K9 B9 O9 | B1 B2 B3; O1 O2 O3")
    assert [[str(t) for t in m] for m in melds] == [
        ["R4", "R5", "R6"],
        ["K9", "B9", "O9"],
        ["B1", "B2", "B3"],
        ["O1", "O2", "O3"],
    ]
    with pytest.raises(NotationError, match="Meld 2"):
        parse_meld_tokens("R4 R5 R6 / K9 Q9")


def test_editions_have_the_right_tiles() -> None:
    classic = Edition.CLASSIC.all_tiles()
    xp = Edition.XP.all_tiles()
    assert len(classic) == 106 and len(set(classic)) == 106
    assert sum(t.is_joker for t in classic) == 2
    assert len(xp) == 160 and len(set(xp)) == 160
    assert sum(t.is_joker for t in xp) == 4
    assert sum(1 for t in xp if str(t) == "R7") == 3
