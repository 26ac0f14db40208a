"""The public entry points: ``solve``, ``check`` and ``auto_arrange``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld
from engine.rules import joker_problem
from engine.solver.drive import _GC_PAUSE, Found, _finish, _optimum, _settle
from engine.solver.model import OBJECTIVES, Solution, _placed_score
from engine.solver.rebuild import _metrics, _order, _tile_key
from engine.solver.retrieval import _retrieve
from engine.solver.share import Sharing
from engine.tiles import (
    Tile,
    tiles_text,
)

# -- public API ----------------------------------------------------------------------------------


def _match_tiles(wanted: Sequence[Tile], rack: Sequence[Tile]) -> list[Tile]:
    """The physical rack tiles meant by ``wanted`` (the same tile if present, else the face)."""
    pool = list(rack)
    out: list[Tile] = []
    for tile in wanted:
        match = next((t for t in pool if t == tile), None)
        if match is None:
            match = next((t for t in pool if t.same_face(tile)), None)
        if match is None:
            raise IllegalMoveError("{tile} is not on your rack.", tile=str(tile))
        pool.remove(match)
        out.append(match)
    return out


def solve(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    *,
    objective: str = "tiles",
    opening: bool = False,
    threshold: int = 30,
    must_place: Sequence[Tile] | None = None,
    minimal_change: bool = True,
) -> Solution | None:
    """The best legal table after playing rack tiles; None if no rack tile can be played.

    ``objective="tiles"`` places the most tiles (ties: most points), ``"value"`` the most points
    (a joker 30; ties: most tiles). ``opening=True`` plays new sets from the rack only, worth at
    least ``threshold`` (jokers count as the tile they stand for) and leaves the table alone.
    ``must_place`` plays exactly those rack tiles (None if they cannot all be placed).
    With ``minimal_change`` it then tries to leave the sets it touched as they were, one by one,
    keeping the optimum (a few extra searches on smaller tables).
    """
    with _GC_PAUSE, Sharing():
        return _solve(
            table,
            rack,
            objective=objective,
            opening=opening,
            threshold=threshold,
            must_place=must_place,
            minimal_change=minimal_change,
        )


def _solve(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    *,
    objective: str,
    opening: bool,
    threshold: int,
    must_place: Sequence[Tile] | None,
    minimal_change: bool,
) -> Solution | None:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be 'tiles' or 'value', not {objective!r}")
    rack = list(rack)
    required: list[Tile] = []
    optional: list[Tile] = rack
    if must_place is not None:
        required = _match_tiles(must_place, rack)
        optional = []
        if not required:
            return None
    options = {"objective": objective, "opening": opening, "threshold": threshold}
    base: list[Meld] = [] if opening else list(table)
    origin = {id(t): i for i, m in enumerate(table) for t in m.tiles}
    found = _optimum(base, optional, required, **options)  # type: ignore[arg-type]
    # The retrieval searches start reading the numbers the way this one won.
    prefer = None if found is None else found.way.search.m.mirrored
    retrieving = not opening and any(m.jokers for m in table)
    rack_score = _placed_score([*required, *optional], {}, objective)
    tried: int | None = None
    if retrieving and found is not None and not required and found.score < rack_score:
        # The search's score is the score of the table it found: its sets are built (and
        # settled) only when no retrieval beats it, which is about half the time.
        taken = _retrieve(
            table, optional, required, options, found.score, minimal_change, origin, prefer
        )
        if taken is not None:
            return _solution(table, taken, origin, objective, opening)
        tried = found.score
    final = (
        None
        if found is None
        else _base_table(table, base, optional, required, options, found, minimal_change, origin)
    )
    if retrieving:
        have = None if final is None else _placed_score(final, origin, objective)
        # (Run again only when the base table had to give up points, see ``_base_table``.)
        again = tried is None or have is None or have < tried
        if again and (have is None or (not required and have < rack_score)):
            taken = _retrieve(
                table, optional, required, options, have, minimal_change, origin, prefer
            )
            if taken is not None:
                final = taken
    return None if final is None else _solution(table, final, origin, objective, opening)


def _base_table(
    table: Sequence[Meld],
    base: list[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    found: Found,
    minimal_change: bool,
    origin: dict[int, int],
) -> list[Meld] | None:
    """The table of the search without retrieval (table jokers stay)."""
    score, way = found
    melds = _settle(base, optional, required, options, score, way, minimal_change, set())
    if options["opening"]:
        return [*table, *sorted(melds, key=lambda m: _tile_key(m.tiles[0]))]
    final = _order(table, melds, origin)
    if any(m.jokers for m in table) and joker_problem(table, final, True) is not None:
        # Two table jokers leaning on one real tile of another set: the search reasons about
        # faces, not which copy is which. Rare; keep the sets with jokers whole.
        fixed = [m for m in base if m.jokers]
        rest = [m for m in base if not m.jokers]
        again = _optimum(rest, optional, required, **options)  # type: ignore[arg-type]
        if again is None:
            return None
        return _order(table, [*fixed, *_finish(again[1], rest)], origin)
    return final


def _solution(
    table: Sequence[Meld], final: list[Meld], origin: dict[int, int], objective: str, opening: bool
) -> Solution:
    """The answer for ``final``: the rack tiles it places, their value and what it changed."""
    placed = sorted((t for m in final for t in m.tiles if id(t) not in origin), key=_tile_key)
    value = (
        sum(m.value for m in final[len(table) :]) if opening else sum(t.rack_value for t in placed)
    )
    kept, moved = _metrics(table, final, origin)
    return Solution(final, placed, value, kept, moved, objective, opening)


def check(table: Sequence[Meld], rack: Sequence[Tile], solution: Solution) -> str | None:
    """Re-validate a solution with the engine's own rules; None when it is legal."""
    from engine.rules import opening_problem

    start = Counter(t for m in table for t in m.tiles)
    final = Counter(t for m in solution.melds for t in m.tiles)
    if any(v > 1 for v in final.values()):
        return "a tile is used twice"
    if start - final:
        return "a table tile went missing"
    extra = final - start
    if extra - Counter(rack):
        return "a tile that is not on the rack was played"
    if sorted(extra.elements(), key=lambda t: t.sort_key()) != sorted(
        solution.placed, key=lambda t: t.sort_key()
    ):
        return "the placed tiles do not match the table"
    for meld in solution.melds:
        try:
            pins = {
                i: f
                for i, (t, f) in enumerate(zip(meld.tiles, meld.faces, strict=True))
                if t.is_joker
            }
            rebuilt = Meld.build(meld.tiles, pins, meld.kind)
        except InvalidMeldError as err:
            return str(err)
        if rebuilt.tiles != meld.tiles:
            return f"{meld} is not in canonical order"
    if solution.opening:
        return opening_problem(table, solution.melds, solution.placed, 0)
    return joker_problem(table, solution.melds, melded_before=True)


def auto_arrange(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    wanted: Sequence[Tile],
    *,
    melded: bool,
    threshold: int = 30,
) -> list[Meld]:
    """The ``auto`` verb: a legal table holding exactly the ``wanted`` rack tiles, changing as
    little as possible; raises ``IllegalMoveError`` saying what can be placed instead."""
    wanted = list(wanted)
    if not wanted:
        raise IllegalMoveError("Name the rack tiles to place, like: auto R6 K9.")
    solution = solve(table, rack, opening=not melded, threshold=threshold, must_place=wanted)
    if solution is not None:
        return solution.melds
    names = tiles_text(wanted)
    partial = solve(table, wanted, opening=not melded, threshold=threshold)
    if not melded:
        if partial is None:
            raise IllegalMoveError(
                "{tiles} cannot make an initial meld worth {threshold} from your rack alone.",
                tiles=names,
                threshold=threshold,
            )
        can = tiles_text(partial.placed)
        raise IllegalMoveError(
            "{tiles} cannot all go into your initial meld; {can} can (auto {can}).",
            tiles=names,
            can=can,
        )
    if partial is None:
        raise IllegalMoveError("None of {tiles} can be placed on this table.", tiles=names)
    can = tiles_text(partial.placed)
    raise IllegalMoveError(
        "{tiles} cannot all be placed; {can} can (auto {can}).", tiles=names, can=can
    )
