"""The options of one colour stage: how a colour's tiles at one number extend, end or start
its open runs (with free jokers and the table jokers standing there) and how many are left for
the groups. Built once per kind of stage; the search caches them (``Tables``)."""

from __future__ import annotations

from engine.solver.model import (
    _CODE,
    _JOKER_NEXT,
    _K_SHIFT,
    _P_SHIFT,
    _REAL_NEXT,
    _T_BIT,
    _X_BIT,
    FREE,
    REAL,
    Model,
)
from engine.solver.tables import Act, Option


class StageOptions:
    """Every way to use colour ``c``'s tiles at number ``n`` given its open runs ``slots`` and
    ``jl`` free jokers left (``build``): extend, end or start runs, use free or table jokers,
    and leave reals for the groups (most reals used first). A class walking the open runs, not
    nested functions: a function that calls itself from its own closure is a reference cycle,
    which kept every call's options and sets alive until the cyclic collector ran."""

    def __init__(
        self,
        m: Model,
        cover: list[list[int]],
        group_ok: bool,
        c: int,
        n: int,
        slots: tuple[int, ...],
        jl: int,
    ) -> None:
        self.cover = cover
        self.group_ok = group_ok
        self.c = c
        self.n = n
        self.slots = slots
        self.jl = jl
        self.must = m.must[c][n]
        self.top = self.must + m.opt[c][n]
        self.locked = m.locked
        self.locked_run_here = m.locked_run.get((c, n), [])
        k_here = n if n in m.watch[c] else 0
        self.real_slot = k_here << _K_SHIFT
        self.can_start = n <= 11
        self.defer = m.defer
        self.marks = m.marks
        # A free joker where a real tile of the same face stays unplaced is beaten by that
        # tile (the joker is then left for the end): only without table jokers in this
        # colour's runs.
        self.swap = m.defer and not m.run_jokers[c]
        self.out: list[Option] = []
        self.seen: set[tuple[tuple[int, ...], int, int, int]] = set()
        self.new: list[int] = []
        self.acts: list[Act] = []

    def build(self) -> list[Option]:
        """The options, most reals used first (then fewest free jokers)."""
        self.rec(0, 0, 0, list(self.locked_run_here), False)
        self.out.sort(key=lambda o: (-o[1], o[2]))
        return self.out

    def finish(self, real: int, free: int, lock_left: list[int], ended: bool) -> None:
        can_start = self.can_start
        n = self.n
        jl = self.jl
        top = self.top
        must = self.must
        seen = self.seen
        out = self.out
        starts: list[Act] = []
        for j in lock_left:
            if not can_start:
                return
            mark = self.locked[j].mark << _K_SHIFT
            starts.append(Act(("L", j), 4 | mark | (1 << (_P_SHIFT + j))))
        max_a = 0 if ended or not can_start else top - real
        max_d = 0 if ended or not can_start else jl - free
        if max_d and (13 - n) - self.cover[self.c][n + 1] > jl - free - 1:
            max_d = 0
        for a in range(max_a + 1):
            used_runs = real + a
            g_lo = max(0, must - used_runs)
            g_hi = top - used_runs if self.group_ok else 0
            if g_lo > g_hi:
                continue
            for d in range(max_d + 1):
                low = g_lo
                if ended or (self.swap and (free or d)):
                    # Leaving a tile of this face unplaced is beaten by putting it in place of
                    # the free joker, or on the run that ends here (it may end one later).
                    low = top - used_runs
                    if low > g_hi:
                        continue
                all_starts = starts + [Act(REAL, 1 | self.real_slot)] * a
                all_starts += [Act(FREE, 4 | _T_BIT)] * d
                state = tuple(sorted(self.new + [x for _, x in all_starts]))
                for gc in range(low, g_hi + 1):
                    sig = (state, used_runs + gc, free + d, gc)
                    if sig in seen:
                        continue
                    seen.add(sig)
                    out.append(
                        Option(
                            state, used_runs + gc, free + d, gc, tuple(self.acts), tuple(all_starts)
                        )
                    )

    def rec(self, i: int, real: int, free: int, lock_left: list[int], ended: bool) -> None:
        slots = self.slots
        if i == len(slots):
            self.finish(real, free, lock_left, ended)
            return
        n = self.n
        locked = self.locked
        new = self.new
        acts = self.acts
        s = slots[i]
        code = s & _CODE
        k = (s >> _K_SHIFT) & 15
        pend = s >> _P_SHIFT
        tbit = s & _T_BIT
        if code == 3 and not pend and not tbit and not s & _X_BIT:
            acts.append(Act(None, 0))
            self.rec(i + 1, real, free, lock_left, True)
            acts.pop()
        if real < self.top:
            ok = True
            p, j = pend, 0
            while p:
                if p & 1 and n not in locked[j].reals:
                    ok = False
                    break
                p >>= 1
                j += 1
            if ok:
                x = _REAL_NEXT[code] | self.real_slot | tbit
                new.append(x)
                acts.append(Act(REAL, x))
                self.rec(i + 1, real + 1, free, lock_left, ended)
                acts.pop()
                new.pop()
        nxt = _JOKER_NEXT[code] | (k << _K_SHIFT) | tbit
        if free < self.jl:
            x = nxt | (pend << _P_SHIFT)
            if self.defer and code == 3 and not tbit:
                x |= _X_BIT
            new.append(x)
            acts.append(Act(FREE, x))
            self.rec(i + 1, real, free + 1, lock_left, ended)
            acts.pop()
            new.pop()
        marks = self.marks
        tried: set[object] = set()
        for idx, j in enumerate(lock_left):
            lk = locked[j]
            reals = lk.reals
            key = (reals, j) if marks else reals
            if key in tried:
                continue
            tried.add(key)
            # The latest real tile witnesses it: one of its original set's numbers, or a freed
            # joker's place holding a tile of its original set (``marks``).
            seen = (k in reals) if k < 14 else bool(marks[k] >> j & 1)
            p2 = pend if (k and seen) else pend | (1 << j)
            x = nxt
            if lk.witnessing:
                # This place holds a tile of their original set: they wait no more, and the
                # jokers after it in this run see it as their latest real tile.
                p2 &= ~lk.witnessing
                if lk.mark:
                    x = _JOKER_NEXT[code] | (lk.mark << _K_SHIFT) | tbit
            x |= p2 << _P_SHIFT
            new.append(x)
            acts.append(Act(("L", j), x))
            self.rec(i + 1, real, free, lock_left[:idx] + lock_left[idx + 1 :], ended)
            acts.pop()
            new.pop()
