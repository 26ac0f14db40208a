"""What ``hint`` says, in words a player reads, including plays that start with a joker swap."""

from __future__ import annotations

from bot.i18n import say
from bot.manager import hint_text
from engine.ai import retrieval
from tests.engine.helpers import position


def test_a_plain_hint_names_the_change_and_the_auto_command() -> None:
    game = position(["R7 K1 B9", "K5"], "R4 R5 R6", melded=[True, False])
    hint = hint_text(game, 0)
    assert hint is not None
    assert str(hint) == "Added R7 to meld 1. (auto R7)"
    assert say("pl", hint) == "Dołożono R7 do układu 1. (wpisz: auto R7)"


def test_a_hint_takes_a_joker_from_the_table_when_that_plays_more() -> None:
    # Without the swap only O5 fits (in the group, as its fourth tile). Putting O5 in the
    # joker's place frees the joker for R10 R11: three rack tiles instead of one.
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[True, True])
    swap = retrieval(game.table, game.players[0].rack, 1)
    assert swap is not None and swap.placed == 3
    hint = hint_text(game, 0)
    assert hint is not None
    english = str(hint)
    assert english.startswith("Take the joker from meld 1 by putting O5 in its place; then: ")
    assert english.endswith("(swap J in 1 with O5, then play R10 R11 J)")
    assert "New set R10 R11 J=R12" in english
    polish = say("pl", hint)
    assert polish.startswith("Weź dżokera z układu 1, kładąc O5 na jego miejsce; potem: ")
    assert polish.endswith("(wpisz: swap J in 1 with O5, potem play R10 R11 J)")


def test_no_swap_hint_before_the_initial_meld() -> None:
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[False, True])
    assert hint_text(game, 0) is None  # 30 points cannot be reached from this rack


def test_the_commands_a_swap_hint_gives_are_a_legal_turn() -> None:
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[True, True])
    draft = game.draft(0)
    draft.apply_text("swap J in 1 with O5")
    draft.apply_text("play R10 R11 J")
    game.commit(draft)
    assert sorted(m.text() for m in game.table) == ["K5 B5 O5", "R10 R11 J=R12"]
    assert [str(t) for t in game.players[0].rack] == ["K1"]
