"""Faces, not copies: choosing physical tiles for an arrangement stated by faces.

Two R7s look the same, so ``arrange`` (and ``auto``, and a replayed log) states a table by faces;
:func:`copy_choices` offers the ways to give every stated tile a physical copy, the most natural
first, and the draft takes the first one ``done`` would accept. Tiles of the table at the start
of the turn must all be used; tiles the player laid from the rack this turn are still theirs:
they may be stated anywhere or left out (back to the rack), their copy preferred over the one
still on the rack.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Sequence

from engine.errors import IllegalMoveError
from engine.notation import TileToken
from engine.slots import Slot
from engine.tiles import Tile, sort_tiles, tiles_text

COPY_PROBLEMS = frozenset(
    {
        "A joker on the table must stay on the table.",
        "You can take a joker from the table only after your initial meld.",
        "To take the joker from meld {number}, put {wanted} in its place in that set.",
        "A joker taken from the table must go into a new set, not onto a set that was already "
        "there.",
        "The joker in meld {number} would stand for {face} instead of {wanted}; to take it, "
        "write: swap J in {number} with {wanted}, then play it in a new set.",
        "Before your initial meld you can't change the sets on the table; play new sets from "
        "your rack only.",
        "Your initial meld must use only tiles from your own rack.",
    }
)
"""The problems of a stated table that another choice of physical copies might remove."""

_MAX_CHOICES = 200
"""How many copy assignments an arrangement tries before settling for the first one."""


def _face_key(tile: Tile) -> tuple[int, int]:
    return (-1 if tile.color is None else tile.color.order, tile.number)


def _match_melds(melds: Sequence[Sequence[TileToken]], slots: Sequence[Slot]) -> dict[int, int]:
    """Pair each stated meld with the draft slot it shares most faces with (a joker counts
    more: where a table joker goes decides the joker rule), one to one."""
    pairs: list[tuple[int, int, int]] = []
    for m, tokens in enumerate(melds):
        want = Counter(_face_key(t.tile) for t in tokens)
        for j, slot in enumerate(slots):
            have = Counter(_face_key(t) for t in slot.tiles)
            common = want & have
            weight = sum(3 * c if key[1] == 0 else 2 * c for key, c in common.items())
            if weight:
                pairs.append((weight, m, j))
    pairs.sort(key=lambda p: (-p[0], p[1] != p[2], p[2], p[1]))
    home: dict[int, int] = {}
    taken: set[int] = set()
    for _, m, j in pairs:
        if m not in home and j not in taken:
            home[m] = j
            taken.add(j)
    return home


def copy_choices(
    melds: Sequence[Sequence[TileToken]],
    slots: Sequence[Slot],
    held: Sequence[Tile],
    rack: Sequence[Tile],
    exact: bool,
    own: Collection[Tile] = (),
) -> Iterator[list[list[Tile]]]:
    """Ways to give every stated tile a physical copy, the most natural first: a named copy
    (``R7#1``, or every tile when ``exact``) where it exists, every table copy used, a table
    copy staying in the meld that continues its slot. ``own`` holds the player's rack at the
    start of the turn: those of its tiles that are on the draft table may be left out, and are
    used before the copies still on the rack. Raises when the faces cannot fit."""
    laid = [t for slot in slots for t in slot.tiles if t in own]
    where: dict[Tile, int] = {
        t: j for j, slot in enumerate(slots) for t in slot.tiles if t not in own
    }
    where.update({t: -1 for t in held})
    table = list(where)
    pools_table: dict[tuple[int, int], list[Tile]] = {}
    for tile in table:
        pools_table.setdefault(_face_key(tile), []).append(tile)
    pools_rack: dict[tuple[int, int], list[Tile]] = {}
    for tile in [*laid, *rack]:
        pools_rack.setdefault(_face_key(tile), []).append(tile)
    fixed: dict[tuple[int, int], Tile] = {}
    everything = set(table) | set(laid) | set(rack)
    for m, tokens in enumerate(melds):
        for i, token in enumerate(tokens):
            named = exact or "#" in token.text
            if named and token.tile in everything and token.tile not in fixed.values():
                fixed[(m, i)] = token.tile
    for tile in fixed.values():
        pool = pools_table if tile in where else pools_rack
        pool[_face_key(tile)].remove(tile)
    positions: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for m, tokens in enumerate(melds):
        for i, token in enumerate(tokens):
            if (m, i) not in fixed:
                positions.setdefault(_face_key(token.tile), []).append((m, i))
    for key, places in positions.items():
        spare = len(pools_table.get(key, ())) + len(pools_rack.get(key, ()))
        if len(places) > spare:
            m, i = places[spare]
            raise IllegalMoveError(
                "Meld {number}: there is no {tile} on the table or your rack left to use.",
                number=m + 1,
                tile=str(melds[m][i].tile),
            )
    left_out = [t for key, pool in pools_table.items() for t in pool[len(positions.get(key, ())) :]]
    if left_out:
        raise IllegalMoveError(
            "Every tile on the table must stay on the table; your arrangement leaves out {tiles}.",
            tiles=tiles_text(sort_tiles(left_out)),
        )
    home = _match_melds(melds, slots)
    options: list[list[dict[tuple[int, int], Tile]]] = []
    for key, places in positions.items():
        copies = pools_table.get(key, [])
        spares = pools_rack.get(key, [])
        ways: list[tuple[int, int, dict[tuple[int, int], Tile]]] = []
        for order, chosen in enumerate(itertools.permutations(places, len(copies))):
            way = dict(zip(chosen, copies, strict=True))
            rest = iter(spares)
            for place in places:
                if place not in way:
                    way[place] = next(rest)
            at_home = sum(1 for (m, _), t in way.items() if t in where and home.get(m) == where[t])
            ways.append((-at_home, order, way))
        ways.sort(key=lambda w: (w[0], w[1]))
        options.append([w[2] for w in ways])

    def build(picks: Sequence[dict[tuple[int, int], Tile]]) -> list[list[Tile]]:
        chosen = dict(fixed)
        for pick in picks:
            chosen.update(pick)
        return [[chosen[(m, i)] for i in range(len(tokens))] for m, tokens in enumerate(melds)]

    preferred = [ways[0] for ways in options]
    yield build(preferred)
    tried = 1
    open_faces = [k for k, ways in enumerate(options) if len(ways) > 1]
    for depth in (1, 2):
        for faces in itertools.combinations(open_faces, depth):
            for picks in itertools.product(*(options[k][1:] for k in faces)):
                current = list(preferred)
                for k, pick in zip(faces, picks, strict=True):
                    current[k] = pick
                yield build(current)
                tried += 1
                if tried >= _MAX_CHOICES:
                    return
