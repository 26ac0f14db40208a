"""Exact solver: the best legal table for a rack, with the fewest changes to the table.

The search is a dynamic programme over the numbers 1 to 13 (after Van Rijn, Takes and Vis, "The
complexity of Rummikub problems", 2015): for each colour it tracks the runs still open (their
length so far, capped at 3) and, at each number, decides which tiles extend runs, start runs or
go into groups. Groups of one number are settled once all four colours of that number are known.
Faces with the same colour and number are interchangeable, so the state space stays small; the
physical tiles are chosen afterwards so that as many table sets as possible stay as they were.

Rules the model enforces (see docs/solver.md):

* every table tile stays on the table; rack tiles are optional (or required: ``must_place``);
* a joker on the table stays in its place, as ``engine.rules.joker_problem`` defines it: it keeps
  the face it stands for (a run joker the same face, a group joker the same number and a colour
  its group was missing) and its final set holds a real tile of its original set; for a run joker
  that is one of the nearest real tiles on either side of it in the final run. The solver never
  retrieves a table joker (players can, with ``swap``);
* a set needs a real tile; runs never wrap; groups have distinct colours.

Objectives: ``tiles`` places the most rack tiles (ties: the most points, a joker 30); ``value``
places the most points (a joker 30, the penalty it would cost on the rack; ties: more tiles). In
the opening a joker counts as the tile it stands for, both for the threshold and for ``value``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld, MeldKind
from engine.tiles import COLORS, JOKER_VALUE_ON_RACK, Color, Face, Tile, sort_tiles, tiles_text

OBJECTIVES = ("tiles", "value")
_NEG = -(1 << 60)
_BIG = 1000

# Slot codes of an open run: 1-3 = length 1, 2, 3+ with a real tile; 4-6 = the same, jokers only.
_REAL_NEXT = (0, 2, 3, 3, 2, 3, 3)
_JOKER_NEXT = (0, 2, 3, 3, 5, 6, 6)
_CODE = 7  # low 3 bits of a slot: the code
_K_SHIFT = 3  # next 4 bits: the number of the latest real tile when it matters for a joker
_P_SHIFT = 7  # higher bits: locked jokers waiting for a real tile of their original run

# A run item: ("R", None) real, ("F", None) free joker, ("L", joker id) locked table joker.
_Item = tuple[str, int]
_GroupPlan = tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]


@dataclass(frozen=True)
class Solution:
    """A whole new table: ``melds`` (table order first, new sets last), the rack tiles it places,
    their value (see ``solve``), and how many starting sets stay untouched (``kept``) and how many
    table tiles end up away from their starting set (``moved``)."""

    melds: list[Meld]
    placed: list[Tile]
    value: int
    kept: int
    moved: int
    objective: str = "tiles"
    opening: bool = False
    sources: dict[Tile, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tiles(self) -> int:
        return len(self.placed)


@dataclass(frozen=True, slots=True)
class _Locked:
    """A table joker that must stay in its place."""

    ident: int
    tile: Tile
    meld_index: int
    kind: MeldKind
    color: int  # run jokers: colour index; group jokers: -1
    number: int
    reals: frozenset[int]  # runs: numbers of the original real tiles; groups: their colours


class _Model:
    """Counts per face plus the joker bookkeeping the dynamic programme needs."""

    def __init__(
        self,
        table: Sequence[Meld],
        optional: Sequence[Tile],
        required: Sequence[Tile],
        *,
        objective: str,
        opening: bool,
        threshold: int,
    ) -> None:
        self.must = [[0] * 15 for _ in range(4)]
        self.opt = [[0] * 15 for _ in range(4)]
        self.table_count = [[0] * 15 for _ in range(4)]
        self.opening = opening
        self.threshold = threshold if opening else 0
        self.locked: list[_Locked] = []
        self.locked_run: dict[tuple[int, int], list[int]] = {}
        self.locked_group: dict[int, list[int]] = {}
        self.watch: list[set[int]] = [set() for _ in range(4)]
        for index, meld in enumerate(table):
            for tile, face in zip(meld.tiles, meld.faces, strict=True):
                if tile.is_joker:
                    self._lock(tile, face, index, meld)
                else:
                    assert tile.color is not None
                    c = COLORS.index(tile.color)
                    self.must[c][tile.number] += 1
                    self.table_count[c][tile.number] += 1
        self.free_jokers = 0
        self.must_jokers = 0
        for tile in required:
            if tile.is_joker:
                self.free_jokers += 1
                self.must_jokers += 1
            else:
                assert tile.color is not None
                self.must[COLORS.index(tile.color)][tile.number] += 1
        for tile in optional:
            if tile.is_joker:
                self.free_jokers += 1
            else:
                assert tile.color is not None
                self.opt[COLORS.index(tile.color)][tile.number] += 1
        # Weights: primary objective times _BIG plus the tie-break.
        self.weight = [0] * 15
        self.joker_weight = [0] * 15
        for n in range(1, 14):
            joker_points = n if opening else JOKER_VALUE_ON_RACK
            if objective == "value":
                self.weight[n] = n * _BIG + 1
                self.joker_weight[n] = joker_points * _BIG + 1
            else:
                self.weight[n] = _BIG + n
                self.joker_weight[n] = _BIG + joker_points
        self.max_joker_weight = max(self.joker_weight)
        # Upper bound on what the optional tiles from stage ``s`` on can still add.
        self.bound = [0] * 66
        for s in range(64, -1, -1):
            n, sub = divmod(s, 5)
            add = 0 if sub == 4 else self.opt[sub][n + 1] * self.weight[n + 1]
            self.bound[s] = self.bound[s + 1] + add
        self.avail = [
            [self.must[c][n] + self.opt[c][n] for n in range(15)] for c in range(4)
        ]

    def _lock(self, tile: Tile, face: Face, index: int, meld: Meld) -> None:
        ident = len(self.locked)
        if meld.kind is MeldKind.RUN:
            assert face.color is not None
            c = COLORS.index(face.color)
            reals = frozenset(t.number for t in meld.tiles if not t.is_joker)
            self.locked.append(_Locked(ident, tile, index, meld.kind, c, face.number, reals))
            self.locked_run.setdefault((c, face.number), []).append(ident)
            self.watch[c] |= reals
        else:
            colours = frozenset(
                COLORS.index(t.color) for t in meld.tiles if t.color is not None
            )
            self.locked.append(_Locked(ident, tile, index, meld.kind, -1, face.number, colours))
            self.locked_group.setdefault(face.number, []).append(ident)


# A colour-stage option: (new slots, reals used, free jokers used, reals to groups,
# per old slot (item or None for "ends here", new slot), new runs (item, new slot)).
_Act = tuple[_Item | None, int]
_Option = tuple[tuple[int, ...], int, int, int, tuple[_Act, ...], tuple[_Act, ...]]


class _Search:
    """The dynamic programme over stages (number, colour) and (number, groups)."""

    def __init__(self, model: _Model) -> None:
        self.m = model
        self.memo: dict[tuple[object, ...], tuple[int, object]] = {}
        self.colour_cache: dict[tuple[int, int, tuple[int, ...], int], list[_Option]] = {}
        self.group_cache: dict[tuple[tuple[int, ...], int, tuple[int, ...]], _GroupPlan | None] = {}
        self.group_ok = [
            sum(1 for c in range(4) if model.avail[c][n])
            + model.free_jokers
            + len(model.locked_group.get(n, ()))
            >= 3
            for n in range(15)
        ]

    # -- colour stage ---------------------------------------------------------------------------

    def colour_options(self, c: int, n: int, slots: tuple[int, ...], jl: int) -> list[_Option]:
        key = (c, n, slots, jl)
        cached = self.colour_cache.get(key)
        if cached is not None:
            return cached
        m = self.m
        must = m.must[c][n]
        top = must + m.opt[c][n]
        locked = m.locked
        locked_here = m.locked_run.get((c, n), [])
        k_here = n if n in m.watch[c] else 0
        real_slot = k_here << _K_SHIFT
        can_start = n <= 11
        group_ok = self.group_ok[n]
        out: list[_Option] = []
        seen: set[tuple[tuple[int, ...], int, int, int]] = set()
        new: list[int] = []
        acts: list[_Act] = []

        def finish(real: int, free: int, lock_left: list[int], ended: bool) -> None:
            starts: list[_Act] = []
            for j in lock_left:
                if not can_start:
                    return
                starts.append((("L", j), 4 | (1 << (_P_SHIFT + j))))
            max_a = 0 if ended or not can_start else top - real
            max_d = 0 if ended or not can_start else jl - free
            for a in range(max_a + 1):
                used_runs = real + a
                g_lo = max(0, must - used_runs)
                g_hi = top - used_runs if group_ok else 0
                if g_lo > g_hi:
                    continue
                for d in range(max_d + 1):
                    all_starts = starts + [(("R", 0), 1 | real_slot)] * a + [(("F", 0), 4)] * d
                    state = tuple(sorted(new + [x for _, x in all_starts]))
                    for gc in range(g_lo, g_hi + 1):
                        sig = (state, used_runs + gc, free + d, gc)
                        if sig in seen:
                            continue
                        seen.add(sig)
                        out.append(
                            (state, used_runs + gc, free + d, gc, tuple(acts), tuple(all_starts))
                        )

        def rec(i: int, real: int, free: int, lock_left: list[int], ended: bool) -> None:
            if i == len(slots):
                finish(real, free, lock_left, ended)
                return
            s = slots[i]
            code = s & _CODE
            k = (s >> _K_SHIFT) & 15
            pend = s >> _P_SHIFT
            if code == 3 and not pend:
                acts.append((None, 0))
                rec(i + 1, real, free, lock_left, True)
                acts.pop()
            if real < top:
                ok = True
                p, j = pend, 0
                while p:
                    if p & 1 and n not in locked[j].reals:
                        ok = False
                        break
                    p >>= 1
                    j += 1
                if ok:
                    x = _REAL_NEXT[code] | real_slot
                    new.append(x)
                    acts.append((("R", 0), x))
                    rec(i + 1, real + 1, free, lock_left, ended)
                    acts.pop()
                    new.pop()
            nxt = _JOKER_NEXT[code] | (k << _K_SHIFT)
            if free < jl:
                x = nxt | (pend << _P_SHIFT)
                new.append(x)
                acts.append((("F", 0), x))
                rec(i + 1, real, free + 1, lock_left, ended)
                acts.pop()
                new.pop()
            tried: set[frozenset[int]] = set()
            for idx, j in enumerate(lock_left):
                reals = locked[j].reals
                if reals in tried:
                    continue
                tried.add(reals)
                p2 = pend if (k and k in reals) else pend | (1 << j)
                x = nxt | (p2 << _P_SHIFT)
                new.append(x)
                acts.append((("L", j), x))
                rec(i + 1, real, free, lock_left[:idx] + lock_left[idx + 1 :], ended)
                acts.pop()
                new.pop()

        rec(0, 0, 0, list(locked_here), False)
        self.colour_cache[key] = out
        return out

    # -- group stage ----------------------------------------------------------------------------

    def group_plan(
        self, g: tuple[int, ...], jokers: int, locked: tuple[int, ...]
    ) -> _GroupPlan | None:
        """Split g[c] tiles of each colour, ``jokers`` free jokers and the ``locked`` table
        jokers of this number into legal groups; None if impossible."""
        key = (g, jokers, locked)
        if key in self.group_cache:
            return self.group_cache[key]
        plan = _plan_groups(list(g), jokers, list(locked), self.m.locked)
        self.group_cache[key] = plan
        return plan

    # -- the recursion --------------------------------------------------------------------------

    def best(
        self, s: int, slots: tuple[tuple[int, ...], ...], jl: int, g: tuple[int, ...], val: int
    ) -> int:
        key = (s, slots, jl, g, val)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        m = self.m
        result = _NEG
        choice: object = None
        if s == 65:
            if m.free_jokers - jl >= m.must_jokers and val >= m.threshold:
                result = 0
            self.memo[key] = (result, None)
            return result
        n, sub = divmod(s, 5)
        n += 1
        bound = m.bound[s] + jl * m.max_joker_weight
        if sub < 4:
            c = sub
            w = m.weight[n]
            jw = m.joker_weight[n]
            base = m.table_count[c][n] * w
            last = n == 13
            threshold = m.threshold
            for opt in self.colour_options(c, n, slots[c], jl):
                state, used, free, gc = opt[0], opt[1], opt[2], opt[3]
                if last and any(x != 3 for x in state):
                    continue
                new_slots = (*slots[:c], state, *slots[c + 1 :])
                new_val = min(threshold, val + n * (used - gc + free)) if threshold else 0
                sub_score = self.best(s + 1, new_slots, jl - free, (*g, gc), new_val)
                if sub_score == _NEG:
                    continue
                total = used * w - base + free * jw + sub_score
                if total > result:
                    result = total
                    choice = (opt, new_slots, jl - free, (*g, gc), new_val)
                    if total >= bound:
                        break
        else:
            locked = tuple(m.locked_group.get(n, ()))
            jw = m.joker_weight[n]
            has_real = any(g)
            for jg in range(jl, -1, -1):
                if not has_real and (jg or locked):
                    continue
                plan = self.group_plan(g, jg, locked)
                if plan is None:
                    continue
                new_val = val
                if m.threshold:
                    new_val = min(m.threshold, val + n * (sum(g) + jg + len(locked)))
                sub_score = self.best(s + 1, slots, jl - jg, (), new_val)
                if sub_score == _NEG:
                    continue
                total = jg * jw + sub_score
                if total > result:
                    result = total
                    choice = (plan, jl - jg, new_val)
                    if total >= bound:
                        break
        self.memo[key] = (result, choice)
        return result

    def run(self) -> int:
        return self.best(0, ((), (), (), ()), self.m.free_jokers, (), 0)

    # -- reconstruction -------------------------------------------------------------------------

    def arrangement(self) -> list[list[tuple[Face, _Item]]]:
        """Walk the stored choices and return the final sets as (face, item) lists."""
        m = self.m
        sets: list[list[tuple[Face, _Item]]] = []
        runs: list[list[tuple[int, list[tuple[Face, _Item]]]]] = [[], [], [], []]
        s = 0
        slots: tuple[tuple[int, ...], ...] = ((), (), (), ())
        jl = m.free_jokers
        g: tuple[int, ...] = ()
        val = 0
        while s < 65:
            choice = self.memo[(s, slots, jl, g, val)][1]
            n = s // 5 + 1
            if s % 5 < 4:
                c = s % 5
                opt, slots, jl, g, val = choice  # type: ignore[misc]
                acts, starts = opt[4], opt[5]
                color = COLORS[c]
                old = sorted(runs[c], key=lambda r: r[0])
                kept_runs: list[tuple[int, list[tuple[Face, _Item]]]] = []
                for (_, run), (item, x) in zip(old, acts, strict=True):
                    if item is None:
                        sets.append(run)
                    else:
                        run.append((Face(color, n), item))
                        kept_runs.append((x, run))
                for item, x in starts:
                    assert item is not None
                    kept_runs.append((x, [(Face(color, n), item)]))
                runs[c] = kept_runs
            else:
                plan, jl, val = choice  # type: ignore[misc]
                g = ()
                for colours, lk, nf in plan:
                    group: list[tuple[Face, _Item]] = [
                        (Face(COLORS[cc], n), ("R", 0)) for cc in colours
                    ]
                    group += [(Face(None, n), ("L", j)) for j in lk]
                    group += [(Face(None, n), ("F", 0))] * nf
                    sets.append(group)
            s += 1
        for c in range(4):
            sets.extend(run for _, run in runs[c])
        return sets


def _plan_groups(
    g: list[int], jokers: int, locked: list[int], info: Sequence[_Locked]
) -> _GroupPlan | None:
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
                    if not all(info[j].reals & set(colours) for j in lk):
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
                            return ((colours, lk, nf), *sub)
    return None
