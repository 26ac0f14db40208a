"""Probe for issue 27 (docs/solver.md, "The eighth round"): how many search nodes a bound from
prices would save, what the prices cost left aside. Pure build only; it patches the search.

The bound is a Lagrangian decomposition of the search's problem: per colour, the runs (a
dynamic programme over that colour's open runs alone, with the search's own colour options and
every free joker available); per number, the groups. The tiles a colour leaves for the groups
are priced instead of counted (``lam[c][n]``: the colour pays it, the groups earn it), and so
are the free jokers (``mu`` per joker used, ``mu`` per joker left, at least a joker's weight).
For any prices the best of the parts, summed, bounds what the search can still add from any
state: its colours' values from where they stand, the best groups the current number's counts
so far can still end in, the later numbers' groups and ``mu`` per joker left.

Run: ``.venv/bin/python benchmarks/probe_prices.py [--kind 30-59,yes,yes] [--ids m2026-70,...]
[--prices lp|aimed|first] [--steps 60] [--count 540] [--seed 2026]`` on the mid-game suite:

* ``lp``: every search gets the linear programme's own prices (its dual, solved by HiGHS:
  the best this bound can do);
* ``aimed``: every search's prices by subgradient steps with Polyak's rule aimed half a point
  below the need it starts with (what a retrieval search knows; a first search aims at its
  trivial bound);
* ``first``: prices from the first search's model once its optimum is known (steps aimed at
  it), the later searches only evaluate them (the first search itself is not bounded).

It prints each position's nodes without and with the bound (and whether the answer is the
same) and the total, median, p99 and max of both.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import pct
from bench_solver_kinds import kind_of

import engine.solver.api as api
from engine.solver.groups import _plain_exact, _plan_groups
from engine.solver.model import _NEG, _STAGES, Model
from engine.solver.search import _JL_SHIFT, _SID_SHIFT, Search
from engine.solver.tables import _SB, _SMASK, Step
from tests.engine.solver_oracle import mid_game_suite

_NONE = -1.0e18  # no way on from a state (below any score)
_MAX_STATES = 12_000  # relaxed open-run states per search beyond which no bound is built
_MAX_IDS = 24_000  # open-run ids in the shared tables beyond which none is (a search holds 32,767)


class Source:
    """What the bound needs of a search."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.m: Model = search.m
        self.base = search.base
        self.gtab = search.gtab
        self.locked_at = search.locked_at
        self.canon = search.canon

    def steps_at(self, s: int, sid: int, jl: int) -> list[Step]:
        key = (sid << _SID_SHIFT) | (jl << _JL_SHIFT) | s
        steps = self.search.colour_cache.get(key)
        if steps is None:
            steps = self.search.colour_options(key, s, sid, jl)
        return steps


class Prices:
    """Prices by real number (a mirrored search reads them backwards): ``lam[c][n]`` per tile
    left for the groups, ``mu`` per free joker (at least a joker's weight)."""

    def __init__(self, lam: list[list[float]], mu: float) -> None:
        self.lam = lam
        self.mu = mu


class Relaxed:
    """Per colour, the open-run states reachable from none with every free joker available and
    their steps, in order of number (a step leads to a later state or past 13)."""

    def __init__(self, src: Source) -> None:
        m = src.m
        jokers = m.free_jokers
        self.colour: list[int] = []
        self.number: list[int] = []
        self.first: list[int] = []
        self.gain: list[int] = []
        self.gc: list[int] = []
        self.free: list[int] = []
        self.child: list[int] = []
        self.index: list[dict[int, int]] = [{} for _ in range(4 * 15)]
        self.ok = True
        for c in range(4):
            level = {0: self._add(c, 1, 0)}
            for n in range(1, 14):
                nxt: dict[int, int] = {}
                s = 5 * n - 5 + c
                base = src.base[s]
                for sid, state in level.items():
                    self.first[state] = len(self.gain)
                    for step in src.steps_at(s, sid, jokers):
                        nsid = sid + step[2]
                        child = -1
                        if n < 13:
                            found = nxt.get(nsid)
                            if found is None:
                                if (
                                    len(self.number) >= _MAX_STATES
                                    or len(src.search.tables.stab) > _MAX_IDS
                                ):
                                    self.ok = False
                                    return
                                found = nxt[nsid] = self._add(c, n + 1, nsid)
                            child = found
                        self.gain.append(step[1] - base)
                        self.gc.append(step[4])
                        self.free.append(jokers - step[3])
                        self.child.append(child)
                level = nxt
        self.first.append(len(self.gain))

    def _add(self, c: int, n: int, sid: int) -> int:
        state = len(self.number)
        self.colour.append(c)
        self.number.append(n)
        self.first.append(0)
        self.index[c * 15 + n][sid] = state
        return state

    def values(self, lam: list[float], mu: float, pick: list[int] | None = None) -> list[float]:
        """Each state's best value with the prices (``lam`` by colour * 15 + number, as this
        search reads the numbers), and its best step in ``pick`` when given."""
        count = len(self.number)
        val = [_NONE] * count
        first = self.first
        gain = self.gain
        gc = self.gc
        free = self.free
        child = self.child
        for state in range(count - 1, -1, -1):
            price = lam[self.colour[state] * 15 + self.number[state]]
            best = _NONE
            arg = -1
            for k in range(first[state], first[state + 1]):
                nxt = child[k]
                sub = 0.0 if nxt < 0 else val[nxt]
                if sub == _NONE:
                    continue
                x = gain[k] - price * gc[k] - mu * free[k] + sub
                if x > best:
                    best = x
                    arg = k
            val[state] = best
            if pick is not None:
                pick[state] = arg
        return val


class Groups:
    """Per number, every count of tiles per colour (up to what is there) and free jokers that
    form legal groups (with the table jokers standing there)."""

    def __init__(self, src: Source) -> None:
        m = src.m
        self.src = src
        self.jokers = m.free_jokers
        self.options: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(15)]
        for n in range(1, 14):
            ranges = [range(m.avail[c][n] + 1) for c in range(4)]
            for g in itertools.product(*ranges):
                for jg in range(self.jokers + 1):
                    if self.legal(n, list(g), jg):
                        self.options[n].append((g, jg))

    def legal(self, n: int, g: list[int], jg: int) -> bool:
        src = self.src
        locked = src.locked_at[n]
        if not any(g):
            return not jg and not locked
        if src.canon[n]:
            return _plain_exact(tuple(sorted(g)), jg)
        return _plan_groups(g, jg, list(locked), src.m.locked) is not None

    def best(self, n: int, lam: list[float], joker: float) -> tuple[float, int]:
        """The best groups of number ``n`` with the prices, and which option it is."""
        top = _NONE
        arg = -1
        for k, (g, jg) in enumerate(self.options[n]):
            x = lam[n] * g[0] + lam[15 + n] * g[1] + lam[30 + n] * g[2] + lam[45 + n] * g[3]
            x += jg * joker
            if x > top:
                top = x
                arg = k
        return top, arg


def _flat(prices: Prices, mirrored: bool) -> list[float]:
    lam = [0.0] * 60
    for c in range(4):
        for n in range(1, 14):
            lam[c * 15 + n] = prices.lam[c][14 - n if mirrored else n]
    return lam


def _root(
    relaxed: Relaxed, groups: Groups, lam: list[float], mu: float, pick: list[int] | None = None
) -> tuple[float, list[int]]:
    """The bound at the start of the search with the prices (flat ``lam``, as it reads the
    numbers), unrounded, and each number's best groups (option index)."""
    m = groups.src.m
    val = relaxed.values(lam, mu, pick)
    total = mu * m.free_jokers
    chosen = [0] * 15
    for n in range(1, 14):
        top, chosen[n] = groups.best(n, lam, m.joker_weight[n] - mu)
        total += top
    for c in range(4):
        total += val[relaxed.index[c * 15 + 1][0]]
    return total, chosen


def optimise(src: Source, aim: float, steps: int) -> Prices | None:
    """Prices that bring the bound of ``src``'s search from its start near ``aim`` (its known
    optimum plus a half): subgradient steps with Polyak's rule, the best prices seen; None when
    the relaxed states are too many."""
    m = src.m
    relaxed = Relaxed(src)
    if not relaxed.ok:
        return None
    groups = Groups(src)
    weight = m.weight
    floor_mu = float(m.defer_weight)
    jokers = m.free_jokers
    lam = [0.0] * 60
    for c in range(4):
        for n in range(1, 14):
            lam[c * 15 + n] = 0.5 * weight[n]
    mu = floor_mu
    starts = [relaxed.index[c * 15 + 1][0] for c in range(4)]
    pick = [0] * len(relaxed.number)
    best_value = math.inf
    best_lam = lam[:]
    best_mu = mu
    for step in range(steps + 1):
        total, chosen = _root(relaxed, groups, lam, mu, pick)
        if total < best_value:
            best_value, best_lam, best_mu = total, lam[:], mu
        if step == steps or total < aim + 0.5:
            break
        # The subgradient: what the groups take minus what the colours leave them, per tile;
        # the jokers there are minus those used.
        grad = [0.0] * 60
        used = 0
        for c, state in enumerate(starts):
            while state >= 0:
                k = pick[state]
                if k < 0:
                    break
                n = relaxed.number[state]
                grad[c * 15 + n] -= relaxed.gc[k]
                used += relaxed.free[k]
                state = relaxed.child[k]
        for n in range(1, 14):
            g, jg = groups.options[n][chosen[n]]
            for c in range(4):
                grad[c * 15 + n] += g[c]
            used += jg
        spare = jokers - used
        norm = spare * spare + sum(x * x for x in grad)
        if norm == 0:
            break
        size = 1.8 * (total - aim) / norm
        for i in range(60):
            lam[i] -= size * grad[i]
        mu = max(floor_mu, mu - size * spare)
    real = [[0.0] * 15 for _ in range(4)]
    for c in range(4):
        for n in range(1, 14):
            real[c][14 - n if m.mirrored else n] = best_lam[c * 15 + n]
    return Prices(real, best_mu)


class Bound:
    """The prices' bound on every state of one search (built once, then looked up)."""

    def __init__(self, src: Source, prices: Prices) -> None:
        m = src.m
        self.src = src
        self.ok = False
        relaxed = Relaxed(src)
        if not relaxed.ok:
            return
        self.relaxed = relaxed
        self.groups = groups = Groups(src)
        self.lam = lam = _flat(prices, m.mirrored)
        self.mu = mu = max(prices.mu, float(m.defer_weight))
        self.val = relaxed.values(lam, mu)
        self.joker = [float(w) - mu for w in m.joker_weight]
        self.later = [0.0] * 16  # the best groups of numbers n..13
        for n in range(13, 0, -1):
            self.later[n] = self.later[n + 1] + groups.best(n, lam, self.joker[n])[0]
        self.partial: dict[int, float] = {}
        self.ok = True

    def part(self, n: int, c: int, gid: int) -> float:
        """The best groups number ``n`` can still end in, its colours before ``c`` holding the
        counts ``gid``, priced for the colours from ``c`` on."""
        key = (gid * 16 + n) * 5 + c
        found = self.partial.get(key)
        if found is not None:
            return found
        src = self.src
        fixed = list(src.gtab[gid])
        lam = self.lam
        groups = self.groups
        top = _NONE
        ranges = [range(src.m.avail[cc][n] + 1) for cc in range(c, 4)]
        for extra in itertools.product(*ranges):
            g = fixed + list(extra)
            worth = 0.0
            for i, e in enumerate(extra):
                worth += lam[(c + i) * 15 + n] * e
            for jg in range(groups.jokers + 1):
                if groups.legal(n, g, jg):
                    x = worth + jg * self.joker[n]
                    if x > top:
                        top = x
        self.partial[key] = top
        return top

    def bound(self, s: int, st: int, jl: int, gid: int) -> int:
        """An upper bound on what the search can still add from this state."""
        n = s // 5 + 1
        c = s % 5
        total = self.mu * jl + self.later[n + 1] + self.part(n, c, gid)
        if total <= _NONE / 2:
            return _NEG
        index = self.relaxed.index
        val = self.val
        for cc in range(4):
            nn = n + 1 if cc < c else n
            if nn > 13:
                continue
            state = index[cc * 15 + nn].get((st >> (_SB * cc)) & _SMASK)
            if state is None:
                return 1 << 60  # not a state the relaxation knows: no bound
            v = val[state]
            if v == _NONE:
                return _NEG
            total += v
        return math.floor(total + 1e-6)


def lp_prices(src: Source) -> Prices | None:
    """The linear programme's own prices: the colours' open runs as flows, the groups as
    convex combinations, one row per tile left for the groups and one for the free jokers
    (HiGHS); the duals of those rows are the prices (the sign that bounds lower is kept)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    m = src.m
    relaxed = Relaxed(src)
    if not relaxed.ok:
        return None
    groups = Groups(src)
    dw = float(m.defer_weight)
    jokers = m.free_jokers
    arcs = len(relaxed.gain)
    owner = [0] * arcs
    for state in range(len(relaxed.number)):
        for k in range(relaxed.first[state], relaxed.first[state + 1]):
            owner[k] = state
    options = [(n, g, jg) for n in range(1, 14) for g, jg in groups.options[n]]
    states = len(relaxed.number)
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    rhs = [1.0 if relaxed.number[i] == 1 else 0.0 for i in range(states)]
    for k in range(arcs):
        rows.append(owner[k])
        cols.append(k)
        vals.append(1.0)
        if relaxed.child[k] >= 0:
            rows.append(relaxed.child[k])
            cols.append(k)
            vals.append(-1.0)
        if relaxed.gc[k]:
            state = owner[k]
            rows.append(states + 13 + relaxed.colour[state] * 13 + relaxed.number[state] - 1)
            cols.append(k)
            vals.append(float(relaxed.gc[k]))
    rhs += [1.0] * 13 + [0.0] * 52
    for i, (n, g, _) in enumerate(options):
        rows.append(states + n - 1)
        cols.append(arcs + i)
        vals.append(1.0)
        for c in range(4):
            if g[c]:
                rows.append(states + 13 + c * 13 + n - 1)
                cols.append(arcs + i)
                vals.append(-float(g[c]))
    size = arcs + len(options)
    eq = coo_matrix((vals, (rows, cols)), shape=(states + 65, size)).tocsr()
    used = np.array([float(f) for f in relaxed.free] + [float(jg) for _, _, jg in options])
    cost = np.array(
        [-(relaxed.gain[k] - dw * relaxed.free[k]) for k in range(arcs)]
        + [-(jg * (m.joker_weight[n] - dw)) for n, _, jg in options]
    )
    res = linprog(
        cost,
        A_ub=used.reshape(1, -1),
        b_ub=[jokers],
        A_eq=eq,
        b_eq=rhs,
        bounds=(0, None),
        method="highs",
    )
    if res.status != 0:
        return None
    duals = res.eqlin.marginals
    best: tuple[float, Prices] | None = None
    for sign in (1.0, -1.0):
        lam = [[0.0] * 15 for _ in range(4)]
        for c in range(4):
            for n in range(1, 14):
                lam[c][14 - n if m.mirrored else n] = sign * duals[states + 13 + c * 13 + n - 1]
        for joker_sign in (1.0, -1.0):
            prices = Prices(lam, dw + max(0.0, joker_sign * res.ineqlin.marginals[0]))
            root, _ = _root(relaxed, groups, _flat(prices, m.mirrored), prices.mu)
            if best is None or root < best[0]:
                best = (root, prices)
    return None if best is None else best[1]


# -- the patches ---------------------------------------------------------------------------------

MODE = {"prices": "lp", "steps": 60}
FIRST: dict[str, Any] = {"prices": None, "running": False}
_best = Search.best
_optimum = api._optimum


def _bounded(self: Any, s: int, st: int, jl: int, gid: int, val: int, need: int, *rest: Any) -> int:
    """``Search.best`` with the bound asked first (made at the search's first call; what the
    search passes after ``need`` goes on to it as it came)."""
    if not hasattr(self, "probe_bound") and s < _STAGES and not FIRST["running"]:
        self.probe_bound = _make(self, need)
    bound = getattr(self, "probe_bound", None)
    if bound is not None and s < _STAGES:
        cap = bound.bound(s, st, jl, gid)
        if cap < need:
            self.nodes += 1
            return cap
    return _best(self, s, st, jl, gid, val, need, *rest)


def _make(search: Search, need: int) -> Bound | None:
    m = search.m
    if m.opening or (m.free_jokers and not m.defer):
        return None  # (the relaxation credits jokers left over as a deferring search does)
    src = Source(search)
    if MODE["prices"] == "lp":
        prices = lp_prices(src)
    elif MODE["prices"] == "aimed":
        prices = optimise(src, need - 0.5, MODE["steps"])
    else:
        prices = FIRST["prices"]
    if prices is None:
        return None
    bound = Bound(src, prices)
    return bound if bound.ok else None


def _first(*args: Any, **kwargs: Any) -> Any:
    """The first search of a position (``first``: unbounded, then prices from its model)."""
    FIRST["prices"] = None
    FIRST["running"] = MODE["prices"] == "first"
    try:
        found = _optimum(*args, **kwargs)
    finally:
        FIRST["running"] = False
    if MODE["prices"] == "first" and found is not None and kwargs.get("target") is None:
        FIRST["prices"] = optimise(Source(found.way.search), found.score + 0.5, MODE["steps"])
    return found


def nodes_of(p: Any) -> tuple[int, tuple[int, int]]:
    """Nodes of every search of one solve, and its answer."""
    counted = [0]
    run = Search.run

    def counting(self: Search, target: int | None = None) -> int:
        before = self.nodes
        try:
            return run(self, target)
        finally:
            counted[0] += self.nodes - before

    Search.run = counting  # type: ignore[method-assign]
    try:
        solution = api.solve(p.table, p.rack, minimal_change=False)
    finally:
        Search.run = run  # type: ignore[method-assign]
    answer = (0, 0) if solution is None else (len(solution.placed), solution.value)
    return counted[0], answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="30-59,yes,yes", help="table size, tj, rj")
    parser.add_argument("--ids", default="", help="positions by ident (overrides --kind)")
    parser.add_argument("--prices", choices=("lp", "aimed", "first"), default="lp")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--count", type=int, default=540)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    MODE["prices"], MODE["steps"] = args.prices, args.steps
    wanted = set(args.ids.split(",")) if args.ids else None
    kind = tuple(args.kind.split(","))
    suite = mid_game_suite(args.count, args.seed)
    positions = [p for p in suite if (p.ident in wanted if wanted else kind_of(p) == kind)]
    before: list[int] = []
    after: list[int] = []
    same = 0
    for p in positions:
        plain, answer = nodes_of(p)
        Search.best = _bounded  # type: ignore[method-assign]
        api._optimum = _first
        try:
            bounded, again = nodes_of(p)
        finally:
            Search.best = _best  # type: ignore[method-assign]
            api._optimum = _optimum
        same += answer == again
        before.append(plain)
        after.append(bounded)
        print(f"{p.ident}: {plain} -> {bounded} nodes{'' if answer == again else ' DIFFERENT'}")
    for name, values in (("without", before), ("with", after)):
        print(
            f"{name} the bound: total {sum(values)}, median {statistics.median(values):.0f}, "
            f"p99 {pct(values, 0.99)}, max {max(values)}"
        )
    print(f"same answer on {same} of {len(positions)}")
    return 0 if same == len(positions) else 1


if __name__ == "__main__":
    sys.exit(main())
