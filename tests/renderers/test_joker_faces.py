"""Issue 21, defect 16 in pictures: a joker's face depends on its set alone, not on where it
was before, so the same table draws the same picture however it was built."""

from __future__ import annotations

from engine import Game
from renderers import render_table
from renderers.text import table_text
from renderers.views import table_view_from_game
from tests.engine.helpers import position
from tests.renderers.pixels import decode

NAMES = ["Ann", "Bob"]


def built(*steps: str) -> Game:
    game = position(["K9 B9 J O10 O11 O12 R1", "K1"])
    draft = game.draft()
    for step in steps:
        draft.apply_text(step)
    game.commit(draft)
    return game


def test_a_joker_moved_into_a_group_draws_like_one_played_there() -> None:
    moved = built("play J O10 O11", "play K9 B9", "move J from 1 to 2", "play O12 to 1")
    direct = built("play O10 O11 O12", "play K9 B9 J")
    moved_view = table_view_from_game(moved, NAMES)
    direct_view = table_view_from_game(direct, NAMES)
    assert "[K9] [B9] [J=9]" in table_text(moved_view)
    assert table_text(moved_view) == table_text(direct_view)
    moved_png, direct_png = render_table(moved_view), render_table(direct_view)
    assert decode(moved_png).tobytes() == decode(direct_png).tobytes()
