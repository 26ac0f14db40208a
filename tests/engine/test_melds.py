from __future__ import annotations

import pytest

from engine import InvalidMeldError, Meld, MeldKind


def meld(text: str) -> Meld:
    return Meld.parse(text)


def reason(text: str) -> str:
    with pytest.raises(InvalidMeldError) as err:
        Meld.parse(text)
    return str(err.value)


def test_group_of_three_and_four_distinct_colours() -> None:
    assert meld("K9 B9 O9").kind is MeldKind.GROUP
    assert meld("K9 B9 O9 R9").value == 36


def test_group_duplicate_colour_refused() -> None:
    assert "K9 appears twice" in reason("K9 B9 K9")


def test_group_of_five_refused() -> None:
    assert "at most 4" in reason("K9 B9 O9 R9 J")


def test_run_consecutive_same_colour() -> None:
    m = meld("B5 B6 B7")
    assert m.kind is MeldKind.RUN and m.value == 18


def test_run_missing_number_is_explained() -> None:
    assert reason("R5 R6 R8").endswith("7 is missing.")


def test_run_12_13_1_refused_no_wrap() -> None:
    assert "cannot go from 13 back to 1" in reason("R12 R13 R1")


def test_one_is_lowest() -> None:
    assert meld("R1 R2 R3").value == 6


def test_mixed_colour_run_refused() -> None:
    assert "one colour" in reason("R5 B6 R7") or "mixes" in reason("R5 B6 R7")


def test_two_tiles_refused() -> None:
    assert "at least 3 tiles" in reason("R5 R6")


def test_set_needs_a_real_tile() -> None:
    assert "at least one real tile" in reason("J J J")


def test_joker_position_is_where_typed() -> None:
    assert meld("J R5 R6").text() == "J=R4 R5 R6"
    assert meld("R5 R6 J").text() == "R5 R6 J=R7"


def test_joker_only_place_that_fits() -> None:
    assert meld("R12 R13 J").text() == "J=R11 R12 R13"
    assert meld("R5 J R7").text() == "R5 J=R6 R7"
    assert meld("R5 R7 J").text() == "R5 J=R6 R7"


def test_joker_pinned_explicitly() -> None:
    assert meld("R5 R6 J=R4").text() == "J=R4 R5 R6"
    assert "already there" in reason("R5 R6 J=R5")


def test_group_joker_is_either_missing_colour() -> None:
    m = meld("K9 B9 J")
    assert m.text() == "K9 B9 J=9"
    joker = m.jokers[0]
    assert [str(f) for f in m.joker_options(joker)] == ["O9", "R9"]
    assert m.value == 27


def test_four_group_joker_is_the_last_colour() -> None:
    assert meld("K9 B9 O9 J").text() == "K9 B9 O9 J=R9"


def test_joker_counts_as_the_tile_it_stands_for() -> None:
    assert meld("J R12 R13").value == 36
    assert meld("K13 J J").value == 39  # a group of 13s is worth more than the run 11-12-13


def test_run_too_long_for_jokers() -> None:
    assert meld("R12 R13 J J").text() == "J=R10 J=R11 R12 R13"
    assert "at most 13" in reason(" ".join(f"K{n}" for n in range(1, 14)) + " J")
    assert meld("R11 R12 R13 J").text() == "J=R10 R11 R12 R13"


def test_run_of_thirteen_is_legal() -> None:
    text = " ".join(f"K{n}" for n in range(1, 14))
    assert meld(text).value == 91


# ----- issue 21, defect 16: a joker's face does not depend on its history -------------------


def test_a_joker_moved_into_a_group_of_three_shows_its_number_only() -> None:
    from tests.engine.helpers import position

    game = position(["K9 B9 J O10 O11 O12 R1", "K1"])
    draft = game.draft()
    draft.apply_text("play J O10 O11")
    assert draft.slots[0].text() == "J=O9 O10 O11"
    draft.apply_text("play K9 B9")
    draft.apply_text("move J from 1 to 2")
    assert draft.slots[1].text() == "K9 B9 J=9"
    draft.apply_text("play O12 to 1")
    game.commit(draft)
    assert sorted(m.text() for m in game.table) == ["K9 B9 J=9", "O10 O11 O12"]


def test_a_group_that_loses_its_fourth_tile_shows_its_joker_as_either_colour() -> None:
    from tests.engine.helpers import position

    game = position(["R1", "K1"], "K9 B9 O9 J / O10 O11 O12", melded=[True, True])
    draft = game.draft()
    assert draft.slots[0].text() == "K9 B9 O9 J=R9"
    draft.apply_text("move O9 from 1 to 2")
    assert draft.slots[0].text() == "K9 B9 J=9"
    assert draft.slots[1].text() == "O9 O10 O11 O12"


def test_a_colour_pinned_in_a_group_of_three_is_not_shown() -> None:
    assert meld("K12 B12 J=R12").text() == meld("K12 B12 J").text() == "K12 B12 J=12"
    assert "already there" in reason("K12 B12 J=K12")
