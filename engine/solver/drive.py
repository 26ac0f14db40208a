"""Running the search: the model for one reading of the numbers (1..13 or mirrored), the race
between the two readings, the sets it found as melds, and the minimal-change pass."""

from __future__ import annotations

import gc as _gc
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.melds import Meld, MeldKind
from engine.solver.model import (
    _FREEZE_NODES,
    _HEAD_START,
    _NEG,
    _PREFER_HEAD_START,
    _RACE_BUDGET,
    Model,
    OutOfBudget,
    _useless,
)
from engine.solver.rebuild import _assign, _attach, _build, _regroup, _split_runs, _table_signatures
from engine.solver.search import Search
from engine.solver.walk import arrangement
from engine.tiles import (
    Face,
    Tile,
)


@dataclass
class Direction:
    """One way of reading the numbers (1..13, or mirrored 13..1) with its own search."""

    table: list[Meld]
    optional: list[Tile]
    required: list[Tile]
    search: Search
    back: dict[int, Tile] | None  # id of a mirrored tile -> real tile
    sigs: list[tuple[int, ...]] | None = None  # the table's set signatures, once computed


class Found(NamedTuple):
    """An optimum score and the search that reached it (``_finish`` builds its melds)."""

    score: int
    way: Direction


def _direction(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    *,
    objective: str,
    opening: bool,
    threshold: int,
    mirrored: bool,
    defer: bool = True,
    banned: dict[int, int] | None = None,
    witnesses: dict[int, frozenset[int]] | None = None,
    mates: dict[int, frozenset[int]] | None = None,
) -> Direction:
    back: dict[int, Tile] | None = None
    if mirrored:
        back = {}
        table = [_mirror(m, back) for m in table]
        optional = _flip_all(optional, back)
        required = _flip_all(required, back)
    model = Model(
        table,
        optional,
        required,
        objective=objective,
        opening=opening,
        threshold=threshold,
        mirrored=mirrored,
        defer=defer,
        banned=banned,
        witnesses=witnesses,
        mates=mates,
    )
    _useless(model)
    return Direction(list(table), list(optional), list(required), Search(model), back)


def _optimum(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    *,
    objective: str,
    opening: bool,
    threshold: int,
    target: int | None = None,
    cap: list[int] | None = None,
    defer: bool = True,
    banned: dict[int, int] | None = None,
    witnesses: dict[int, frozenset[int]] | None = None,
    mates: dict[int, frozenset[int]] | None = None,
    empty_ok: bool = False,
    prefer: bool | None = None,
) -> Found | None:
    """The optimum score and the search that found it (``_finish`` builds the sets holding
    ``table`` plus the placed rack tiles); None when no rack tile can be played.

    How fast the search is can depend a lot on which end of the numbers it starts from (the
    bound only bites once it has passed the rack tiles that cannot be placed). Outside the
    opening, a search that needs more than a budget of nodes is raced against the mirrored one
    (numbers read 13..1) with a budget that doubles, and the first to finish wins. The
    direction it starts with (``prefer``: mirrored or not, when a search of the same position
    already won in it; else ``_start_high``) gets ``_HEAD_START`` times the budget
    (``_PREFER_HEAD_START`` times with ``prefer``).

    With ``target`` only a table worth at least that much counts (None otherwise); ``cap`` is a
    node allowance shared by several calls (its one item is decreased; None when it runs out).

    Free jokers left over by a deferring search are added to the sets it found; in the rare case
    that they do not fit, the search runs again with every joker placed inside it."""
    options = {
        "objective": objective,
        "opening": opening,
        "threshold": threshold,
        "defer": defer,
        "banned": banned,
        "witnesses": witnesses,
        "mates": mates,
    }
    if opening:
        way = _direction(table, optional, required, mirrored=False, **options)  # type: ignore[arg-type]
        return _found(way, way.search.run(target), empty_ok)
    flip = _start_high(table, optional, required) if prefer is None else prefer
    ways = [_direction(table, optional, required, mirrored=flip, **options)]  # type: ignore[arg-type]
    budget = _RACE_BUDGET
    head = _HEAD_START if prefer is None else _PREFER_HEAD_START
    while True:
        for way in ways:
            step = budget * head if way is ways[0] else budget
            step = step if cap is None else min(step, cap[0])
            if step <= 0:
                return None
            before = way.search.nodes
            way.search.limit = before + step
            try:
                score: int | None = way.search.run(target)
            except OutOfBudget:
                score = None
            if cap is not None:
                cap[0] -= way.search.nodes - before
            if score is None:
                continue
            found = _found(way, score, empty_ok)
            if found is not None and way.search.m.defer and not _placed_deferred(way):
                options["defer"] = False
                return _optimum(
                    table,
                    optional,
                    required,
                    target=target,
                    cap=cap,
                    empty_ok=empty_ok,
                    prefer=prefer,
                    **options,  # type: ignore[arg-type]
                )
            return found
        if len(ways) == 1:
            ways.append(_direction(table, optional, required, mirrored=not flip, **options))  # type: ignore[arg-type]
        else:
            budget *= 2


def _start_high(table: Sequence[Meld], optional: Sequence[Tile], required: Sequence[Tile]) -> bool:
    """Whether to read the numbers 13..1 first: when the tiles present (table and rack, every
    copy) lean to low numbers. The search is usually faster from the sparser end (on the
    benchmark's suites the race then costs about a tenth fewer nodes than with the faces
    present counted once each, and about a third fewer than always starting at 1); the race
    still covers a wrong guess."""
    total = count = 0
    for meld in table:
        for tile in meld.tiles:
            if tile.color is not None:
                total += tile.number
                count += 1
    for tiles in (optional, required):
        for tile in tiles:
            if tile.color is not None:
                total += tile.number
                count += 1
    return total < 7 * count


def _core(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    *,
    objective: str,
    opening: bool,
    threshold: int,
) -> tuple[int, list[Meld]] | None:
    """The optimum score and the sets holding ``table`` plus the placed rack tiles (used by the
    hard AI's joker retrievals); None when no rack tile can be played."""
    with _GC_PAUSE:
        found = _optimum(
            table, optional, required, objective=objective, opening=opening, threshold=threshold
        )
        return None if found is None else (found[0], _finish(found[1], table))


def _placed_deferred(way: Direction) -> bool:
    """Add the free jokers the search left for the end to its sets; False if they do not fit."""
    search = way.search
    sets = arrangement(search)
    if not search.leftover:
        return True
    way.sigs = _table_signatures(way.table, search.m)
    avoid = Counter(way.sigs)
    return _attach(sets, search.leftover, avoid)


def _found(way: Direction, score: int, empty_ok: bool = False) -> Found | None:
    if score == _NEG or (score <= 0 and not way.required and not empty_ok):
        return None
    return Found(score, way)


def _finish(way: Direction, real_table: Sequence[Meld]) -> list[Meld]:
    search = way.search
    model = search.m
    table = way.table
    sets = arrangement(search)
    sigs = way.sigs if way.sigs is not None else _table_signatures(table, model)
    if table:
        targets: dict[tuple[int, ...], int] = {}
        for sig in sigs:
            targets[sig] = targets.get(sig, 0) + 1
        sets = _split_runs(sets, targets, model.locked)
        if any(m.kind is MeldKind.GROUP for m in table):
            sets = _regroup(sets, table, model, targets)
    chosen, whole = _assign(sets, table, sigs, model, way.required, way.optional)
    # A set equal to a starting set is that set; so is one that comes back with its tiles in
    # the same order.
    same = {tuple(map(id, m.tiles)): real_table[i] for i, m in enumerate(table)}
    back = way.back
    on_table = set() if back is None else {t for m in real_table for t in m.tiles if t.is_joker}
    melds: list[Meld] = []
    for items, tiles, home in zip(sets, chosen, whole, strict=True):
        kept = real_table[home] if home >= 0 else same.get(tuple(map(id, tiles))) if same else None
        if kept is not None:
            melds.append(kept)
        elif back is None:
            melds.append(_build(items, tiles))
        else:
            melds.append(_tidy(_build(items, tiles, back), on_table))
    return melds


# Mirrored tiles and faces, made once for the process (keys by colour identity: hashing a tile
# or a Color runs Python code). Tiles and faces are immutable, so sharing them is safe.
_FLIPPED: dict[tuple[int, int, int], Tile] = {}
_FLIPPED_FACE: dict[tuple[int, int], Face] = {}


def _flip_face(face: Face) -> Face:
    key = (id(face.color), face.number)
    flipped = _FLIPPED_FACE.get(key)
    if flipped is None:
        flipped = _FLIPPED_FACE[key] = Face(face.color, 14 - face.number)
    return flipped


def _flip_all(tiles: Iterable[Tile], back: dict[int, Tile]) -> list[Tile]:
    """The mirrored tiles, noting in ``back`` the real tile behind each (by identity)."""
    flipped = _FLIPPED
    out: list[Tile] = []
    for tile in tiles:
        mirror = tile
        if tile.color is not None:
            key = (id(tile.color), tile.number, tile.copy)
            found = flipped.get(key)
            if found is None:
                found = flipped[key] = Tile(tile.color, 14 - tile.number, tile.copy)
            mirror = found
        back[id(mirror)] = tile
        out.append(mirror)
    return out


def _mirror(meld: Meld, back: dict[int, Tile]) -> Meld:
    """The same set with every number n read as 14 - n (a run is read backwards)."""
    tiles = _flip_all(meld.tiles, back)
    faces = [_flip_face(f) for f in meld.faces]
    if meld.kind is MeldKind.RUN:
        tiles.reverse()
        faces.reverse()
    return Meld(tuple(tiles), tuple(faces), meld.kind)


def _tidy(meld: Meld, table_jokers: set[Tile]) -> Meld:
    """Put a rack joker that leads a run at its end instead (J R5 R6 -> R5 R6 J) when there is
    room, as players write it; table jokers keep their faces."""
    if meld.kind is not MeldKind.RUN:
        return meld
    lead = 0
    while (
        lead < len(meld.tiles)
        and meld.tiles[lead].is_joker
        and meld.tiles[lead] not in table_jokers
    ):
        lead += 1
    room = 13 - meld.faces[-1].number
    move = min(lead, room)
    if not move:
        return meld
    color = meld.faces[-1].color
    top = meld.faces[-1].number
    pins = {i: f for i, (t, f) in enumerate(zip(meld.tiles, meld.faces, strict=True)) if t.is_joker}
    for k in range(move):
        pins[k] = Face(color, top + 1 + k)
    return Meld.build(meld.tiles, pins, MeldKind.RUN)


class _GcPause:
    """Pause the cyclic garbage collector while solving: the search makes many short-lived
    tuples and no cycles worth finding, and a full collection on a busy heap can cost tens of
    milliseconds. Counted, so that solves running in several threads turn it back on once, when
    the last one ends (and only if it was on)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.was_on = False

    def __enter__(self) -> None:
        with self.lock:
            if self.depth == 0:
                self.was_on = _gc.isenabled()
                _gc.disable()
            self.depth += 1

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0 and self.was_on:
                _gc.enable()


_GC_PAUSE = _GcPause()


def _settle(
    base: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    score: int,
    way: Direction,
    minimal_change: bool,
    unfrozen: set[int],
) -> list[Meld]:
    """The sets of an optimal table; with ``minimal_change`` the sets it touched are frozen
    where the optimum survives (all at once, then one by one, up to six; ``unfrozen`` holds the
    ids of starting sets that may not be frozen)."""
    new_melds = _finish(way, base)
    if not minimal_change or not base:
        return new_melds
    frozen: list[Meld] = []
    final_sets = {frozenset(m.tiles) for m in new_melds}
    touched = [m for m in base if frozenset(m.tiles) not in final_sets and id(m) not in unfrozen]
    trials = [touched] if len(touched) > 1 else []
    trials += [[m] for m in touched[:6]]
    # The pass is a preference: each trial only asks whether the optimum is still reached,
    # and all of them share a node allowance.
    cap = [_FREEZE_NODES]
    last: tuple[Direction, list[Meld]] | None = None
    for trial in trials:
        if any(m in frozen for m in trial):
            continue
        keep = frozen + trial
        rest = [m for m in base if m not in keep]
        again = _optimum(rest, optional, required, target=score, cap=cap, **options)  # type: ignore[arg-type]
        if again is not None and again[0] == score:
            frozen = keep
            last = (again[1], rest)
            if trial is touched:
                break
    if last is not None:
        new_melds = _finish(*last)
    return [*frozen, *new_melds]
