"""The walk back over a finished search's memo: its stored choices, stage by stage, turned into
sets of faces (``search.Search``; ``rebuild`` then picks the physical tiles)."""

from __future__ import annotations

from typing import cast

from engine.solver.groups import _plain_plan, _plan_groups
from engine.solver.model import _FACES, _STAGES, FREE, REAL, FaceSet
from engine.solver.search import Search
from engine.solver.tables import _ColourChoice


def _first(run: tuple[int, FaceSet]) -> int:
    return run[0]


def arrangement(search: Search) -> list[FaceSet]:
    """Walk the search's stored choices from the start and return the sets as (face, item)
    lists (once, kept in ``search.sets``; ``search.leftover`` is then the number of deferred
    free jokers)."""
    if search.sets is not None:
        return search.sets
    m = search.m
    sets: list[FaceSet] = []
    runs: list[list[tuple[int, FaceSet]]] = [[], [], [], []]
    st = 0
    jl = m.free_jokers
    gid = 0
    val = 0
    actual: list[int] = []
    s = 0
    may_skip = search.may_skip
    memo = search.memo
    while s < _STAGES:
        if may_skip[s]:
            skipped, gid = search.skip(s, st, jl, gid)
            while s < skipped:
                if s % 5 < 4:
                    actual.append(0)
                else:
                    actual = []
                s += 1
            if s == _STAGES:
                break
        choice = memo[(search.skey[s], st, jl, gid, val)][1]
        n = s // 5 + 1
        if s % 5 < 4:
            c = s % 5
            opt, st, jl, gid, val = cast(_ColourChoice, choice)
            acts, starts = opt[6], opt[7]
            actual.append(opt[4])
            faces = _FACES[c]
            old = runs[c]
            if len(old) > 1:
                old.sort(key=_first)
            kept_runs: list[tuple[int, FaceSet]] = []
            for (_, run), (item, x) in zip(old, acts, strict=True):
                if item is None:
                    sets.append(run)
                else:
                    run.append((faces[n], item))
                    kept_runs.append((x, run))
            for start, x in starts:
                assert start is not None
                kept_runs.append((x, [(faces[n], start)]))
            runs[c] = kept_runs
        else:
            jg, jl, val = cast(tuple[int, int, int], choice)
            gid = 0
            lks = list(m.locked_group.get(n, ()))
            plan = _plan_groups(actual, jg, lks, m.locked) if lks else _plain_plan(actual, jg)
            actual = []
            assert plan is not None
            for colours, lk, nf in plan:
                group: FaceSet = [(_FACES[cc][n], REAL) for cc in colours]
                group += [(_FACES[4][n], ("L", j)) for j in lk]
                group += [(_FACES[4][n], FREE)] * nf
                sets.append(group)
        s += 1
    for c in range(4):
        sets.extend(run for _, run in runs[c])
    search.sets = sets
    search.leftover = jl
    return sets
