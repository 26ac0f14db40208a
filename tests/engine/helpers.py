"""Build exact positions for rule tests: racks and table by text, the pool from the rest."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Meld, PlayerState, Rules
from engine.notation import parse_meld_tokens, parse_tokens
from engine.tiles import Tile, distinct_copies


def position(
    racks: Sequence[str],
    table: str = "",
    *,
    melded: Sequence[bool] | None = None,
    current: int = 0,
    pool: str | None = None,
    rules: Rules | None = None,
) -> Game:
    """A game where seat i holds ``racks[i]`` and the table is ``table`` (``/`` between melds).

    Repeated faces become different physical copies; the pool holds every other tile of the box
    (or exactly ``pool`` when given, drawn from its end).
    """
    rules = rules or Rules()
    used: set[Tile] = set()

    def claim(tile: Tile) -> Tile:
        return distinct_copies([tile], used)[0]

    melds = []
    for tokens in parse_meld_tokens(table):
        tiles = [claim(t.tile) for t in tokens]
        pins = {i: t.pin for i, t in enumerate(tokens) if t.pin is not None}
        melds.append(Meld.build(tiles, pins))
    players = []
    for i, rack in enumerate(racks):
        tiles = [claim(t.tile) for t in parse_tokens(rack)] if rack.strip() else []
        is_melded = melded[i] if melded is not None else False
        players.append(PlayerState(tiles, is_melded))
    if pool is None:
        rest = [t for t in rules.edition.all_tiles() if t not in used]
    else:
        rest = [claim(t.tile) for t in parse_tokens(pool)] if pool.strip() else []
    return Game(rules, 0, players, melds, rest, current, 0)


def table_text(game: Game) -> list[str]:
    return [m.text() for m in game.table]
