"""Splitting one number's tiles into legal groups (with table jokers locked in them), and
the feasibility checks the search asks of a number's group counts, cached for the process."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.solver.model import GroupPart, GroupPlan, Locked

_PLAIN: dict[tuple[tuple[int, ...], tuple[int, ...], int], bool] = {}
_LOCKED_OK: dict[tuple[tuple[int, ...], tuple[int, ...], int, tuple[object, ...]], bool] = {}


def _plain_feasible(g: tuple[int, ...], rest: tuple[int, ...], jokers: int) -> bool:
    """Whether colour counts ``g`` plus up to ``rest`` more per remaining colour can form legal
    groups with at most ``jokers`` jokers and no table joker (independent of the position, so it
    is cached for the whole process; the keys are a few hundred small tuples at most)."""
    key = (g, rest, jokers)
    ok = _PLAIN.get(key)
    if ok is None:
        ok = any(
            _plan_groups([*g, *extra], jg, [], ()) is not None
            for extra in itertools.product(*(range(r + 1) for r in rest))
            for jg in range(jokers + 1)
        )
        _PLAIN[key] = ok
    return ok


_PLANS: dict[tuple[tuple[int, ...], int], GroupPlan | None] = {}


def _plain_plan(g: Sequence[int], jokers: int) -> GroupPlan | None:
    """``_plan_groups`` without table jokers, cached for the whole process like
    ``_plain_feasible`` (colour counts up to 3 and at most 4 jokers: a few thousand keys)."""
    key = (tuple(g), jokers)
    if key in _PLANS:
        return _PLANS[key]
    plan = _PLANS[key] = _plan_groups(list(g), jokers, [], ())
    return plan


_EXACT: dict[tuple[tuple[int, ...], int], bool] = {}


def _plain_exact(g: tuple[int, ...], jokers: int) -> bool:
    """Whether colour counts ``g`` and exactly ``jokers`` jokers form legal groups."""
    key = (g, jokers)
    ok = _EXACT.get(key)
    if ok is None:
        ok = _EXACT[key] = _plain_plan(g, jokers) is not None
    return ok


def _plan_groups(
    g: list[int], jokers: int, locked: list[int], info: Sequence[Locked]
) -> GroupPlan | None:
    """Exhaustive split of one number's tiles into groups (a handful of tiles, so it is cheap)."""
    first = next((c for c in range(4) if g[c]), None)
    if first is None:
        return () if jokers == 0 and not locked else None
    others = [c for c in range(first + 1, 4) if g[c]]
    for size in range(len(others), -1, -1):
        for chosen in itertools.combinations(others, size):
            colours = (first, *chosen)
            reals = len(colours)
            for nl in range(min(len(locked), 4 - reals), -1, -1):
                for lk in itertools.combinations(locked, nl):
                    if not all(
                        (info[j].reals & set(colours) or info[j].mates & set(lk))
                        and info[j].banned not in colours
                        for j in lk
                    ):
                        continue
                    for nf in range(min(jokers, 4 - reals - nl), -1, -1):
                        if reals + nl + nf < 3:
                            continue
                        if nl == 1 and nf == 0 and reals == 3:
                            missing = ({0, 1, 2, 3} - set(colours)).pop()
                            if missing in info[lk[0]].reals:
                                continue
                        for c in colours:
                            g[c] -= 1
                        rest = [j for j in locked if j not in lk]
                        sub = _plan_groups(g, jokers - nf, rest, info)
                        for c in colours:
                            g[c] += 1
                        if sub is not None:
                            return (GroupPart(colours, lk, nf), *sub)
    return None
