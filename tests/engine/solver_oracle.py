"""Independent checks for engine.solver: seeded positions, a set-partitioning MILP over every
legal set (SciPy's milp), an exhaustive search for small racks, and the rummikub-solver package.

Used by tests/engine/test_solver_oracle.py and benchmarks/bench_solver.py. The MILP encodes the
same rules as the solver (docs/solver.md) but shares no code with it.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from engine.errors import InvalidMeldError
from engine.melds import Meld, MeldKind
from engine.tiles import COLORS, Edition, Tile

BIG = 1000


@dataclass
class Position:
    ident: str
    table: list[Meld]
    rack: list[Tile]
    edition: Edition


# -- seeded positions ----------------------------------------------------------------------------


def _try_meld(tiles: list[Tile]) -> Meld | None:
    try:
        return Meld.build(tiles)
    except InvalidMeldError:
        return None


def random_position(
    rng: random.Random,
    table_size: int,
    rack_size: int,
    *,
    edition: Edition = Edition.CLASSIC,
    table_jokers: int = 0,
    rack_jokers: int = 0,
    ident: str = "",
) -> Position:
    """A table of about ``table_size`` tiles in legal sets (with ``table_jokers`` jokers in
    them) and a rack drawn from the rest, half of it near the table's tiles."""
    box = [t for t in edition.all_tiles() if not t.is_joker]
    jokers = [t for t in edition.all_tiles() if t.is_joker]
    rng.shuffle(box)
    faces: dict[tuple[int, int], list[Tile]] = {}
    for tile in box:
        assert tile.color is not None
        faces.setdefault((COLORS.index(tile.color), tile.number), []).append(tile)
    table: list[Meld] = []
    placed = 0
    attempts = 0
    while placed < table_size and attempts < 500:
        attempts += 1
        if rng.random() < 0.55:
            c = rng.randrange(4)
            length = rng.choice([3, 3, 3, 4, 4, 5, 6])
            start = rng.randint(1, 14 - length)
            keys = [(c, n) for n in range(start, start + length)]
        else:
            n = rng.randint(1, 13)
            cols = rng.sample(range(4), rng.choice([3, 3, 4]))
            keys = [(c, n) for c in cols]
        if any(not faces[k] for k in keys):
            continue
        tiles = [faces[k][-1] for k in keys]
        if table_jokers and jokers and rng.random() < 0.5:
            index = rng.randrange(len(tiles))
            tiles[index] = jokers[-1]
        meld = _try_meld(tiles)
        if meld is None:
            continue
        for k in keys:
            if faces[k] and faces[k][-1] in meld.tiles:
                faces[k].pop()
        if any(t.is_joker for t in meld.tiles):
            jokers.pop()
            table_jokers -= 1
        table.append(meld)
        placed += len(meld.tiles)
    rest = [t for ts in faces.values() for t in ts]
    rng.shuffle(rest)
    near_keys = {
        (COLORS.index(f.color), f.number + d)
        for m in table
        for f in m.faces
        if f.color is not None
        for d in (-1, 1)
    }
    near = [t for t in rest if t.color and (COLORS.index(t.color), t.number) in near_keys]
    rack: list[Tile] = []
    for _ in range(min(rack_jokers, len(jokers))):
        rack.append(jokers.pop())
    want_near = (rack_size - len(rack)) // 2
    for tile in near[:want_near]:
        rack.append(tile)
    for tile in rest:
        if len(rack) >= rack_size:
            break
        if tile not in rack:
            rack.append(tile)
    return Position(ident, table, rack, edition)


def position_suite(count: int, seed: int) -> list[Position]:
    """``count`` positions from empty to 80-tile tables, racks of 6 to 30, jokers on table and
    rack in about half, a tenth of them XP."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        table_size = [0, 6, 15, 30, 45, 60, 80][i % 7]
        rack_size = rng.randint(6, 30)
        edition = Edition.XP if i % 10 == 9 else Edition.CLASSIC
        table_jokers = rng.choice([0, 0, 1, 2]) if table_size else 0
        rack_jokers = rng.choice([0, 0, 1, 2])
        out.append(
            random_position(
                rng,
                table_size,
                rack_size,
                edition=edition,
                table_jokers=table_jokers,
                rack_jokers=rack_jokers,
                ident=f"p{seed}-{i}",
            )
        )
    return out


def mid_game_suite(count: int, seed: int) -> list[Position]:
    """``count`` mid-game positions (issue 27): tables of 30-59 and 60-80 tiles in legal sets,
    exactly 0, 1 or 2 jokers on the table and 0, 1 or 2 on the rack (every combination in turn),
    racks of 6-30. Classic, or XP where the box needs more than two jokers."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        lo, hi = ((30, 59), (60, 80))[i % 2]
        table_jokers = (i // 2) % 3
        rack_jokers = (i // 6) % 3
        edition = Edition.XP if table_jokers + rack_jokers > 2 else Edition.CLASSIC
        rack_size = rng.randint(6, 30)
        while True:
            p = random_position(
                rng,
                rng.randint(lo, hi - 4),
                rack_size,
                edition=edition,
                table_jokers=table_jokers,
                rack_jokers=rack_jokers,
                ident=f"m{seed}-{i}",
            )
            tiles = sum(len(m) for m in p.table)
            jokers = sum(len(m.jokers) for m in p.table)
            if lo <= tiles <= hi and jokers == table_jokers:
                break
        out.append(p)
    return out


# -- the MILP oracle -----------------------------------------------------------------------------


@dataclass
class _Joker:
    kind: MeldKind
    color: int
    number: int
    reals: frozenset[int]


def _locked_jokers(table: Sequence[Meld]) -> list[_Joker]:
    out = []
    for meld in table:
        for tile, face in zip(meld.tiles, meld.faces, strict=True):
            if not tile.is_joker:
                continue
            if meld.kind is MeldKind.RUN:
                assert face.color is not None
                reals = frozenset(t.number for t in meld.tiles if not t.is_joker)
                out.append(_Joker(MeldKind.RUN, COLORS.index(face.color), face.number, reals))
            else:
                cols = frozenset(COLORS.index(t.color) for t in meld.tiles if t.color is not None)
                out.append(_Joker(MeldKind.GROUP, -1, face.number, cols))
    return out


Set = tuple[Counter[object], int, int]


def legal_sets(avail: Counter[tuple[int, int]], free: int, locked: Sequence[_Joker]) -> list[Set]:
    """Every legal set that the available faces, free jokers and table jokers can form.

    Items: ``(c, n)`` real faces, ``"J"`` a free joker, ``("L", i)`` table joker i. Each set
    comes with its face value and the face values of its free jokers (for the opening).
    """
    sets: list[Set] = []
    for c in range(4):
        for start in range(1, 12):
            _extend_runs(c, start, [], avail, free, locked, sets)
    for n in range(1, 14):
        here = [c for c in range(4) if avail[(c, n)]]
        grp_locked = [i for i, j in enumerate(locked) if j.kind is MeldKind.GROUP and j.number == n]
        for size in range(1, len(here) + 1):
            for cols in itertools.combinations(here, size):
                for nl in range(len(grp_locked) + 1):
                    for lk in itertools.combinations(grp_locked, nl):
                        for nf in range(free + 1):
                            if not 3 <= size + nl + nf <= 4:
                                continue
                            if not all(locked[i].reals & set(cols) for i in lk):
                                continue
                            if nl == 1 and nf == 0 and size == 3:
                                missing = ({0, 1, 2, 3} - set(cols)).pop()
                                if missing in locked[lk[0]].reals:
                                    continue
                            items: list[object] = [(c, n) for c in cols]
                            items += [("L", i) for i in lk] + ["J"] * nf
                            sets.append((Counter(items), n * len(items), n * nf))
    return sets


def _dedupe(sets: list[Set]) -> list[Set]:
    """One column per distinct multiset of items, keeping its most valuable form."""
    best: dict[tuple[tuple[str, int], ...], Set] = {}
    for entry in sets:
        key = tuple(sorted((repr(k), v) for k, v in entry[0].items()))
        old = best.get(key)
        if old is None or entry[1] > old[1]:
            best[key] = entry
    return list(best.values())


def _extend_runs(
    c: int,
    start: int,
    items: list[object],
    avail: Counter[tuple[int, int]],
    free: int,
    locked: Sequence[_Joker],
    out: list[Set],
) -> None:
    """Depth first over run patterns from ``start``: each place a real tile, a free joker or a
    table joker standing for that face; every legal prefix of length 3+ is a set."""
    n = start + len(items)
    no_locked = all(not (isinstance(x, tuple) and x[0] == "L") for x in items)
    if len(items) >= 6 and no_locked and items.count("J") <= 2:
        # R1..R6 is R1-R3 plus R4-R6 (with at most two jokers each part keeps a real tile):
        # longer runs add nothing to a partition.
        return
    if len(items) >= 3 and _run_ok(items, start, free, locked):
        joker_faces = sum(start + i for i, x in enumerate(items) if x == "J")
        out.append((Counter(items), sum(range(start, n)), joker_faces))
    if n > 13:
        return
    options: list[object] = []
    if avail[(c, n)]:
        options.append((c, n))
    if items.count("J") < free:
        options.append("J")
    options += [
        ("L", i)
        for i, j in enumerate(locked)
        if j.kind is MeldKind.RUN and j.color == c and j.number == n
    ]
    for option in options:
        items.append(option)
        _extend_runs(c, start, items, avail, free, locked, out)
        items.pop()


def _run_ok(combo: Sequence[object], start: int, free: int, locked: Sequence[_Joker]) -> bool:
    reals = [i for i, x in enumerate(combo) if isinstance(x, tuple) and x[0] != "L"]
    if not reals:
        return False
    if sum(1 for x in combo if x == "J") > free:
        return False
    lks = [x for x in combo if isinstance(x, tuple) and x[0] == "L"]
    if len(set(lks)) != len(lks):
        return False
    for pos, x in enumerate(combo):
        if isinstance(x, tuple) and x[0] == "L":
            joker = locked[int(x[1])]  # type: ignore[call-overload]
            below = [start + i for i in reals if i < pos]
            above = [start + i for i in reals if i > pos]
            near = ([below[-1]] if below else []) + ([above[0]] if above else [])
            if not any(k in joker.reals for k in near):
                return False
    return True


def weights(objective: str, opening: bool, n: int, joker: bool) -> int:
    points = (n if opening else 30) if joker else n
    if objective == "value":
        return points * BIG + 1
    return BIG + points


def milp_optimum(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    *,
    objective: str = "tiles",
    opening: bool = False,
    threshold: int = 30,
    must_place: Sequence[Tile] | None = None,
    roam: bool = False,
) -> int | None:
    """The optimal objective score (same scale as the solver's), or None if infeasible.

    Table jokers stay in place; with ``roam`` they may go anywhere (each still on the table),
    which is an upper bound on any legal turn, retrieval included."""
    use_table = [] if opening else list(table)
    locked = [] if roam else _locked_jokers(use_table)
    roaming = sum(len(m.jokers) for m in use_table) if roam else 0
    table_count: Counter[tuple[int, int]] = Counter()
    for m in use_table:
        for t in m.tiles:
            if t.color is not None:
                table_count[(COLORS.index(t.color), t.number)] += 1
    rack_count: Counter[tuple[int, int]] = Counter()
    must_count: Counter[tuple[int, int]] = Counter()
    rack_tiles = list(must_place) if must_place is not None else list(rack)
    free = sum(1 for t in rack_tiles if t.is_joker)
    rack_free = free
    free += roaming
    for t in rack_tiles:
        if t.color is not None:
            rack_count[(COLORS.index(t.color), t.number)] += 1
    if must_place is not None:
        must_count = Counter(rack_count)
    avail = table_count + rack_count
    sets = _dedupe(legal_sets(avail, free, locked))
    if not sets:
        return None if (table_count or locked or must_place or opening) else 0
    faces = sorted(avail)
    rows: dict[object, int] = {f: i for i, f in enumerate(faces)}
    rows["J"] = len(rows)
    for i in range(len(locked)):
        rows[("L", i)] = len(rows)
    n_sets = len(sets)
    n_y = len(faces) + 1  # rack faces used, rack jokers used
    data, ri, ci = [], [], []
    for col, (s, _, _) in enumerate(sets):
        for item, k in s.items():
            data.append(k)
            ri.append(rows[item])
            ci.append(col)
    for i, f in enumerate(faces):
        data.append(-1)
        ri.append(rows[f])
        ci.append(n_sets + i)
    data.append(-1)
    ri.append(rows["J"])
    ci.append(n_sets + len(faces))
    a = coo_matrix((data, (ri, ci)), shape=(len(rows), n_sets + n_y)).tocsr()
    rhs = np.array([table_count[f] for f in faces] + [roaming] + [1] * len(locked), dtype=float)
    constraints = [LinearConstraint(a, rhs, rhs)]
    lo = np.zeros(n_sets + n_y)
    hi = np.full(n_sets + n_y, 4.0)
    for i, f in enumerate(faces):
        hi[n_sets + i] = rack_count[f]
        lo[n_sets + i] = must_count[f]
    hi[n_sets + len(faces)] = rack_free
    if must_place is not None:
        lo[n_sets + len(faces)] = rack_free
    cost = np.zeros(n_sets + n_y)
    for i, f in enumerate(faces):
        cost[n_sets + i] = -weights(objective, opening, f[1], False)
    if opening:
        # A joker's points in the opening are those of its face: put them on the sets.
        values = np.zeros(n_sets + n_y)
        for col, (_, value, joker_faces) in enumerate(sets):
            values[col] = value
            if objective == "value":
                cost[col] -= joker_faces * BIG
            cost[col] -= sets[col][0]["J"] * (1 if objective == "value" else BIG)
            if objective != "value":
                cost[col] -= joker_faces
        constraints.append(LinearConstraint(values.reshape(1, -1), threshold, np.inf))
    else:
        cost[n_sets + len(faces)] = -weights(objective, False, 0, True)
    res = milp(
        cost,
        constraints=constraints,
        integrality=np.ones(n_sets + n_y),
        bounds=Bounds(lo, hi),
        options={"mip_rel_gap": 0.0},
    )
    if res.status != 0 or res.x is None:
        return None
    return round(-res.fun)


def solution_score(solution: object, objective: str) -> int:
    """The solver's answer on the oracle's scale (0 for no play)."""
    from engine.solver import Solution

    if solution is None:
        return 0
    assert isinstance(solution, Solution)
    placed = set(solution.placed)
    total = 0
    for meld in solution.melds:
        for tile, face in zip(meld.tiles, meld.faces, strict=True):
            if tile in placed:
                total += weights(objective, solution.opening, face.number, tile.is_joker)
    return total


# -- exhaustive search for small positions -------------------------------------------------------


def _partitionable(tiles: list[Tile]) -> bool:
    """Can these tiles be split into legal sets? (Plain search, for a dozen tiles or so.)"""
    if not tiles:
        return True
    if len(tiles) < 3:
        return False
    first, rest = tiles[0], tiles[1:]
    # Sets of up to 5 tiles suffice: a longer run with at most two jokers splits into two.
    for size in range(2, min(len(rest), 4) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            group = [first, *(rest[i] for i in others)]
            try:
                Meld.build(group)
            except InvalidMeldError:
                continue
            left = [t for i, t in enumerate(rest) if i not in others]
            if _partitionable(left):
                return True
    return False


def exhaustive_optimum(table: Sequence[Meld], rack: Sequence[Tile], objective: str) -> int:
    """Best score over every subset of the rack (no table jokers: nothing to lock)."""
    table_tiles = [t for m in table for t in m.tiles]
    best = 0
    for size in range(len(rack), 0, -1):
        for subset in itertools.combinations(rack, size):
            score = sum(weights(objective, False, t.number, t.is_joker) for t in subset)
            if score <= best:
                continue
            if _partitionable(table_tiles + list(subset)):
                best = score
    return best


# -- rummikub-solver (PyPI) ----------------------------------------------------------------------


def reference_tile_count(
    table: Sequence[Meld], rack: Sequence[Tile], edition: Edition = Edition.CLASSIC
) -> int | None:
    """Tiles rummikub-solver 1.0.0 would place (None when it finds no arrangement)."""
    ruleset, mode = _reference(edition)
    state = ruleset.new_game()
    state.initial = False
    state.add_table(*(_ref_tile(ruleset, t) for m in table for t in m.tiles))
    state.add_rack(*(_ref_tile(ruleset, t) for t in rack))
    proposal = ruleset.solve(state, mode)
    return None if proposal is None else len(proposal.tiles)


_REFERENCE: dict[Edition, tuple[object, object]] = {}


def _reference(edition: Edition) -> tuple[object, object]:
    if edition not in _REFERENCE:
        from rummikub_solver import RuleSet, SolverMode

        ruleset = RuleSet(repeats=edition.copies, jokers=edition.jokers)
        _REFERENCE[edition] = (ruleset, SolverMode.TILE_COUNT)
    return _REFERENCE[edition]  # type: ignore[return-value]


def _ref_tile(ruleset: object, tile: Tile) -> object:
    tiles = ruleset.tiles  # type: ignore[attr-defined]
    if tile.is_joker:
        return tiles[-1]
    assert tile.color is not None
    return tiles[COLORS.index(tile.color) * 13 + tile.number - 1]
