"""The dynamic programme over stages (number, colour) and (number, groups): depth first, best
options first, memoised with bounds (``walk`` turns its stored choices into sets of faces)."""

from __future__ import annotations

import itertools
from typing import Final

from engine.solver.groups import (
    _LOCKED_OK,
    _plain_exact,
    _plain_feasible,
    _plan_groups,
)
from engine.solver.model import (
    _NEG,
    _STAGES,
    FaceSet,
    GroupPlan,
    Model,
    OutOfBudget,
)
from engine.solver.options import StageOptions
from engine.solver.share import current, stage_keys
from engine.solver.tables import (
    _SB,
    _SMASK,
    Ready,
    Step,
    _Key5,
    _lack,
    _ready,
    _tables,
)

# The key of a colour stage's steps in ``Search.colour_cache``: the stage (< 128), the free
# jokers left (< 32) and the id of the colour's open runs, packed in one int.
_JL_SHIFT: Final = 7
_SID_SHIFT: Final = 12


class Search:
    """The dynamic programme over stages (number, colour) and (number, groups)."""

    def __init__(self, model: Model) -> None:
        self.m = model
        self.objective = model.objective
        self.required_reals = model.required_reals
        self.tables = tables = _tables()
        share = current()
        if share is not None and share.tables is not tables:
            share.restart(tables)  # the ids in its keys were the old tables'
        self.memo: dict[_Key5, tuple[int, object]] = {} if share is None else share.memo
        # The memo's key for stage s (s itself, or with a shared memo ``share.stage_keys``).
        self.skey = list(range(_STAGES + 1))
        self.sets: list[FaceSet] | None = None
        self.leftover = 0
        self.nodes = 0
        self.limit = 1 << 62  # node budget (``_optimum`` sets it for a race)
        # Interned group-count tuples (id 0 is the empty tuple).
        self.stab = tables.stab
        self.gids = tables.gids
        self.gtab = tables.gtab
        self.gsum = tables.gsum
        self.gnext = tables.gnext
        self.colour_cache: dict[int, list[Step]] = {}
        self.lacks = tables.lacks
        self.stage_consts: list[tuple[int, int, int, int] | None] = [None] * _STAGES
        self.group_cache: dict[tuple[int, int, int], GroupPlan | None] = {}
        self.g_ok: dict[tuple[int, int, int], bool] = {}
        self.rest: dict[tuple[int, int], tuple[int, ...]] = {}
        locked_group = model.locked_group
        locked_run = model.locked_run
        avail = model.avail
        self.locked_at = [tuple(locked_group.get(n, ())) for n in range(15)]
        # Group feasibility depends only on the sorted colour counts unless a table joker of that
        # number cares which colours are there.
        self.canon = canon = [n not in locked_group for n in range(15)]
        # supply[c][n]: the tiles of colour c and number n plus the table jokers standing there
        # (in runs); empty: neither; cover[c][n]: how many of the numbers n..13 are not empty
        # (a run led by a free joker must reach 13 through them).
        self.supply = supply = [[*row, 0] for row in avail]  # (numbers 0, 14 and 15 hold none)
        for (c, n), there in locked_run.items():
            supply[c][n] += len(there)
        self.empty = [[not k for k in row[:15]] for row in supply]
        self.cover = [[0] * 15 for _ in range(4)]
        for row, cover in zip(supply, self.cover, strict=True):
            for n in range(13, 0, -1):
                cover[n] = cover[n + 1] + (row[n] > 0)
        # Per colour stage: the id of what the later colours of its number hold (see Tables),
        # the weight of its table tiles and what the rack tiles after it could add.
        self.feasible = tables.feasible
        self.rid = rid_at = [0] * (_STAGES + 1)
        self.base = base = [0] * (_STAGES + 1)
        self.reach = [0] * (_STAGES + 1)
        self.reach[:_STAGES] = model.bound[1:]
        # Per stage, what the bound of the next one loses with j free jokers left (``bounds``):
        # a step that leaves j jokers can add at most its total plus tight[s][j].
        self.tight = model.tight
        self.group_ok = [False] * 15
        rests = tables.rests
        table_count = model.table_count
        weight = model.weight
        spare = model.free_jokers
        may_skip = [False] * (_STAGES + 1)
        for n in range(1, 14):
            counts = [avail[0][n], avail[1][n], avail[2][n], avail[3][n]]
            self.group_ok[n] = (counts[0] > 0) + (counts[1] > 0) + (counts[2] > 0) + (
                counts[3] > 0
            ) + spare + len(locked_group.get(n, ())) >= 3
            s = 5 * n - 5
            for c in range(4):
                base[s + c] = table_count[c][n] * weight[n]
                rest = tuple(counts[c + 1 :])
                rid = rests.get(rest)
                if rid is None:
                    rid = rests[rest] = len(rests)
                    assert rid < 256  # a count per colour (0-4) for at most three colours
                rid_at[s + c] = rid
                # Stages ``skip`` might step over: a colour stage with no tile or table joker,
                # or a group stage of a number without table jokers.
                may_skip[s + c] = self.empty[c][n]
            may_skip[s + 4] = canon[n]
        self.may_skip = may_skip
        self.next_two = [[(row[n] << 4) | row[n + 1] for n in range(15)] for row in self.supply]
        if share is not None:
            self.skey = stage_keys(model, share, self.group_ok)

    # -- colour stage ---------------------------------------------------------------------------

    def colour_options(self, key: int, s: int, sid: int, jl: int) -> list[Step]:
        """The steps of colour stage ``s`` from open runs ``sid`` with ``jl`` free jokers left,
        made once per search and kept under ``key`` (``best`` packs it and looks it up first)."""
        consts = self.stage_consts[s]
        if consts is None:
            consts = self.stage_consts[s] = self._stage_consts(s)
        if consts[0] >= 0 and not self.tables.locked_slots(sid):
            # Without table jokers involved the options depend on a few numbers only: share
            # them between calls.
            tables = self.tables
            shared = (((sid << 4) | jl) << 24) | consts[0]
            found = tables.shared.get(shared)
            if found is None:
                n = s // 5 + 1
                ready = _ready(
                    StageOptions(
                        self.m, self.cover, self.group_ok[n], s % 5, n, self.stab[sid], jl
                    ).build(),
                    tables,
                )
                found = tables.shared[shared] = (
                    ready,
                    max((o[6] for o in ready), default=0),
                    max((o[7] for o in ready), default=0),
                )
            # So are their steps, apart from two constants of the position (see ``best``).
            # The supply of the next numbers only matters up to the most short runs (runs of
            # length 1) an option leaves.
            supply1 = consts[2] if consts[2] < found[1] else found[1]
            supply2 = consts[3] if consts[3] < found[2] else found[2]
            step_key = (((((shared << 10) | consts[1]) << 4) | supply1) << 4) | supply2
            kept = tables.steps.get(step_key)
            if kept is None:
                kept = tables.steps[step_key] = self._steps(s % 5, s // 5 + 1, sid, jl, found[0])
            self.colour_cache[key] = kept
            return kept
        c = s % 5
        n = s // 5 + 1
        options = _ready(
            StageOptions(self.m, self.cover, self.group_ok[n], c, n, self.stab[sid], jl).build(),
            self.tables,
        )
        steps = self._steps(c, n, sid, jl, options)
        self.colour_cache[key] = steps
        return steps

    def _stage_consts(self, s: int) -> tuple[int, int, int, int]:
        """What the options of colour stage ``s`` depend on, besides the open runs and the
        jokers left (-1 when a table joker stands at that face), and what their steps add:
        packed in ints, and the supply of the next two numbers."""
        m = self.m
        c = s % 5
        n = s // 5 + 1
        supply1 = self.supply[c][n + 1]
        supply2 = self.supply[c][n + 2]
        # The weights follow from the number and the kind of search (``_weights``); the colour
        # does not matter (``best`` shifts the state change to the colour's place).
        step_id = (m.kind << 4) | n
        if (c, n) in m.locked_run:
            return -1, step_id, supply1, supply2
        # must and opt: at most 3 copies each (<= 15 to be safe), the rest as below.
        option_id = (
            (m.must[c][n] << 20)
            | (m.opt[c][n] << 16)
            | ((n if n in m.watch[c] else 0) << 12)
            | ((n <= 11) << 11)
            | (self.group_ok[n] << 10)
            | (((13 - n) - self.cover[c][n + 1]) << 5)
            | (m.defer << 4)
            | (m.run_jokers[c] << 3)
        )
        return option_id, step_id, supply1, supply2

    def _steps(self, c: int, n: int, sid: int, jl: int, options: list[Ready]) -> list[Step]:
        """Precompute what the search needs per option: its gain counting every tile it puts in
        a set, that gain plus what the jokers left could add, the change of the colour's open-run
        id (``best`` shifts it to the colour's place, so colours share the steps). ``best`` takes
        off the table tiles (``base``) and adds what the rest of the rack could add."""
        m = self.m
        w = m.weight[n]
        jw = m.joker_weight[n]
        mjw = m.max_joker_weight
        last = n == 13
        # Short runs need a tile of the next number (and the one after, for length 1) each: a
        # real tile there, a free joker or a table joker standing there.
        supply1 = self.supply[c][n + 1]
        supply2 = self.supply[c][n + 2]
        steps: list[Step] = []
        for nsid, used, free, gc, acts, starts, short, ones, closed in options:
            if last and not closed:
                continue
            lack = max(0, short - supply1) + max(0, ones - supply2) if short and not last else 0
            if lack > jl - free:
                continue
            gain = used * w + free * jw
            jl2 = jl - free
            steps.append(
                (
                    gain + jl2 * mjw,
                    gain,
                    nsid - sid,
                    jl2,
                    gc,
                    n * (used - gc + free),
                    acts,
                    starts,
                    lack,
                )
            )
        # Most promising first; the search stops at the first step that cannot reach its aim.
        # The options come sorted by reals used: when a joker weighs the same at every number
        # (outside the opening) that is already the order of their totals.
        if jw != mjw:
            steps.sort(key=lambda step: -step[0])
        return steps

    def g_next(self, gid: int, gc: int, canon: bool) -> int:
        """The id of the group counts after one more colour with ``gc`` reals for groups."""
        key = (gid << 5) | (gc << 1) | canon
        nxt = self.gnext.get(key)
        if nxt is None:
            g = (*self.gtab[gid], gc)
            if canon:
                g = tuple(sorted(g))
            nxt = self.gids.get(g)
            if nxt is None:
                nxt = self.gids[g] = len(self.gtab)
                self.gtab.append(g)
                self.gsum.append(sum(g))
            self.gnext[key] = nxt
        return nxt

    def g_feasible(self, gid: int, n: int, jokers: int) -> bool:
        """Whether the group counts so far (colours 0.. of number ``n``) can still end in legal
        groups, whatever the remaining colours add, with at most ``jokers`` free jokers."""
        key = (gid, n, jokers)
        ok = self.g_ok.get(key)
        if ok is None:
            g = self.gtab[gid]
            rest = self.rest.get((n, len(g)))
            if rest is None:
                rest = self.rest[n, len(g)] = tuple(self.m.avail[c][n] for c in range(len(g), 4))
            if self.canon[n]:
                ok = _plain_feasible(g, rest, jokers)
            else:
                # Only the colours of each table joker's original group matter, not which
                # joker it is: the answer is kept for the process.
                locked = list(self.locked_at[n])
                info = self.m.locked
                masks: tuple[object, ...] = tuple(
                    sorted(
                        sum(1 << c for c in info[j].reals) | ((info[j].banned + 1) << 4)
                        for j in locked
                    )
                )
                if any(info[j].mates for j in locked):
                    # Which joker witnesses which matters: key by the jokers themselves.
                    masks = (*masks, *((j, tuple(sorted(info[j].mates))) for j in locked))
                shared = (g, rest, jokers, masks)
                ok = _LOCKED_OK.get(shared)
                if ok is None:
                    ok = any(
                        _plan_groups([*g, *extra], jg, locked, info) is not None
                        for extra in itertools.product(*(range(r + 1) for r in rest))
                        for jg in range(jokers + 1)
                    )
                    if len(_LOCKED_OK) > 50_000:
                        _LOCKED_OK.clear()
                    _LOCKED_OK[shared] = ok
            self.g_ok[key] = ok
        return ok

    # -- group stage ----------------------------------------------------------------------------

    def group_plan(self, gid: int, n: int, jokers: int) -> GroupPlan | None:
        """Split the group counts ``gid`` (tiles per colour), ``jokers`` free jokers and the
        table jokers of number ``n`` into legal groups; None if impossible."""
        key = (gid, n, jokers)
        if key in self.group_cache:
            return self.group_cache[key]
        plan = _plan_groups(list(self.gtab[gid]), jokers, list(self.locked_at[n]), self.m.locked)
        self.group_cache[key] = plan
        return plan

    # -- the search ---------------------------------------------------------------------------

    def best(
        self,
        s: int,
        st: int,
        jl: int,
        gid: int,
        val: int,
        need: int,
        short: int,
        key: _Key5,
        hit: tuple[int, object] | None,
    ) -> int:
        """The best score from stage ``s`` on if it is at least ``need`` (exact), otherwise an
        upper bound below ``need``: depth first, best options first, memoised with bounds.
        ``st`` packs the open runs, ``gid`` names the group counts of the current number;
        ``short`` is how many free jokers the open runs need at least (``_lack`` summed over
        the colours, those already passed at this number counted at the next): runs of
        different colours cannot share a joker. It follows from ``st`` and ``s``, and is
        carried down the calls (each step knows its colour's part) rather than summed again
        at every node.

        The caller has stepped over the stages ``skip`` passes and looked the state up in the
        memo: ``key`` is its key there and ``hit`` what the memo held (None, or not enough for
        ``need``), so a state the memo answers costs no call (``enter``)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        memo = self.memo
        m = self.m
        if s == _STAGES:
            ok = (m.defer or m.free_jokers - jl >= m.must_jokers) and val >= m.threshold
            result = jl * m.defer_weight if ok else _NEG
            memo[key] = (result, True)
            return result
        bound = m.bounds[jl][s]
        if hit is not None and hit[0] < bound:
            bound = hit[0]  # an upper bound from an earlier, more ambitious search
        if bound < need:
            return bound
        result = _NEG
        upper = _NEG
        choice: object = None
        n = s // 5 + 1
        c = s % 5
        if c < 4:
            threshold = m.threshold
            canon = self.canon[n]
            gnext = self.gnext
            g_ok = self.g_ok
            feasible = self.feasible
            rid = self.rid[s]
            base = self.base[s]
            off = self.reach[s] - base
            tight = self.tight[s]
            gkey = (gid << 5) | canon
            s1 = s + 1
            k1 = self.skey[s1]
            skip1 = self.may_skip[s1]
            shift = _SB * c
            sid = (st >> shift) & _SMASK
            steps_key = (sid << _SID_SHIFT) | (jl << _JL_SHIFT) | s
            steps = self.colour_cache.get(steps_key)
            if steps is None:
                steps = self.colour_options(steps_key, s, sid, jl)
            other = short
            if sid:
                # This colour's own runs are what the stage decides: take them out.
                nt = self.next_two[c][n]
                lack_key = (sid << 8) | nt
                own = self.lacks.get(lack_key)
                if own is None:
                    own = self.lacks[lack_key] = _lack(self.stab[sid], nt >> 4 & 15, nt & 15)
                other -= own
            for opt in steps:
                total, gain, delta, jl2, gc, vadd, _, _, lack = opt
                target = need if need > result else result + 1
                total += off
                if total < target:
                    if total > upper:
                        upper = total
                    break
                cut = tight[jl2]
                if cut:
                    total += cut
                    if total < target:
                        if total > upper:
                            upper = total
                        continue
                # The groups get the jokers the runs do not need.
                spare = jl2 - lack - other
                if spare < 0:
                    continue
                gain -= base
                want = target - gain
                new_gid = gnext.get(gkey | (gc << 1))
                if new_gid is None:
                    new_gid = self.g_next(gid, gc, canon)
                if canon:
                    fkey = (((new_gid << 8) | rid) << 3) | spare
                    fits = feasible.get(fkey)
                    if fits is None:
                        fits = feasible[fkey] = self.g_feasible(new_gid, n, spare)
                else:
                    fits = g_ok.get((new_gid, n, spare))
                    if fits is None:
                        fits = self.g_feasible(new_gid, n, spare)
                if not fits:
                    continue
                new_val = min(threshold, val + vadd) if threshold else 0
                new_st = st + (delta << shift)
                if skip1:
                    s2, g2 = self.skip(s1, new_st, jl2, new_gid)
                    ckey = (self.skey[s2], new_st, jl2, g2, new_val)
                else:
                    s2, g2 = s1, new_gid
                    ckey = (k1, new_st, jl2, new_gid, new_val)
                hit = memo.get(ckey)
                if hit is not None and (hit[1] is not None or hit[0] < want):
                    sub = hit[0]
                else:
                    sub = self.best(s2, new_st, jl2, g2, new_val, want, other + lack, ckey, hit)
                if sub == _NEG:
                    continue
                if sub < want:
                    if gain + sub > upper:
                        upper = gain + sub
                    continue
                result = gain + sub
                choice = (opt, new_st, jl2, new_gid, new_val)
                if result >= bound:
                    break
        else:
            locked = self.locked_at[n]
            jw = m.joker_weight[n]
            has_real = self.gsum[gid] > 0
            # With deferred jokers only the fewest that make legal groups are worth trying:
            # one more would only lengthen a group, and can go there at the end.
            defer = m.defer
            tried = False
            for jg in range(jl + 1) if defer else range(jl, -1, -1):
                if not has_real and (jg or locked):
                    continue
                if jl - jg < short:
                    continue
                if self.canon[n]:
                    if not _plain_exact(self.gtab[gid], jg):
                        continue
                elif self.group_plan(gid, n, jg) is None:
                    continue
                if tried:
                    break
                tried = defer
                new_val = val
                if m.threshold:
                    new_val = min(m.threshold, val + n * (self.gsum[gid] + jg + len(locked)))
                gain = jg * jw
                want = (need if need > result else result + 1) - gain
                # ``enter`` inlined, as in the colour loop (as a call: pure +3-5% on the suites).
                jl2 = jl - jg
                s2, g2 = self.skip(s + 1, st, jl2, 0) if self.may_skip[s + 1] else (s + 1, 0)
                ckey = (self.skey[s2], st, jl2, g2, new_val)
                hit = memo.get(ckey)
                if hit is not None and (hit[1] is not None or hit[0] < want):
                    sub = hit[0]
                else:
                    sub = self.best(s2, st, jl2, g2, new_val, want, short, ckey, hit)
                if sub == _NEG:
                    continue
                if sub < want:
                    if gain + sub > upper:
                        upper = gain + sub
                    continue
                result = gain + sub
                choice = (jg, jl - jg, new_val)
                if result >= bound:
                    break
        if result >= need:
            memo[key] = (result, choice)
            return result
        value = result if result > upper else upper
        memo[key] = (value, None if value > _NEG else True)
        return value

    def enter(self, s: int, st: int, jl: int, gid: int, val: int, need: int, short: int) -> int:
        """``best`` of a state not yet stepped over or looked up (the start, the groups' next
        number): the memo's answer when it has one for ``need``, else the search."""
        if self.may_skip[s]:
            s, gid = self.skip(s, st, jl, gid)
        key = (self.skey[s], st, jl, gid, val)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] is not None or hit[0] < need):
            return hit[0]
        return self.best(s, st, jl, gid, val, need, short, key, hit)

    def skip(self, s: int, st: int, jl: int, gid: int) -> tuple[int, int]:
        """Step over stages where nothing can happen (no tile, no open run, no joker use)."""
        empty = self.empty
        while s < _STAGES:
            n = s // 5 + 1
            c = s % 5
            if c < 4:
                if (st >> (_SB * c)) & _SMASK or not empty[c][n]:
                    break
                if jl and n <= 11 and (13 - n) - self.cover[c][n + 1] <= jl - 1:
                    break
                canon = self.canon[n]
                nxt = self.gnext.get((gid << 5) | canon)
                gid = nxt if nxt is not None else self.g_next(gid, 0, canon)
            else:
                if self.gsum[gid] or not self.canon[n]:
                    break
                gid = 0
            s += 1
        return s, gid

    def run(self, target: int | None = None) -> int:
        """First aim at placing every tile: that search keeps only branches that can still do
        it, so it is very fast, and it often succeeds. Otherwise search for the true best.
        With ``target``: the best score if it reaches ``target``, else _NEG."""
        m = self.m
        if target is not None:
            result = self.enter(0, 0, m.free_jokers, 0, 0, target, 0)
            return result if result >= target else _NEG
        floor = 1 if m.must_jokers == 0 and not self.required_reals else _NEG + 1
        top = m.bound[0] + m.free_jokers * m.max_joker_weight
        if top < floor:
            return _NEG
        result = self.enter(0, 0, m.free_jokers, 0, 0, top, 0)
        if result >= top:
            return result
        result = self.enter(0, 0, m.free_jokers, 0, 0, floor, 0)
        return result if result >= floor else _NEG
