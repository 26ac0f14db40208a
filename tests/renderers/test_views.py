"""Views built from text and from a real game, draft and match."""

from __future__ import annotations

import pytest

from engine import Game, Match, Meld, PlayerState, Rules
from engine.scoring import score_out
from engine.tiles import Face, Tile
from renderers import render_draft, render_rack, render_standings, render_table
from renderers.text import draft_text, table_text
from renderers.views import (
    MeldSlot,
    clock_text,
    draft_view_from_draft,
    game_end_view,
    match_view,
    rack_view_from_game,
    slots_from_text,
    table_view_from_game,
    tiles_from_text,
)
from tests.renderers.pixels import decode

NAMES = ["Ann", "Ben", "Cy"]


def game(racks: list[str], table: str, melded: list[bool], current: int = 0) -> Game:
    """Seat i holds racks[i]; every other tile of the box is in the pool."""
    slots = slots_from_text(table) if table else ()
    melds = [Meld.build(s.tiles) for s in slots]
    used = [t for s in slots for t in s.tiles]
    players = []
    for rack, is_melded in zip(racks, melded, strict=True):
        tiles = list(tiles_from_text(rack, used=used))
        used += tiles
        players.append(PlayerState(tiles, is_melded))
    rules = Rules()
    pool = [t for t in rules.edition.all_tiles() if t not in set(used)]
    return Game(rules, 0, players, melds, pool, current, 0)


def test_slots_from_text_uses_distinct_copies_and_keeps_reasons() -> None:
    slots = slots_from_text("R7 R8 R9 / R7 K7 B7 / B5 B6 B8 / J=R4 R5 R6")
    assert slots[0].tiles[0] != slots[1].tiles[0]
    assert str(slots[2].error) == "7 is missing"
    assert slots[2].faces == tuple(t.face for t in slots[2].tiles)
    assert slots[3].labels() == ("J=R4", "R5", "R6")
    assert slots[3].faces[0] == Face(Tile.parse("R4").color, 4)


def test_clock_text() -> None:
    assert [clock_text(s) for s in (0, 42, 725, 3600 * 5 + 720, 86400 * 2 + 3 * 3600)] == [
        "0:00",
        "0:42",
        "12:05",
        "5h 12m",
        "2d 3h",
    ]


def test_table_view_from_a_played_turn() -> None:
    g = game(["K9 B9 O9 R1", "R2 R3", "K1"], "R4 R5 R6", [True, True, False])
    draft = g.draft()
    draft.apply_text("play K9 B9 O9")
    g.commit(draft)
    view = table_view_from_game(g, NAMES, seconds_left=60)
    assert [p.name for p in view.players] == ["Ann", "Ben", "Cy"]
    assert [p.is_current for p in view.players] == [False, True, False]
    assert [p.tile_count for p in view.players] == [1, 2, 1]
    assert not view.players[2].melded
    assert {str(t) for t in view.highlight} == {"K9", "B9", "O9"}
    assert str(view.caption) == "Ann played K9 B9 O9"
    assert view.pool_size == len(g.pool)
    text = table_text(view)
    assert "[K9] [B9] [O9]" in text and " 1. R4 R5 R6" in text
    assert decode(render_table(view)).width == 1200

    g.draw()
    after = table_view_from_game(g, NAMES)
    assert after.highlight == frozenset()
    assert str(after.caption) == "Ben drew a tile"
    rack = rack_view_from_game(g, 1, owner="Ben")
    assert rack.new_tiles == frozenset({g.players[1].drawn})
    assert decode(render_rack(rack)).height > 100


def test_draft_view_keeps_numbers_and_marks_changes() -> None:
    g = game(["R7 B5 B6 B8", "K1 K2"], "R4 R5 R6 / K9 B9 O9", [True, True])
    draft = g.draft()
    draft.apply_text("play R7 to 1")
    draft.apply_text("play B5 B6 B8")
    view = draft_view_from_draft(draft, player="Ann", seconds_left=30)
    assert [m.number for m in view.melds] == [1, 2, 3]
    assert str(view.melds[2].error) == "7 is missing"
    assert {str(t) for t in view.changed} == {"R7", "B5", "B6", "B8"}
    assert view.problems and not view.is_legal
    assert view.rack.tiles == ()
    assert "<- not valid: 7 is missing" in draft_text(view)
    assert decode(render_draft(view)).width == 1200
    untouched = draft_view_from_draft(g.draft())
    assert untouched.problems == () and untouched.changed == frozenset()


def test_game_end_and_match_views() -> None:
    g = game(["K9 B9 O9", "R2 R3", "J"], "R4 R5 R6", [True, True, True])
    draft = g.draft()
    draft.apply_text("play K9 B9 O9")
    g.commit(draft)
    assert g.result is not None
    match = Match(3, 3)
    match.record(g.result)
    end = game_end_view(g, NAMES, match=match)
    assert str(end.title) == "Rummikub! Ann wins game 1"
    winner = next(r for r in end.rows if r.is_winner)
    assert winner.name == "Ann" and winner.delta == g.result.scores[0]
    assert next(r for r in end.rows if r.name == "Cy").rack == (Tile.joker(),)
    standings = match_view(match, NAMES)
    assert [r.games_won for r in standings.rows] == [1, 0, 0]
    assert str(standings.subtitle) == "After game 1 of 3"
    for view in (end, standings):
        assert decode(render_standings(view)).width == 960
    second = score_out([[Tile.parse("K1")], [], [Tile.parse("K2")]], 1)
    match.record(second)
    match.record(score_out([[], [Tile.parse("K3")], [Tile.parse("K4")]], 0))
    assert str(match_view(match, NAMES).title) == "Ann wins the match"


def test_meld_slot_requires_one_face_per_tile() -> None:
    with pytest.raises(ValueError, match="one face per tile"):
        MeldSlot(1, (Tile.parse("R1"),), ())
