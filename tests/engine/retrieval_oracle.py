"""An exhaustive oracle for turns after the initial meld, joker retrieval included.

It knows nothing of the solver: it lists every legal set the physical tiles of a small position
can form (each run joker at every place it could stand, each copy of a face as its own tile),
tries every subset of the rack from the most valuable down, and covers the table's tiles plus
that subset with those sets in every way there is. A cover is a legal turn when the engine's own
joker rule (``engine.rules.joker_problem``) accepts it and it plays a rack tile: a table joker
may stay, or be retrieved by a real tile of a face it stood for in its set and go into a new
set. The first subset with a legal cover is the optimum. Exponential, so for small positions
(tables of a dozen tiles, racks of six).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from engine.melds import Meld, MeldKind
from engine.rules import joker_problem
from engine.tiles import COLORS, Face, Tile
from tests.engine.solver_oracle import weights


def every_set(tiles: Sequence[Tile]) -> list[tuple[int, Meld]]:
    """Every legal set of these physical tiles, as (bit mask over ``tiles``, meld); a run with
    jokers once for each way its jokers can stand."""
    index = {id(t): i for i, t in enumerate(tiles)}
    jokers = [t for t in tiles if t.is_joker]
    by_face: dict[tuple[int, int], list[Tile]] = {}
    for t in tiles:
        if t.color is not None:
            by_face.setdefault((COLORS.index(t.color), t.number), []).append(t)
    out: list[tuple[int, Meld]] = []

    def mask(ts: Sequence[Tile]) -> int:
        return sum(1 << index[id(t)] for t in ts)

    # Groups: one tile per colour of a number, plus jokers, 3 or 4 tiles, at least one real.
    for n in range(1, 14):
        colours = [by_face.get((c, n), []) for c in range(4)]
        options = [[None, *copies] for copies in colours]
        for pick in itertools.product(*options):
            reals = [t for t in pick if t is not None]
            if not reals:
                continue
            for k in range(len(jokers) + 1):
                if not 3 <= len(reals) + k <= 4:
                    continue
                for js in itertools.combinations(jokers, k):
                    meld = Meld.build([*reals, *js], None, MeldKind.GROUP)
                    out.append((mask(meld.tiles), meld))
    # Runs: every window of a colour, each place a real copy of its face or one of the jokers.
    for c in range(4):
        for lo in range(1, 12):
            _runs(c, lo, [], jokers, by_face, out, mask)
    return out


def _runs(
    c: int,
    lo: int,
    placed: list[Tile],
    jokers: Sequence[Tile],
    by_face: dict[tuple[int, int], list[Tile]],
    out: list[tuple[int, Meld]],
    mask: object,
) -> None:
    n = lo + len(placed)
    if len(placed) >= 3 and any(t.color is not None for t in placed):
        faces = tuple(Face(COLORS[c], lo + i) for i in range(len(placed)))
        meld = Meld(tuple(placed), faces, MeldKind.RUN)
        out.append((mask(placed), meld))  # type: ignore[operator]
    if n > 13:
        return
    for tile in [*by_face.get((c, n), []), *(j for j in jokers if j not in placed)]:
        placed.append(tile)
        _runs(c, lo, placed, jokers, by_face, out, mask)
        placed.pop()


def _covers(
    left: int, sets_with: list[list[tuple[int, Meld]]], chosen: list[Meld]
) -> Iterator[list[Meld]]:
    """Every way of covering the tiles in ``left`` exactly with the listed sets."""
    if not left:
        yield list(chosen)
        return
    low = (left & -left).bit_length() - 1
    for m, meld in sets_with[low]:
        if m & left == m:
            chosen.append(meld)
            yield from _covers(left & ~m, sets_with, chosen)
            chosen.pop()


def best_turn(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    objective: str = "tiles",
    exactly: Sequence[Tile] | None = None,
) -> tuple[int, list[Meld] | None]:
    """The best score a legal turn after the initial meld reaches (the solver's scale; 0: no
    play) and one table that reaches it; with ``exactly``, only turns placing those tiles."""
    table_tiles = [t for m in table for t in m.tiles]
    tiles = [*table_tiles, *rack]
    sets = every_set(tiles)
    sets_with: list[list[tuple[int, Meld]]] = [[] for _ in tiles]
    for m, meld in sets:
        sets_with[(m & -m).bit_length() - 1].append((m, meld))
    table_mask = (1 << len(table_tiles)) - 1
    subsets = []
    for size in range(1, len(rack) + 1):
        for subset in itertools.combinations(range(len(rack)), size):
            if exactly is not None and {id(rack[i]) for i in subset} != set(map(id, exactly)):
                continue
            score = sum(weights(objective, False, rack[i].number, rack[i].is_joker) for i in subset)
            bits = sum(1 << (len(table_tiles) + i) for i in subset)
            subsets.append((score, bits))
    subsets.sort(key=lambda s: -s[0])
    jokers_on_table = any(t.is_joker for t in table_tiles)
    for score, bits in subsets:
        for cover in _covers(table_mask | bits, sets_with, []):
            if not jokers_on_table or joker_problem(table, cover, melded_before=True) is None:
                return score, cover
    return 0, None
