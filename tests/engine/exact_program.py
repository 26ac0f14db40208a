"""The exact oracle's building blocks (``exact_oracle``): a growing sparse MILP solved by
SciPy's ``milp`` (HiGHS, gap 0), and the face patterns of its ordinary sets (every run and
group a supply of faces and rack jokers allows) with their layout on physical tiles."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from engine.melds import Meld, MeldKind
from engine.tiles import COLORS, Face, Tile

FaceKey = tuple[int, int]  # (colour index, number)


@dataclass
class _Program:
    """A growing MILP: columns with bounds, costs (minimised) and integrality; sparse rows."""

    lo: list[float] = field(default_factory=list)
    hi: list[float] = field(default_factory=list)
    cost: list[float] = field(default_factory=list)
    rows_data: list[float] = field(default_factory=list)
    rows_i: list[int] = field(default_factory=list)
    rows_j: list[int] = field(default_factory=list)
    row_lo: list[float] = field(default_factory=list)
    row_hi: list[float] = field(default_factory=list)

    def var(self, hi: float = 1.0, cost: float = 0.0, lo: float = 0.0) -> int:
        self.lo.append(lo)
        self.hi.append(hi)
        self.cost.append(cost)
        return len(self.lo) - 1

    def row(self, terms: dict[int, float] | list[tuple[int, float]], lo: float, hi: float) -> None:
        items = terms.items() if isinstance(terms, dict) else terms
        r = len(self.row_lo)
        for j, a in items:
            if a:
                self.rows_data.append(a)
                self.rows_i.append(r)
                self.rows_j.append(j)
        self.row_lo.append(lo)
        self.row_hi.append(hi)

    def solve(self, time_limit: float) -> object:
        n = len(self.lo)
        a = coo_matrix(
            (self.rows_data, (self.rows_i, self.rows_j)), shape=(len(self.row_lo), n)
        ).tocsr()
        constraints = [LinearConstraint(a, np.array(self.row_lo), np.array(self.row_hi))]
        return milp(
            np.array(self.cost),
            constraints=constraints,
            integrality=np.ones(n),
            bounds=Bounds(np.array(self.lo), np.array(self.hi)),
            options={"mip_rel_gap": 0.0, "time_limit": time_limit},
        )


INF = float("inf")


def _key(tile: Tile) -> FaceKey:
    assert tile.color is not None
    return (COLORS.index(tile.color), tile.number)


@dataclass(frozen=True)
class _Pattern:
    """A set over faces: its items (faces and ``"J"`` for rack jokers), how to lay it out
    (a run from ``start`` with jokers at ``places``, or a group), its face value and the face
    value of its jokers (what they are worth in the opening)."""

    items: tuple[tuple[object, int], ...]
    kind: MeldKind
    start: int
    places: tuple[int, ...]
    value: int
    joker_value: int

    def count(self, item: object) -> int:
        return dict(self.items).get(item, 0)


def _patterns(supply: Counter[FaceKey], jokers: int, longest: int) -> list[_Pattern]:
    """Every set these faces and rack jokers allow, one per multiset of items (its most
    valuable layout)."""
    best: dict[tuple[tuple[object, int], ...], _Pattern] = {}

    def add(items: Counter[object], pattern: _Pattern) -> None:
        key = tuple(sorted(((repr(k), v) for k, v in items.items() if v), key=str))
        old = best.get(key)  # type: ignore[arg-type]
        if old is None or pattern.value > old.value:
            best[key] = pattern  # type: ignore[index]

    for c in range(4):
        for lo in range(1, 12):
            for length in range(3, min(longest, 14 - lo) + 1):
                places = [(c, n) for n in range(lo, lo + length)]
                for k in range(0, min(jokers, length - 1) + 1):
                    for js in itertools.combinations(range(length), k):
                        reals = [p for i, p in enumerate(places) if i not in js]
                        if any(not supply[p] for p in reals):
                            continue
                        items: Counter[object] = Counter(reals)
                        if k:
                            items["J"] = k
                        value = sum(range(lo, lo + length))
                        joker_value = sum(lo + i for i in js)
                        add(
                            items,
                            _Pattern(
                                tuple(items.items()), MeldKind.RUN, lo, js, value, joker_value
                            ),
                        )
    for n in range(1, 14):
        here = [c for c in range(4) if supply[(c, n)]]
        for size in range(1, len(here) + 1):
            for cols in itertools.combinations(here, size):
                for k in range(0, jokers + 1):
                    if 3 <= size + k <= 4:
                        items = Counter((c, n) for c in cols)
                        if k:
                            items["J"] = k
                        add(
                            items,
                            _Pattern(
                                tuple(items.items()), MeldKind.GROUP, n, (), n * (size + k), n * k
                            ),
                        )
    return list(best.values())


def _lay_out(pattern: _Pattern, pools: dict[object, list[Tile]]) -> Meld:
    """Physical tiles for a pattern, taken from ``pools`` (by face, ``"J"`` for jokers)."""
    if pattern.kind is MeldKind.GROUP:
        tiles = [pools[f].pop() for f, k in pattern.items if f != "J" for _ in range(k)]
        tiles += [pools["J"].pop() for _ in range(pattern.count("J"))]
        return Meld.build(tiles, None, MeldKind.GROUP)
    reals = {f: pools[f].pop() for f, _ in pattern.items if f != "J"}
    length = sum(k for _, k in pattern.items)
    c = next(f for f, _ in pattern.items if f != "J")[0]  # type: ignore[index]
    tiles = []
    pins: dict[int, Face] = {}
    for i in range(length):
        n = pattern.start + i
        if i in pattern.places:
            pins[i] = Face(COLORS[c], n)
            tiles.append(pools["J"].pop())
        else:
            tiles.append(reals[(c, n)])
    return Meld.build(tiles, pins, MeldKind.RUN)


def _pools(tiles: Sequence[Tile]) -> dict[object, list[Tile]]:
    pools: dict[object, list[Tile]] = {}
    for t in tiles:
        pools.setdefault("J" if t.is_joker else _key(t), []).append(t)
    return pools


def _bound(res: object) -> int:
    bound = getattr(res, "mip_dual_bound", None)
    if bound is None or not np.isfinite(bound):
        return 10**9
    return int(np.floor(-bound + 1e-6))
