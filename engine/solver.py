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
  that is one of the nearest real tiles on either side of it in the final run;
* or, after the initial meld, it is retrieved: a real tile of a face it stands for (from the rack
  or another set) takes its place, and the joker goes into a new set. Each way of freeing some
  table jokers is searched as the same table with those jokers locked in place, one real tile of
  each one's face taken out of the supply and a stand-in joker that must be placed (see "joker
  retrieval" below and docs/solver.md);
* a set needs a real tile; runs never wrap; groups have distinct colours.

Objectives: ``tiles`` places the most rack tiles (ties: the most points, a joker 30); ``value``
places the most points (a joker 30, the penalty it would cost on the rack; ties: more tiles). In
the opening a joker counts as the tile it stands for, both for the threshold and for ``value``.
"""

from __future__ import annotations

import gc as _gc
import itertools
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld, MeldKind
from engine.messages import Clauses, Msg, both
from engine.rules import joker_problem
from engine.tiles import (
    COLORS,
    JOKER_VALUE_ON_RACK,
    Face,
    Tile,
    tiles_text,
)

OBJECTIVES = ("tiles", "value")
_NEG = -(1 << 60)
_BIG = 1000
_RACE_BUDGET = 500  # nodes before the mirrored search joins the race
_FREEZE_NODES = 4000  # nodes the minimal-change pass may spend in all

# Slot codes of an open run: 1-3 = length 1, 2, 3+ with a real tile; 4-6 = the same, jokers only.
_REAL_NEXT = (0, 2, 3, 3, 2, 3, 3)
_JOKER_NEXT = (0, 2, 3, 3, 5, 6, 6)
_CODE = 7  # low 3 bits of a slot: the code
_K_SHIFT = 3  # next 4 bits: the number of the latest real tile when it matters for a joker
_T_BIT = 1 << 7  # started with a free joker: must run on to 13 (else the joker goes at the end)
_X_BIT = 1 << 8  # ends in free jokers added to a finished run: may not end so (they are deferred)
_P_SHIFT = 9  # higher bits: locked jokers waiting for a real tile of their original run

# A run item: ("R", None) real, ("F", None) free joker, ("L", joker id) locked table joker.
_Item = tuple[str, int]
# _FACES[c][n]: the face of colour c and number n (c = 4: a group joker's colourless face).
_FACES = [[Face(c, n) for n in range(15)] for c in (*COLORS, None)]
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
    banned: int = -1  # groups: a colour its final group may not hold (its replacement's), or -1


_WEIGHTS: dict[tuple[str, bool, bool], tuple[list[int], list[int]]] = {}


def _weights(objective: str, opening: bool, mirrored: bool) -> tuple[list[int], list[int]]:
    """What a real tile and a free joker at each number score (made once per kind of search)."""
    key = (objective, opening, mirrored)
    found = _WEIGHTS.get(key)
    if found is None:
        weight = [0] * 15
        joker_weight = [0] * 15
        for n in range(1, 14):
            points = 14 - n if mirrored else n  # a mirrored search still scores real numbers
            joker_points = points if opening else JOKER_VALUE_ON_RACK
            if objective == "value":
                weight[n] = points * _BIG + 1
                joker_weight[n] = joker_points * _BIG + 1
            else:
                weight[n] = _BIG + points
                joker_weight[n] = _BIG + joker_points
        found = _WEIGHTS[key] = (weight, joker_weight)
    return found


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
        mirrored: bool = False,
        defer: bool = True,
        banned: dict[int, int] | None = None,
        witnesses: dict[int, frozenset[int]] | None = None,
    ) -> None:
        self.must = must = [[0] * 15 for _ in range(4)]
        self.opt = opt = [[0] * 15 for _ in range(4)]
        self.table_count = table_count = [[0] * 15 for _ in range(4)]
        self.opening = opening
        self.objective = objective
        self.threshold = threshold if opening else 0
        self.locked: list[_Locked] = []
        self.locked_run: dict[tuple[int, int], list[int]] = {}
        self.locked_group: dict[int, list[int]] = {}
        self.watch: list[set[int]] = [set() for _ in range(4)]
        self.banned = banned or {}
        # Table jokers whose set lost a tile to a retrieval: the real tiles of the set as it was
        # (run numbers or group colours) still witness that they stay.
        self.witnesses = witnesses or {}
        self.mirrored = mirrored
        cid = _CID
        for index, meld in enumerate(table):
            for tile, face in zip(meld.tiles, meld.faces, strict=True):
                if tile.color is None:
                    self._lock(tile, face, index, meld)
                else:
                    c = cid[id(tile.color)] - 1
                    must[c][tile.number] += 1
                    table_count[c][tile.number] += 1
        self.free_jokers = 0
        self.must_jokers = 0
        self.required_reals = False
        for tile in required:
            if tile.color is None:
                self.free_jokers += 1
                self.must_jokers += 1
            else:
                self.required_reals = True
                must[cid[id(tile.color)] - 1][tile.number] += 1
        for tile in optional:
            if tile.color is None:
                self.free_jokers += 1
            else:
                opt[cid[id(tile.color)] - 1][tile.number] += 1
        # Weights: primary objective times _BIG plus the tie-break (shared, never changed).
        self.weight, self.joker_weight = _weights(objective, opening, mirrored)
        self.kind = (objective == "value") << 2 | opening << 1 | mirrored
        self.max_joker_weight = max(self.joker_weight)
        # Outside the opening a free joker scores the same wherever it goes, so one that would
        # only lengthen a finished set is left for the end (``_Search.arrangement`` adds it).
        # Jokers that must be placed (``must_place``, a freed table joker) may be deferred too:
        # the ones left over are all added at the end (or the search runs again without).
        self.defer = defer and not opening and self.free_jokers > 0
        self.defer_weight = self.joker_weight[1] if self.defer else 0
        # Upper bound on what the optional tiles from stage ``s`` on can still add (set by
        # ``_useless``, which may drop some of them first).
        self.bound = [0] * 66
        self.avail = [[a + b for a, b in zip(must[c], opt[c], strict=True)] for c in range(4)]

    def _lock(self, tile: Tile, face: Face, index: int, meld: Meld) -> None:
        ident = len(self.locked)
        if meld.kind is MeldKind.RUN:
            assert face.color is not None
            c = COLORS.index(face.color)
            reals = frozenset(t.number for t in meld.tiles if not t.is_joker)
            if id(tile) in self.witnesses:
                flip = self.mirrored
                reals = frozenset(14 - k if flip else k for k in self.witnesses[id(tile)])
            self.locked.append(_Locked(ident, tile, index, meld.kind, c, face.number, reals))
            self.locked_run.setdefault((c, face.number), []).append(ident)
            self.watch[c] |= {k for k in reals if k < face.number}
        else:
            colours = frozenset(COLORS.index(t.color) for t in meld.tiles if t.color is not None)
            colours = self.witnesses.get(id(tile), colours)
            banned = self.banned.get(id(tile), -1)
            self.locked.append(
                _Locked(ident, tile, index, meld.kind, -1, face.number, colours, banned)
            )
            self.locked_group.setdefault(face.number, []).append(ident)


# A colour-stage option: (new slots, reals used, free jokers used, reals to groups,
# per old slot (item or None for "ends here", new slot), new runs (item, new slot)).
_Act = tuple[_Item | None, int]
_Option = tuple[tuple[int, ...], int, int, int, tuple[_Act, ...], tuple[_Act, ...]]
# An option with what the search needs of its new slots: (slots id, reals used, free jokers
# used, reals to groups, acts, starts, runs shorter than 3, runs of length 1, all may end).
_Ready = tuple[int, int, int, int, tuple[_Act, ...], tuple[_Act, ...], int, int, bool]
# The same option ready for the search: (best total it can still reach, gain, change of the
# packed state, jokers left after, reals to groups, opening value added, acts, starts).
_Step = tuple[int, int, int, int, int, int, tuple[_Act, ...], tuple[_Act, ...]]
# Memo key: (stage, packed open runs, jokers left, group counts id, opening value so far).
_Key5 = tuple[int, int, int, int, int]
_ColourChoice = tuple[_Step, int, int, int, int]
# The open runs of all four colours are packed into one int: _SB bits per colour hold the id
# of that colour's sorted tuple of slot codes (0 = no open run).
_SB = 24
_SMASK = (1 << _SB) - 1


class _Tables:
    """Ids and options that outlive one call, kept per thread (the bot solves in worker threads):
    one colour's open runs (a sorted tuple of slot codes) and the group counts of one number (a
    tuple, one count per colour, or sorted) get small ids, and the options of a colour stage
    without table jokers are shared between calls. Tens of thousands of entries after thousands
    of hard positions (about 0.6 KB each); solve() starts afresh past 50,000, so a thread's
    tables stay near 30 MB at most."""

    def __init__(self) -> None:
        self.sids: dict[tuple[int, ...], int] = {(): 0}
        self.stab: list[tuple[int, ...]] = [()]
        self.gids: dict[tuple[int, ...], int] = {(): 0}
        self.gtab: list[tuple[int, ...]] = [()]
        self.gsum: list[int] = [0]
        self.gnext: dict[int, int] = {}
        self.shared: dict[int, tuple[list[_Ready], int, int]] = {}
        # Group feasibility without table jokers: the counts so far (id), what the remaining
        # colours of the number could add (``rests`` id) and the jokers, packed in one int.
        self.rests: dict[tuple[int, ...], int] = {}
        self.feasible: dict[int, bool] = {}
        self.steps: dict[int, list[_Step]] = {}
        self.slot_flags: list[bool] = []

    def locked_slots(self, sid: int) -> bool:
        """Whether the open runs ``sid`` hold a table joker still waiting for a real tile."""
        flags = self.slot_flags
        while len(flags) <= sid:
            flags.append(any(x >> _P_SHIFT for x in self.stab[len(flags)]))
        return flags[sid]

    def big(self) -> bool:
        return len(self.stab) + len(self.shared) + len(self.steps) > 50_000


_LOCAL = threading.local()


def _tables() -> _Tables:
    tables: _Tables | None = getattr(_LOCAL, "tables", None)
    if tables is None or tables.big():
        tables = _LOCAL.tables = _Tables()
    return tables


def _ready(options: list[_Option], tables: _Tables) -> list[_Ready]:
    out: list[_Ready] = []
    sids = tables.sids
    stab = tables.stab
    for state, used, free, gc, acts, starts in options:
        sid = sids.get(state)
        if sid is None:
            sid = sids[state] = len(stab)
            stab.append(state)
        short = sum(1 for x in state if (x & _CODE) not in (3, 6))
        ones = sum(1 for x in state if (x & _CODE) in (1, 4))
        closed = all((x & _CODE) == 3 and not x >> (_P_SHIFT - 1) for x in state)
        out.append((sid, used, free, gc, acts, starts, short, ones, closed))
    return out


class _Search:
    """The dynamic programme over stages (number, colour) and (number, groups)."""

    def __init__(self, model: _Model) -> None:
        self.m = model
        self.objective = model.objective
        self.required_reals = model.required_reals
        self.memo: dict[_Key5, tuple[int, object]] = {}
        self.sets: list[list[tuple[Face, _Item]]] | None = None
        self.leftover = 0
        self.nodes = 0
        self.limit = 1 << 62  # node budget (``_optimum`` sets it for a race)
        # Interned group-count tuples (id 0 is the empty tuple).
        self.tables = tables = _tables()
        self.stab = tables.stab
        self.gids = tables.gids
        self.gtab = tables.gtab
        self.gsum = tables.gsum
        self.gnext = tables.gnext
        self.colour_cache: dict[int, list[_Step]] = {}
        self.stage_consts: list[tuple[int, int, int, int] | None] = [None] * 65
        self.group_cache: dict[tuple[int, int, int], _GroupPlan | None] = {}
        self.g_ok: dict[tuple[int, int, int], bool] = {}
        self.rest: dict[tuple[int, int], tuple[int, ...]] = {}
        locked_group = model.locked_group
        locked_run = model.locked_run
        avail = model.avail
        self.locked_at = [tuple(locked_group.get(n, ())) for n in range(15)]
        # Group feasibility depends only on the sorted colour counts unless a table joker of that
        # number cares which colours are there.
        self.canon = canon = [n not in locked_group for n in range(15)]
        self.empty = [
            [not row[n] and (c, n) not in locked_run for n in range(15)]
            for c, row in enumerate(avail)
        ]
        # cover[c][n]: how many of the numbers n..13 hold a tile of colour c or a table joker
        # standing in a run of it (a run led by a free joker must reach 13 through them).
        self.cover = [[0] * 15 for _ in range(4)]
        for c, (row, cover) in enumerate(zip(avail, self.cover, strict=True)):
            for n in range(13, 0, -1):
                cover[n] = cover[n + 1] + (row[n] > 0 or (c, n) in locked_run)
        # Per colour stage: the id of what the later colours of its number hold (see _Tables),
        # the weight of its table tiles and what the rack tiles after it could add.
        self.feasible = tables.feasible
        self.rid = rid_at = [0] * 66
        self.base = base = [0] * 66
        self.reach = [0] * 66
        self.reach[:65] = model.bound[1:66]
        self.group_ok = [False] * 15
        rests = tables.rests
        table_count = model.table_count
        weight = model.weight
        spare = model.free_jokers
        may_skip = [False] * 66
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

    # -- colour stage ---------------------------------------------------------------------------

    def colour_options(self, s: int, sid: int, jl: int) -> list[_Step]:
        key = (sid << 12) | (jl << 7) | s
        cached = self.colour_cache.get(key)
        if cached is not None:
            return cached
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
                ready = _ready(self._options(s % 5, n, self.stab[sid], jl), tables)
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
        options = _ready(self._options(c, n, self.stab[sid], jl), self.tables)
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
        supply1 = m.avail[c][n + 1] + len(m.locked_run.get((c, n + 1), ()))
        supply2 = m.avail[c][n + 2] + len(m.locked_run.get((c, n + 2), ())) if n < 13 else 0
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
        )
        return option_id, step_id, supply1, supply2

    def _steps(self, c: int, n: int, sid: int, jl: int, options: list[_Ready]) -> list[_Step]:
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
        supply1 = m.avail[c][n + 1] + len(m.locked_run.get((c, n + 1), ()))
        supply2 = m.avail[c][n + 2] + len(m.locked_run.get((c, n + 2), ())) if n < 13 else 0
        steps: list[_Step] = []
        for nsid, used, free, gc, acts, starts, short, ones, closed in options:
            if last and not closed:
                continue
            if short and max(0, short - supply1) + max(0, ones - supply2) > jl - free:
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
                masks = tuple(
                    sorted(
                        sum(1 << c for c in info[j].reals) | ((info[j].banned + 1) << 4)
                        for j in locked
                    )
                )
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

    def _options(self, c: int, n: int, slots: tuple[int, ...], jl: int) -> list[_Option]:
        m = self.m
        must = m.must[c][n]
        top = must + m.opt[c][n]
        locked = m.locked
        locked_here = m.locked_run.get((c, n), [])
        k_here = n if n in m.watch[c] else 0
        real_slot = k_here << _K_SHIFT
        can_start = n <= 11
        group_ok = self.group_ok[n]
        defer = m.defer
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
            if max_d and (13 - n) - self.cover[c][n + 1] > jl - free - 1:
                max_d = 0
            for a in range(max_a + 1):
                used_runs = real + a
                g_lo = max(0, must - used_runs)
                g_hi = top - used_runs if group_ok else 0
                if g_lo > g_hi:
                    continue
                for d in range(max_d + 1):
                    all_starts = (
                        starts + [(("R", 0), 1 | real_slot)] * a + [(("F", 0), 4 | _T_BIT)] * d
                    )
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
            tbit = s & _T_BIT
            if code == 3 and not pend and not tbit and not s & _X_BIT:
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
                    x = _REAL_NEXT[code] | real_slot | tbit
                    new.append(x)
                    acts.append((("R", 0), x))
                    rec(i + 1, real + 1, free, lock_left, ended)
                    acts.pop()
                    new.pop()
            nxt = _JOKER_NEXT[code] | (k << _K_SHIFT) | tbit
            if free < jl:
                x = nxt | (pend << _P_SHIFT)
                if defer and code == 3 and not tbit:
                    x |= _X_BIT
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
        out.sort(key=lambda o: (-o[1], o[2]))
        return out

    # -- group stage ----------------------------------------------------------------------------

    def group_plan(self, gid: int, n: int, jokers: int) -> _GroupPlan | None:
        """Split the group counts ``gid`` (tiles per colour), ``jokers`` free jokers and the
        table jokers of number ``n`` into legal groups; None if impossible."""
        key = (gid, n, jokers)
        if key in self.group_cache:
            return self.group_cache[key]
        plan = _plan_groups(list(self.gtab[gid]), jokers, list(self.locked_at[n]), self.m.locked)
        self.group_cache[key] = plan
        return plan

    # -- the search ---------------------------------------------------------------------------

    def best(self, s: int, st: int, jl: int, gid: int, val: int, need: int) -> int:
        """The best score from stage ``s`` on if it is at least ``need`` (exact), otherwise an
        upper bound below ``need``: depth first, best options first, memoised with bounds.
        ``st`` packs the open runs, ``gid`` names the group counts of the current number."""
        if self.may_skip[s]:
            s, gid = self.skip(s, st, jl, gid)
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfBudget
        key = (s, st, jl, gid, val)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None and (hit[1] is not None or hit[0] < need):
            return hit[0]
        m = self.m
        if s == 65:
            ok = (m.defer or m.free_jokers - jl >= m.must_jokers) and val >= m.threshold
            result = jl * m.defer_weight if ok else _NEG
            memo[key] = (result, True)
            return result
        bound = m.bound[s] + jl * m.max_joker_weight
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
            gkey = (gid << 5) | canon
            s1 = s + 1
            shift = _SB * c
            sid = (st >> shift) & _SMASK
            steps = self.colour_cache.get((sid << 12) | (jl << 7) | s)
            if steps is None:
                steps = self.colour_options(s, sid, jl)
            for opt in steps:
                total, gain, delta, jl2, gc, vadd, _, _ = opt
                target = need if need > result else result + 1
                total += off
                if total < target:
                    if total > upper:
                        upper = total
                    break
                gain -= base
                want = target - gain
                new_gid = gnext.get(gkey | (gc << 1))
                if new_gid is None:
                    new_gid = self.g_next(gid, gc, canon)
                if canon:
                    fkey = (((new_gid << 8) | rid) << 3) | jl2
                    fits = feasible.get(fkey)
                    if fits is None:
                        fits = feasible[fkey] = self.g_feasible(new_gid, n, jl2)
                else:
                    fits = g_ok.get((new_gid, n, jl2))
                    if fits is None:
                        fits = self.g_feasible(new_gid, n, jl2)
                if not fits:
                    continue
                new_val = min(threshold, val + vadd) if threshold else 0
                new_st = st + (delta << shift)
                hit = memo.get((s1, new_st, jl2, new_gid, new_val))
                if hit is not None and (hit[1] is not None or hit[0] < want):
                    sub = hit[0]
                else:
                    sub = self.best(s1, new_st, jl2, new_gid, new_val, want)
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
                hit = memo.get((s + 1, st, jl - jg, 0, new_val))
                if hit is not None and (hit[1] is not None or hit[0] < want):
                    sub = hit[0]
                else:
                    sub = self.best(s + 1, st, jl - jg, 0, new_val, want)
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

    def skip(self, s: int, st: int, jl: int, gid: int) -> tuple[int, int]:
        """Step over stages where nothing can happen (no tile, no open run, no joker use)."""
        empty = self.empty
        while s < 65:
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
            result = self.best(0, 0, m.free_jokers, 0, 0, target)
            return result if result >= target else _NEG
        floor = 1 if m.must_jokers == 0 and not self.required_reals else _NEG + 1
        top = m.bound[0] + m.free_jokers * m.max_joker_weight
        if top < floor:
            return _NEG
        result = self.best(0, 0, m.free_jokers, 0, 0, top)
        if result >= top:
            return result
        result = self.best(0, 0, m.free_jokers, 0, 0, floor)
        return result if result >= floor else _NEG

    # -- reconstruction -------------------------------------------------------------------------

    def arrangement(self) -> list[list[tuple[Face, _Item]]]:
        """Walk the stored choices from the start and return the sets as (face, item) lists
        (once; ``leftover`` is then the number of deferred free jokers)."""
        if self.sets is not None:
            return self.sets
        m = self.m
        sets: list[list[tuple[Face, _Item]]] = []
        runs: list[list[tuple[int, list[tuple[Face, _Item]]]]] = [[], [], [], []]
        st = 0
        jl = m.free_jokers
        gid = 0
        val = 0
        actual: list[int] = []
        s = 0
        may_skip = self.may_skip
        memo = self.memo
        while s < 65:
            if may_skip[s]:
                skipped, gid = self.skip(s, st, jl, gid)
                while s < skipped:
                    if s % 5 < 4:
                        actual.append(0)
                    else:
                        actual = []
                    s += 1
                if s == 65:
                    break
            choice = memo[(s, st, jl, gid, val)][1]
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
                kept_runs: list[tuple[int, list[tuple[Face, _Item]]]] = []
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
                    group: list[tuple[Face, _Item]] = [(_FACES[cc][n], ("R", 0)) for cc in colours]
                    group += [(_FACES[4][n], ("L", j)) for j in lk]
                    group += [(_FACES[4][n], ("F", 0))] * nf
                    sets.append(group)
            s += 1
        for c in range(4):
            sets.extend(run for _, run in runs[c])
        self.sets = sets
        self.leftover = jl
        return sets


_PLAIN: dict[tuple[tuple[int, ...], tuple[int, ...], int], bool] = {}
_LOCKED_OK: dict[tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]], bool] = {}


def _attach(sets: list[_FaceSet], jokers: int, avoid: Counter[tuple[int, ...]]) -> bool:
    """Add ``jokers`` deferred free jokers where they only lengthen a set (a run's top end, else
    its bottom end; a group of three), in sets without table jokers, sets equal to a starting set
    last. False if they do not all fit (the caller then searches without deferring)."""
    order = sorted(range(len(sets)), key=lambda i: avoid[_signature(sets[i])] > 0)
    for i in order:
        if not jokers:
            break
        items = sets[i]
        if any(it[0] == "L" for _, it in items):
            continue
        low = items[0][0]
        high = items[-1][0]
        if low.number == high.number:
            if len(items) == 3:
                items.append((_FACES[4][low.number], ("F", 0)))
                jokers -= 1
            continue
        faces = _FACES[_CID[id(low.color)] - 1]
        top = high.number
        while jokers and top < 13:
            top += 1
            items.append((faces[top], ("F", 0)))
            jokers -= 1
        bottom = low.number
        while jokers and bottom > 1:
            bottom -= 1
            items.insert(0, (faces[bottom], ("F", 0)))
            jokers -= 1
    return jokers == 0


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


_PLANS: dict[tuple[tuple[int, ...], int], _GroupPlan | None] = {}


def _plain_plan(g: Sequence[int], jokers: int) -> _GroupPlan | None:
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
                    if not all(
                        info[j].reals & set(colours) and info[j].banned not in colours for j in lk
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
                            return ((colours, lk, nf), *sub)
    return None


# -- keeping table sets as they were -------------------------------------------------------------

_FaceSet = list[tuple[Face, _Item]]


_KIND = {"R": 0, "F": 1, "L": 2}
# Colour codes by the identity of the colour (None 0, then 1-4): hashing a Color enum member
# runs Python code, and the reconstruction looks faces up thousands of times per call.
_CID = {id(None): 0, **{id(c): i + 1 for i, c in enumerate(COLORS)}}
# The number and colour part of a signature item, by the identity of a shared face.
# The mirrored face (number 14 - n) of a shared face, by identity.
_FLIP_ID = {id(f): _FACES[c][14 - f.number] for c, row in enumerate(_FACES) for f in row}
_FCODE = {id(f): (f.number << 12) | (_CID[id(f.color)] << 9) for row in _FACES for f in row}


def _tile_key(tile: Tile) -> tuple[int, int, int]:
    """``Tile.sort_key()`` without hashing the colour (colour, number, copy; jokers last)."""
    c = _CID[id(tile.color)]
    return (c - 1, tile.number, tile.copy) if c else (99, 99, tile.copy)


def _signature(items: Iterable[tuple[Face, _Item]]) -> tuple[int, ...]:
    """What a set is made of, up to which physical copy of a face is used: one int per item
    (number, colour, real / free joker / which table joker). The faces are the shared ones of
    ``_FACES``."""
    fcode = _FCODE
    kind = _KIND
    return tuple(sorted([fcode[id(f)] | (kind[it[0]] << 7) | it[1] for f, it in items]))


def _table_signatures(table: Sequence[Meld], model: _Model) -> list[tuple[int, ...]]:
    ids = {id(lk.tile): lk.ident for lk in model.locked}
    cid = _CID
    sigs = []
    for meld in table:
        codes: list[int] = []
        run = meld.kind is MeldKind.RUN
        for tile, face in zip(meld.tiles, meld.faces, strict=True):
            if tile.color is None:
                shown = cid[id(face.color)] if run else 0
                codes.append((face.number << 12) | (shown << 9) | (2 << 7) | ids[id(tile)])
            else:
                codes.append((face.number << 12) | (cid[id(face.color)] << 9))
        codes.sort()
        sigs.append(tuple(codes))
    return sigs


def _run_piece_ok(piece: _FaceSet, info: Sequence[_Locked]) -> bool:
    if len(piece) < 3 or not any(it[0] == "R" for _, it in piece):
        return False
    for i, (_, it) in enumerate(piece):
        if it[0] != "L":
            continue
        reals = info[it[1]].reals
        below = next((f.number for f, x in reversed(piece[:i]) if x[0] == "R"), None)
        above = next((f.number for f, x in piece[i + 1 :] if x[0] == "R"), None)
        if below not in reals and above not in reals:
            return False
    return True


def _split_runs(
    sets: list[_FaceSet], targets: dict[tuple[int, ...], int], info: Sequence[_Locked]
) -> list[_FaceSet]:
    """Cut long runs where the cut gives back a table run exactly (R1-R6 -> R1-R3 / R4-R6)."""
    out: list[_FaceSet] = []
    for run in sets:
        if len(run) < 6 or run[0][0].color is None or run[0][0] is run[1][0]:
            out.append(run)
            continue
        size = len(run)
        # best[i]: (matches, pieces) for run[:i]
        best: list[tuple[int, list[_FaceSet]] | None] = [None] * (size + 1)
        best[0] = (0, [])
        for end in range(3, size + 1):
            for start in range(0, end - 2):
                prev = best[start]
                if prev is None:
                    continue
                piece = run[start:end]
                if not _run_piece_ok(piece, info):
                    continue
                score = prev[0] + (1 if targets.get(_signature(piece)) else 0)
                cur = best[end]
                if cur is None or score > cur[0]:
                    best[end] = (score, [*prev[1], piece])
        final = best[size]
        out.extend(final[1] if final is not None else [run])
    return out


def _regroup(
    sets: list[_FaceSet], table: Sequence[Meld], model: _Model, targets: dict[tuple[int, ...], int]
) -> list[_FaceSet]:
    """Re-split each number's groups so that table groups come back unchanged where possible
    (a number with no starting group, or whose groups all equal starting groups, is left as
    the search planned it)."""
    by_number: dict[int, list[_FaceSet]] = {}
    others: list[_FaceSet] = []
    for s in sets:
        if s[0][0].color is None or (len(s) > 1 and s[0][0].number == s[1][0].number):
            by_number.setdefault(s[0][0].number, []).append(s)
        else:
            others.append(s)
    ids = {id(lk.tile): lk.ident for lk in model.locked}
    starting: dict[int, list[tuple[list[int], list[int]]]] = {}
    for meld in table:
        # (What is left of a set a retrieval took a tile from may be too short to give back.)
        if meld.kind is MeldKind.GROUP and len(meld.tiles) >= 3:
            n = meld.faces[0].number
            if n in by_number:
                starting.setdefault(n, []).append(
                    (
                        [_CID[id(t.color)] - 1 for t in meld.tiles if t.color is not None],
                        [ids[id(t)] for t in meld.tiles if t.color is None],
                    )
                )
    out = list(others)
    for n, groups in by_number.items():
        candidates = starting.get(n)
        if not candidates:
            out.extend(groups)
            continue
        wanted: dict[tuple[int, ...], int] = {}
        for grp in groups:
            sig = _signature(grp)
            wanted[sig] = wanted.get(sig, 0) + 1
        if all(targets.get(sig, 0) >= k for sig, k in wanted.items()):
            out.extend(groups)
            continue
        g = [0, 0, 0, 0]
        locked: list[int] = []
        free = 0
        for grp in groups:
            for face, it in grp:
                if it[0] == "R":
                    assert face.color is not None
                    g[_CID[id(face.color)] - 1] += 1
                elif it[0] == "L":
                    locked.append(it[1])
                else:
                    free += 1
        carved: list[_FaceSet] = []
        for cols, lks in candidates:
            if any(g[c] < 1 for c in cols) or any(j not in locked for j in lks):
                continue
            for c in cols:
                g[c] -= 1
            rest_locked = [j for j in locked if j not in lks]
            if (
                not _plain_exact(tuple(g), free)
                if not rest_locked
                else _plan_groups(list(g), free, rest_locked, model.locked) is None
            ):
                for c in cols:
                    g[c] += 1
                continue
            locked = rest_locked
            carved.append(
                [(_FACES[c][n], ("R", 0)) for c in cols] + [(_FACES[4][n], ("L", j)) for j in lks]
            )
        plan = _plan_groups(g, free, locked, model.locked) if locked else _plain_plan(g, free)
        if plan is None:  # cannot happen: every carve was checked
            out.extend(groups)
            continue
        out.extend(carved)
        for colours, lk, nf in plan:
            out.append(
                [(_FACES[c][n], ("R", 0)) for c in colours]
                + [(_FACES[4][n], ("L", j)) for j in lk]
                + [(_FACES[4][n], ("F", 0))] * nf
            )
    return out


def _first(run: tuple[int, list[tuple[Face, _Item]]]) -> int:
    return run[0]


# -- physical tiles ------------------------------------------------------------------------------


def _assign(
    sets: list[_FaceSet],
    table: Sequence[Meld],
    sigs: Sequence[tuple[int, ...]],
    model: _Model,
    rack_required: Sequence[Tile],
    rack_optional: Sequence[Tile],
) -> tuple[list[list[Tile | None]], list[int]]:
    """Choose physical tiles for every face: table sets that can stay whole stay whole, each
    locked joker gets a real tile of its own set beside it, rack tiles fill the rest.

    Also returns, per set, the index of the starting set it equals (-1 if none): such a set
    takes that set's tiles wholesale (its table jokers are its own, so no other set needs a
    witness from it) and ``_finish`` returns the starting set itself."""
    # Sets equal to a starting set claim it first, before any other tile is chosen.
    wanted: dict[tuple[int, ...], list[int]] = {}
    for index, sig in enumerate(sigs):
        wanted.setdefault(sig, []).append(index)
    whole = [-1] * len(sets)
    claimed = [False] * len(table)
    set_sigs = [_signature(s) for s in sets] if table else []
    for si, sig in enumerate(set_sigs):
        options = wanted.get(sig)
        if options:
            whole[si] = home = options.pop(0)
            claimed[home] = True
    origin: dict[int, int] = {}
    if model.locked:
        origin = {id(tile): index for index, meld in enumerate(table) for tile in meld.tiles}
    # Table tiles by face code, each with the index of its starting set.
    cid = _CID
    pool: dict[int, list[tuple[Tile, int]]] = {}
    for index, meld in enumerate(table):
        if claimed[index]:
            continue
        for tile in meld.tiles:
            if tile.color is not None:
                code = (tile.number << 12) | (cid[id(tile.color)] << 9)
                pool.setdefault(code, []).append((tile, index))
    rack_pool: dict[int, list[Tile]] = {}
    jokers: list[Tile] = []
    for tile in [*rack_required, *rack_optional]:
        if tile.color is None:
            jokers.append(tile)
        else:
            code = (tile.number << 12) | (cid[id(tile.color)] << 9)
            rack_pool.setdefault(code, []).append(tile)
    chosen: list[list[Tile | None]] = [[None] * len(s) for s in sets]
    open_sets = [si for si in range(len(sets)) if whole[si] < 0]
    fcode = _FCODE
    codes: list[list[int]] = [[]] * len(sets)
    for si in open_sets:
        codes[si] = [fcode[id(f)] for f, _ in sets[si]]

    def take(face: int, meld_index: int | None) -> Tile | None:
        tiles = pool.get(face)
        if tiles:
            for k, (tile, home) in enumerate(tiles):
                if meld_index is None or home == meld_index:
                    del tiles[k]
                    return tile
        return None

    # Locked jokers and their witnesses first.
    for si in open_sets if model.locked else ():
        s = sets[si]
        for i, (_, it) in enumerate(s):
            if it[0] != "L":
                continue
            info = model.locked[it[1]]
            chosen[si][i] = info.tile
            if info.kind is MeldKind.RUN:
                below = [k for k in range(i - 1, -1, -1) if s[k][1][0] == "R"][:1]
                above = [k for k in range(i + 1, len(s)) if s[k][1][0] == "R"][:1]
                candidates = below + above
            else:
                candidates = [k for k in range(len(s)) if s[k][1][0] == "R"]
            for k in candidates:
                held = chosen[si][k]
                if held is not None:
                    if origin.get(id(held)) == info.meld_index:
                        break
                    continue
                witness = take(codes[si][k], info.meld_index)
                if witness is not None:
                    chosen[si][k] = witness
                    break
    # Then each set's "home" set (the starting set it shares most with), any table tile, the rack.
    homes: list[int | None] = [None] * len(sets)
    for si in open_sets:
        counts: dict[int, int] = {}
        for (_, it), code in zip(sets[si], codes[si], strict=True):
            if it[0] == "R":
                left = pool.get(code)
                if left:
                    index = left[0][1]
                    counts[index] = counts.get(index, 0) + 1
            elif it[0] == "L":
                index = model.locked[it[1]].meld_index
                counts[index] = counts.get(index, 0) + 1
        if counts:
            homes[si] = min(counts, key=lambda i: (-counts[i], i))

    home_faces: dict[int, list[int]] = {}

    def overlap(si: int) -> int:
        home = homes[si]
        if home is None:
            return 0
        faces = home_faces.get(home)
        if faces is None:
            faces = home_faces[home] = [
                (t.number << 12) | (cid[id(t.color)] << 9)
                for t in table[home].tiles
                if t.color is not None
            ]
        left = list(faces)
        shared = 0
        for (_, it), code in zip(sets[si], codes[si], strict=True):
            if it[0] == "R" and code in left:
                left.remove(code)
                shared += 1
        return -shared

    for si in sorted(open_sets, key=overlap):
        if homes[si] is None:
            continue
        for k, (_, it) in enumerate(sets[si]):
            if it[0] == "R" and chosen[si][k] is None:
                chosen[si][k] = take(codes[si][k], homes[si])
    # A face no table tile is left for now never gets one later: one pass fills the rest.
    for si in open_sets:
        row = chosen[si]
        for k, (_, it) in enumerate(sets[si]):
            if row[k] is None:
                if it[0] == "R":
                    code = codes[si][k]
                    row[k] = take(code, None) or rack_pool[code].pop(0)
                else:
                    row[k] = jokers.pop(0)
    return chosen, whole


def _build(
    items: _FaceSet, tiles: Sequence[Tile | None], back: dict[int, Tile] | None = None
) -> Meld:
    """The meld of a set whose faces the search chose, in the canonical order ``Meld.build``
    gives (runs ascending with jokers in their places; groups by colour, jokers last). With
    ``back``, the search read the numbers mirrored: the meld is made of the real tiles."""
    real = cast(list[Tile], tiles)
    first = items[0][0]
    if first.color is not None and items[1][0].number != first.number:
        if back is None:
            return Meld(tuple(real), tuple(f for f, _ in items), MeldKind.RUN)
        flip = _FLIP_ID
        return Meld(
            tuple(back[id(t)] for t in reversed(real)),
            tuple(flip[id(f)] for f, _ in reversed(items)),
            MeldKind.RUN,
        )
    n = first.number
    if back is not None:
        # Within one number mirrored tiles sort as the real ones do (colour, then copy).
        real = [back[id(t)] for t in real]
        n = 14 - n
    cid = _CID
    reals = sorted((t for t in real if t.color is not None), key=_tile_key)
    faces = [_FACES[cid[id(t.color)] - 1][n] for t in reals]
    jokers = [t for t in real if t.color is None]
    if jokers:
        # An open joker stands for the missing colour when only one is missing, else for
        # "a missing colour" (as ``Meld.build`` resolves it).
        missing = [c for c in range(4) if not any(cid[id(t.color)] - 1 == c for t in reals)]
        face = _FACES[missing[0]][n] if len(jokers) == 1 and len(missing) == 1 else _FACES[4][n]
        faces += [face] * len(jokers)
    return Meld((*reals, *jokers), tuple(faces), MeldKind.GROUP)


def _origin_counts(meld: Meld, origin: dict[int, int], starting: dict[int, int]) -> dict[int, int]:
    """How many tiles of each starting set ``meld`` holds (a starting set itself: all of its
    own, found without looking at its tiles)."""
    i = starting.get(id(meld))
    if i is not None:
        return {i: len(meld.tiles)}
    counts: dict[int, int] = {}
    for tile in meld.tiles:
        i = origin.get(id(tile))
        if i is not None:
            counts[i] = counts.get(i, 0) + 1
    return counts


def _metrics(
    table: Sequence[Meld], final: Sequence[Meld], origin: dict[int, int]
) -> tuple[int, int]:
    """(starting sets still whole, table tiles that left the biggest part of their set);
    ``origin`` maps the ``id`` of each table tile to the index of its starting set (the final
    sets hold the very same tile objects; hashing a tile by value runs Python code)."""
    biggest = [0] * len(table)
    whole = [False] * len(table)
    starting = {id(m): i for i, m in enumerate(table)}
    for meld in final:
        for i, k in _origin_counts(meld, origin, starting).items():
            if k > biggest[i]:
                biggest[i] = k
            if k == len(meld.tiles) == len(table[i].tiles):
                whole[i] = True
    kept = sum(whole)
    moved = sum(len(m.tiles) - biggest[i] for i, m in enumerate(table))
    return kept, moved


def _order(table: Sequence[Meld], final: list[Meld], origin: dict[int, int]) -> list[Meld]:
    """Table order first (each starting set's biggest part where it was), new sets last."""
    starting = {id(m): i for i, m in enumerate(table)}

    def key(meld: Meld) -> tuple[int, int, tuple[int, int, int]]:
        counts = _origin_counts(meld, origin, starting)
        if not counts:
            return (len(table), 0, _tile_key(meld.tiles[0]))
        home = min(counts, key=lambda i: (-counts[i], i))
        return (home, -counts[home], _tile_key(meld.tiles[0]))

    return sorted(final, key=key)


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


def _useless(model: _Model) -> None:
    """Drop optional rack tiles that no set could ever hold (cheap, and it shrinks the search).

    A tile needs two other faces beside it in a run of its colour, or two other colours of its
    number, counting what the table and rack hold, the table jokers where they stand and the
    free jokers anywhere. Dropping one tile can strand another, so repeat until nothing changes.
    """
    jokers = model.free_jokers
    avail = model.avail
    opt = model.opt
    # Two free jokers make a group with any tile: nothing can be dropped.
    changed = jokers < 2 and any(any(row) for row in opt)
    if changed:
        present = [[avail[c][n] > 0 for n in range(15)] for c in range(4)]
        for c, n in model.locked_run:
            present[c][n] = True
        colours = [sum(1 for c in range(4) if avail[c][n]) for n in range(15)]
        spare = [len(model.locked_group.get(n, ())) + jokers for n in range(15)]
    while changed:
        changed = False
        for c in range(4):
            row = opt[c]
            for n in range(1, 14):
                # Another colour of the number twice over (the tile's own colour counts once).
                if not row[n] or colours[n] + spare[n] >= 3:
                    continue
                if any(
                    sum(1 for k in range(a, a + 3) if k != n and not present[c][k]) <= jokers
                    for a in range(max(1, n - 2), min(n, 11) + 1)
                ):
                    continue
                row[n] = 0
                avail[c][n] = model.must[c][n]
                present[c][n] = avail[c][n] > 0 or (c, n) in model.locked_run
                if not avail[c][n]:
                    colours[n] -= 1
                changed = True
    # The bound must forget the dropped tiles.
    for s in range(64, -1, -1):
        n, sub = divmod(s, 5)
        add = 0 if sub == 4 else model.opt[sub][n + 1] * model.weight[n + 1]
        model.bound[s] = model.bound[s + 1] + add


class _OutOfBudget(Exception):
    """A search ran out of its node budget; its memo stays valid for the next try."""


@dataclass
class _Direction:
    """One way of reading the numbers (1..13, or mirrored 13..1) with its own search."""

    table: list[Meld]
    optional: list[Tile]
    required: list[Tile]
    search: _Search
    back: dict[int, Tile] | None  # id of a mirrored tile -> real tile
    sigs: list[tuple[int, ...]] | None = None  # the table's set signatures, once computed


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
) -> _Direction:
    back: dict[int, Tile] | None = None
    if mirrored:
        back = {}
        table = [_mirror(m, back) for m in table]
        optional = _flip_all(optional, back)
        required = _flip_all(required, back)
    model = _Model(
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
    )
    _useless(model)
    return _Direction(list(table), list(optional), list(required), _Search(model), back)


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
    empty_ok: bool = False,
) -> tuple[int, _Direction] | None:
    """The optimum score and the search that found it (``_finish`` builds the sets holding
    ``table`` plus the placed rack tiles); None when no rack tile can be played.

    How fast the search is can depend a lot on which end of the numbers it starts from (the
    bound only bites once it has passed the rack tiles that cannot be placed). Outside the
    opening, a search that needs more than a budget of nodes is raced against the mirrored one
    (numbers read 13..1) with a budget that doubles, and the first to finish wins.

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
    }
    if opening:
        way = _direction(table, optional, required, mirrored=False, **options)  # type: ignore[arg-type]
        return _found(way, way.search.run(target), empty_ok)
    flip = _start_high(table, optional, required)
    ways = [_direction(table, optional, required, mirrored=flip, **options)]  # type: ignore[arg-type]
    budget = _RACE_BUDGET
    while True:
        for way in ways:
            step = budget if cap is None else min(budget, cap[0])
            if step <= 0:
                return None
            before = way.search.nodes
            way.search.limit = before + step
            try:
                score = way.search.run(target)
            except _OutOfBudget:
                continue
            finally:
                if cap is not None:
                    cap[0] -= way.search.nodes - before
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
                    **options,  # type: ignore[arg-type]
                )
            return found
        if len(ways) == 1:
            ways.append(_direction(table, optional, required, mirrored=not flip, **options))  # type: ignore[arg-type]
        else:
            budget *= 2


def _start_high(table: Sequence[Meld], optional: Sequence[Tile], required: Sequence[Tile]) -> bool:
    """Whether to read the numbers 13..1 first: when the faces present lean to low numbers.
    The search is usually faster from the sparser end (measured on self-play and synthetic
    positions: about a quarter fewer nodes than always starting at 1); the race still covers a
    wrong guess."""
    faces = {(id(t.color), t.number) for m in table for t in m.tiles if t.color is not None}
    faces.update((id(t.color), t.number) for t in (*optional, *required) if t.color is not None)
    return sum(n for _, n in faces) < 7 * len(faces)


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


def _placed_deferred(way: _Direction) -> bool:
    """Add the free jokers the search left for the end to its sets; False if they do not fit."""
    search = way.search
    sets = search.arrangement()
    if not search.leftover:
        return True
    way.sigs = _table_signatures(way.table, search.m)
    avoid = Counter(way.sigs)
    return _attach(sets, search.leftover, avoid)


def _found(way: _Direction, score: int, empty_ok: bool = False) -> tuple[int, _Direction] | None:
    if score == _NEG or (score <= 0 and not way.required and not empty_ok):
        return None
    return score, way


def _finish(way: _Direction, real_table: Sequence[Meld]) -> list[Meld]:
    search = way.search
    model = search.m
    table = way.table
    sets = search.arrangement()
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
    with _GC_PAUSE:
        return _solve(
            table,
            rack,
            objective=objective,
            opening=opening,
            threshold=threshold,
            must_place=must_place,
            minimal_change=minimal_change,
        )


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
    final: list[Meld] | None = None
    found = _optimum(base, optional, required, **options)  # type: ignore[arg-type]
    if found is not None:
        score, way = found
        melds = _settle(base, optional, required, options, score, way, minimal_change, set())
        if opening:
            final = [*table, *sorted(melds, key=lambda m: _tile_key(m.tiles[0]))]
        else:
            final = _order(table, melds, origin)
            if any(m.jokers for m in table) and joker_problem(table, final, True) is not None:
                # Two table jokers leaning on one real tile of another set: the search reasons
                # about faces, not which copy is which. Rare; keep the sets with jokers whole.
                fixed = [m for m in base if m.jokers]
                rest = [m for m in base if not m.jokers]
                again = _optimum(rest, optional, required, **options)  # type: ignore[arg-type]
                final = (
                    None
                    if again is None
                    else _order(table, [*fixed, *_finish(again[1], rest)], origin)
                )
    if not opening and any(m.jokers for m in table):
        rack_tiles = [*required, *optional]
        have = None if final is None else _placed_score(final, origin, objective)
        if have is None or (not required and have < _placed_score(rack_tiles, {}, objective)):
            taken = _retrieve(table, optional, required, options, have, minimal_change, origin)
            if taken is not None:
                final = taken
    if final is None:
        return None
    placed = sorted((t for m in final for t in m.tiles if id(t) not in origin), key=_tile_key)
    value = (
        sum(m.value for m in final[len(table) :]) if opening else sum(t.rack_value for t in placed)
    )
    kept, moved = _metrics(table, final, origin)
    return Solution(final, placed, value, kept, moved, objective, opening)


def _settle(
    base: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    score: int,
    way: _Direction,
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
    last: tuple[_Direction, list[Meld]] | None = None
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


# -- joker retrieval -----------------------------------------------------------------------------
#
# A table joker may stay (the search locks it in its place) or be taken back: a real tile of a
# face it stands for goes into its set (in a set with a real tile of its original set), and the
# joker goes into a new set. In faces that is the locked joker's place filled by a real tile,
# and one more free joker on the table: so each retrieval is searched as the same table with
# the joker locked where it is, one real tile of its face taken out of the supply (from another
# set when the table has one, else from the rack), and a stand-in joker that must be placed.
# The stand-in's place is the joker's new place and the locked joker's place is the tile's.


class _Take(NamedTuple):
    """One retrieval: ``tile`` (face ``face``) takes the place of ``joker`` (of starting set
    ``meld_index``); ``home`` is the starting set ``tile`` comes from (-1: the rack)."""

    joker: Tile
    meld_index: int
    face: Face
    tile: Tile
    home: int


class _Trial(NamedTuple):
    """What one set of retrievals asks of the search: the table it reads, the rack tiles left,
    the stand-ins for the freed jokers and the score the rack's replacement tiles add."""

    takes: tuple[_Take, ...]
    table: list[Meld]
    optional: list[Tile]
    required: list[Tile]
    stand_ins: tuple[Tile, ...]
    credit: int
    banned: dict[int, int]  # id of a freed group joker -> its replacement's colour index
    witnesses: dict[int, frozenset[int]]  # id of a joker in a set that lost a tile -> its reals


_STAND_IN_COPY = 1000  # copies of the placeholder jokers (a box holds at most 4 jokers)


def _tile_score(tile: Tile, objective: str) -> int:
    """What one placed rack tile scores (as the search's weights outside the opening)."""
    points = tile.rack_value
    return points * _BIG + 1 if objective == "value" else _BIG + points


def _placed_score(
    tiles: Iterable[Meld] | Iterable[Tile], origin: dict[int, int], objective: str
) -> int:
    """The score of the rack tiles among ``tiles`` (melds or tiles; table tiles by ``origin``)."""
    total = 0
    for item in tiles:
        for tile in item.tiles if isinstance(item, Meld) else (item,):
            if id(tile) not in origin:
                total += _tile_score(tile, objective)
    return total


def _joker_faces(table: Sequence[Meld]) -> list[tuple[int, Tile, tuple[Face, ...]]]:
    """Every table joker with the faces a real tile must show to take its place."""
    out = []
    for index, meld in enumerate(table):
        for joker in meld.jokers:
            if meld.kind is MeldKind.GROUP:
                faces = meld.joker_options(joker)
            else:
                faces = (meld.faces[meld.tiles.index(joker)],)
            out.append((index, joker, faces))
    return out


def _trials(
    table: Sequence[Meld], optional: Sequence[Tile], required: Sequence[Tile], objective: str
) -> list[_Trial]:
    """Every way of taking back some of the table jokers with tiles that are there: each freed
    joker's replacement face, the tile from another set when the table has one (that is never
    worse than the rack's copy: the two can trade places), else from the rack."""
    jokers = _joker_faces(table)
    choices: list[list[Face | None]] = [[None, *faces] for _, _, faces in jokers]
    trials: list[_Trial] = []
    for combo in itertools.product(*choices):
        if all(face is None for face in combo):
            continue
        used: set[int] = set()
        takes: list[_Take] = []
        for (index, joker, _), face in zip(jokers, combo, strict=True):
            if face is None:
                continue
            take = _replacement(table, optional, required, index, joker, face, used)
            if take is None:
                break
            takes.append(take)
        else:
            trials.append(_trial(table, optional, required, tuple(takes), objective))
    # Most jokers freed first: usually the best, and a good score early lets the others stop
    # at their bounds sooner.
    trials.sort(key=lambda trial: -len(trial.takes))
    return trials


def _replacement(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    index: int,
    joker: Tile,
    face: Face,
    used: set[int],
) -> _Take | None:
    """A tile of ``face`` not yet used: from a set without jokers first, then any other set,
    then the rack (required tiles first)."""
    candidates: list[tuple[int, int, Tile]] = []
    for home, meld in enumerate(table):
        if home == index:
            continue
        rank = 1 if meld.jokers else 0
        for tile in meld.tiles:
            if tile.color is face.color and tile.number == face.number and id(tile) not in used:
                candidates.append((rank, home, tile))
    if candidates:
        _, home, tile = min(candidates, key=lambda c: (c[0], c[1]))
    else:
        rack = [t for t in (*required, *optional) if t.color is face.color]
        tile = next((t for t in rack if t.number == face.number and id(t) not in used), None)  # type: ignore[assignment]
        if tile is None:
            return None
        home = -1
    used.add(id(tile))
    return _Take(joker, index, face, tile, home)


def _trial(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    takes: tuple[_Take, ...],
    objective: str,
) -> _Trial:
    gone = {id(take.tile) for take in takes}
    dp_table = list(table)
    for take in takes:
        if take.home >= 0:
            meld = dp_table[take.home]
            pairs = zip(meld.tiles, meld.faces, strict=True)
            kept = [(t, f) for t, f in pairs if id(t) not in gone]
            # What is left of that set is only tiles the search must place; it need not be a set.
            dp_table[take.home] = Meld(
                tuple(t for t, _ in kept), tuple(f for _, f in kept), meld.kind
            )
    stand_ins = tuple(Tile.joker(_STAND_IN_COPY + k) for k in range(len(takes)))
    credit = sum(_tile_score(take.tile, objective) for take in takes if take.home < 0)
    return _Trial(
        takes,
        dp_table,
        [t for t in optional if id(t) not in gone],
        [*(t for t in required if id(t) not in gone), *stand_ins],
        stand_ins,
        credit,
        {
            id(take.joker): COLORS.index(take.face.color)
            for take in takes
            if table[take.meld_index].kind is MeldKind.GROUP and take.face.color is not None
        },
        {
            id(joker): _reals_of(table[take.home])
            for take in takes
            if take.home >= 0
            for joker in table[take.home].jokers
        },
    )


def _reals_of(meld: Meld) -> frozenset[int]:
    """What witnesses a joker of ``meld`` staying: its run numbers, or its group colours."""
    if meld.kind is MeldKind.RUN:
        return frozenset(t.number for t in meld.tiles if t.color is not None)
    return frozenset(_CID[id(t.color)] - 1 for t in meld.tiles if t.color is not None)


def _retrieve(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    have: int | None,
    minimal_change: bool,
    origin: dict[int, int],
) -> list[Meld] | None:
    """The best table that takes back table jokers, if it beats ``have`` (the score without
    retrieval; None: no play) and the engine's joker rule accepts it; None otherwise."""
    objective = cast(str, options["objective"])
    joker_score = _tile_score(Tile.joker(), objective)
    trials = _trials(table, optional, required, objective)
    if not trials:
        return None
    # With several trials, an upper bound first: the same table with every table joker free to
    # go anywhere (but staying on the table) allows every legal turn. If even that cannot beat
    # ``have``, no retrieval can; once a retrieval reaches it, no other can do better. (It
    # costs about what one trial does, so a single trial goes without it.)
    ceiling = _NEG if len(trials) == 1 else _ceiling(table, optional, required, options, have)
    if ceiling is None:
        return None
    best: list[Meld] | None = None
    for trial in trials:
        if have is not None and have >= ceiling > _NEG:
            break
        freed = len(trial.stand_ins)
        if required:
            target = None
        else:
            need = 1 if have is None else have + 1
            target = need - trial.credit + freed * joker_score
        here = {**options, "banned": trial.banned, "witnesses": trial.witnesses}
        found = _optimum(trial.table, trial.optional, trial.required, target=target, **here)  # type: ignore[arg-type]
        if found is None:
            continue
        score, way = found
        remnants = {id(m) for m in trial.table if m not in table}
        final = _legal(table, _finish(way, trial.table), trial, remnants)
        if final is None:
            if len(trial.takes) == 1:
                final = _in_new_set(table, trial, here, None if required else need, origin)
            if final is not None:
                best, have = _order(table, final, origin), _placed_score(final, origin, objective)
                if required:
                    break
            continue
        if minimal_change:
            # The pass may freeze a set the freed joker then cannot leave: keep it only if legal.
            settled = _settle(
                trial.table, trial.optional, trial.required, here, score, way, True, remnants
            )
            final = _legal(table, settled, trial, remnants) or final
        gained = _placed_score(final, origin, objective)
        if gained <= 0:
            continue
        best, have = _order(table, final, origin), gained
        if required:
            break
    return best


def _ceiling(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    have: int | None,
) -> int | None:
    """The best score with every table joker free (None: not even that beats ``have``)."""
    joker_score = _tile_score(Tile.joker(), cast(str, options["objective"]))
    loose = []
    for meld in table:
        reals = tuple(t for t in meld.tiles if t.color is not None)
        loose.append(Meld(reals, tuple(t.face for t in reals), meld.kind))
    table_jokers = [t for m in table for t in m.jokers]
    need = 1 if have is None else have + 1
    roam = _optimum(
        loose,
        optional,
        [*required, *table_jokers],
        target=None if required else need + len(table_jokers) * joker_score,
        **options,  # type: ignore[arg-type]
    )
    return None if roam is None else roam[0] - len(table_jokers) * joker_score


def _in_new_set(
    table: Sequence[Meld],
    trial: _Trial,
    options: dict[str, object],
    need: int | None,
    origin: dict[int, int],
) -> list[Meld] | None:
    """The best table for a one-joker ``trial`` (worth at least ``need``) with the freed
    joker's new set chosen first: every run of up to five and every group it can make with one
    copy of each other face, none holding every other tile of a starting set, and the rest
    searched around it. Used when the search's own table puts the joker onto an old set."""
    objective = cast(str, options["objective"])
    stand_in = trial.stand_ins[0]
    starts = [frozenset(m.tiles) - {trial.takes[0].joker} for m in table]
    copies: dict[tuple[int, int], list[Tile]] = {}
    for meld in trial.table:
        for tile in meld.tiles:
            if tile.color is not None:
                copies.setdefault((_CID[id(tile.color)] - 1, tile.number), []).append(tile)
    rack = [*trial.required, *trial.optional]
    for tile in rack:
        if tile.color is not None:
            copies.setdefault((_CID[id(tile.color)] - 1, tile.number), []).append(tile)
    rack_ids = {id(t) for t in rack if t.color is not None}
    rack_total = sum(_tile_score(t, objective) for t in trial.optional)
    candidates: list[tuple[int, Meld]] = []
    for faces in _joker_set_faces(copies):
        tiles = _pick_copies(faces, copies, starts)
        if tiles is None:
            continue
        full = [stand_in if t is None else t for t in tiles]
        credit = sum(_tile_score(t, objective) for t in full if id(t) in rack_ids)
        if faces[0][1] == faces[-1][1]:
            meld = Meld.build(full, None, MeldKind.GROUP)
        else:
            colour = COLORS[next(c for c, _ in faces if c >= 0)]
            low = next(n - i for i, (c, n) in enumerate(faces) if c >= 0)
            run_faces = tuple(Face(colour, low + i) for i in range(len(full)))
            meld = Meld(tuple(full), run_faces, MeldKind.RUN)
        candidates.append((credit, meld))
    # Groups that keep one of the table's group jokers where it stands, beside the freed one.
    freed = {id(take.joker) for take in trial.takes}
    for home in trial.table:
        if home.kind is not MeldKind.GROUP or not home.tiles:
            continue
        n = home.faces[0].number
        for kept in home.jokers:
            if id(kept) in freed:
                continue
            here = [c for c in range(4) if (c, n) in copies]
            for size in (1, 2):
                for colours in itertools.combinations(here, size):
                    picked = _pick_copies([(c, n) for c in colours], copies, starts)
                    if picked is None:
                        continue
                    reals = [t for t in picked if t is not None]
                    credit = sum(_tile_score(t, objective) for t in reals if id(t) in rack_ids)
                    group = Meld.build([*reals, kept, stand_in], None, MeldKind.GROUP)
                    candidates.append((credit, group))
    candidates.sort(key=lambda c: -c[0])
    best: list[Meld] | None = None
    for credit, meld in candidates:
        target = None if need is None else need - trial.credit - credit
        if target is not None and rack_total + credit < target + credit:
            continue
        gone = {id(t) for t in meld.tiles}
        rest_table = []
        for m in trial.table:
            if any(id(t) in gone for t in m.tiles):
                pairs = [(t, f) for t, f in zip(m.tiles, m.faces, strict=True) if id(t) not in gone]
                if pairs:
                    rest_table.append(
                        Meld(tuple(t for t, _ in pairs), tuple(f for _, f in pairs), m.kind)
                    )
            else:
                rest_table.append(m)
        optional = [t for t in trial.optional if id(t) not in gone]
        required = [t for t in trial.required if id(t) not in gone and t is not stand_in]
        if target is None or target <= 0:
            target = 0  # the set alone already plays enough; the rest may add nothing
        found = _optimum(
            rest_table,
            optional,
            required,
            target=target,
            empty_ok=True,
            **options,  # type: ignore[arg-type]
        )
        if found is None:
            continue
        rest = _finish(found[1], rest_table)
        remnants = {id(m) for m in rest_table if m not in table}
        final = _swapped([*rest, meld], trial, remnants)
        if final is None or joker_problem(table, final, melded_before=True) is not None:
            continue
        score = _placed_score(final, origin, objective)
        if score > 0 and (need is None or score >= need):
            if need is None:
                return final  # must_place: any legal table places the same tiles
            best, need = final, score + 1
    return best


def _joker_set_faces(
    copies: dict[tuple[int, int], list[Tile]],
) -> Iterator[list[tuple[int, int]]]:
    """Face patterns of the sets a freed joker could make with real faces there are: runs of
    three to five with the joker in any place (colour, number; the joker's place is (-1, n)),
    and groups of three or four."""
    for c in range(4):
        for low in range(1, 12):
            for size in range(3, 6):
                if low + size - 1 > 13:
                    break
                numbers = range(low, low + size)
                for place in numbers:
                    if all(k == place or (c, k) in copies for k in numbers):
                        yield [(-1, k) if k == place else (c, k) for k in numbers]
    for n in range(1, 14):
        here = [c for c in range(4) if (c, n) in copies]
        for size in (2, 3):
            for colours in itertools.combinations(here, size):
                yield [*((c, n) for c in colours), (-1, n)]


def _pick_copies(
    faces: Sequence[tuple[int, int]],
    copies: dict[tuple[int, int], list[Tile]],
    starts: Sequence[frozenset[Tile]],
) -> list[Tile | None] | None:
    """One copy of each real face (None at the joker's place) such that the set holds no
    starting set's other tiles; None if every choice does."""
    pools = [[None] if c < 0 else copies[(c, n)] for c, n in faces]
    for pick in itertools.islice(itertools.product(*pools), 16):
        chosen = {t for t in pick if t is not None}
        if not any(start and start <= chosen for start in starts):
            return list(pick)
    return None


def _legal(
    table: Sequence[Meld], melds: Sequence[Meld], trial: _Trial, remnants: set[int]
) -> list[Meld] | None:
    """The search's sets for ``trial`` as a table the joker rule accepts, or None."""
    final = _swapped(melds, trial, remnants)
    if final is not None and joker_problem(table, final, melded_before=True) is not None:
        final = _repaired(table, final, [take.joker for take in trial.takes])
    return final


def _repaired(table: Sequence[Meld], final: list[Meld], freed: Sequence[Tile]) -> list[Meld] | None:
    """A legal table with the same tiles when the search's one lets a freed joker join a set
    that holds every other tile of a starting set (the search does not see which copy is
    which): cut that run into pieces so the joker's piece is new, or trade a copy of one of
    its faces with a set elsewhere. None if neither helps."""
    starts = [frozenset(m.tiles) for m in table]
    for joker in freed:
        at = next(i for i, m in enumerate(final) if joker in m.tiles)
        meld = final[at]
        tiles = set(meld.tiles)
        if not any(start - {joker} <= tiles for start in starts):
            continue
        for pieces in _cuts(meld):
            trial = [*final[:at], *pieces, *final[at + 1 :]]
            if joker_problem(table, trial, melded_before=True) is None:
                return trial
        for trial in _tile_moves(final, at, starts):
            if joker_problem(table, trial, melded_before=True) is None:
                return trial
        moved: list[list[Meld]] = []
        for trial in _joker_moves(final, at, joker, starts, freed):
            if joker_problem(table, trial, melded_before=True) is None:
                return trial
            moved.append(trial)
        # Two steps: the joker onto another old set, then one of that set's tiles elsewhere.
        for trial in moved:
            home = next(i for i, m in enumerate(trial) if joker in m.tiles)
            for again in _tile_moves(trial, home, starts):
                if joker_problem(table, again, melded_before=True) is None:
                    return again
        for k, other in enumerate(final):
            if k == at:
                continue
            for i, mine in enumerate(meld.tiles):
                for j, theirs in enumerate(other.tiles):
                    if mine.color is None or mine.face != theirs.face or mine is theirs:
                        continue
                    a = _with_tile(meld, i, theirs)
                    b = _with_tile(other, j, mine)
                    trial = list(final)
                    trial[at], trial[k] = a, b
                    if joker_problem(table, trial, melded_before=True) is None:
                        return trial
    return None


def _joker_moves(
    final: list[Meld],
    at: int,
    joker: Tile,
    starts: Sequence[frozenset[Tile]],
    freed: Sequence[Tile],
) -> Iterator[list[Meld]]:
    """The table with ``joker`` (in ``final[at]``) traded for a joker from the rack or another
    freed joker in another set, or moved to lengthen another set when its own set stands
    without it."""
    meld = final[at]
    index = meld.tiles.index(joker)
    table_jokers = {t for start in starts for t in start if t.is_joker} - set(freed)
    for k, other in enumerate(final):
        if k == at:
            continue
        for j, theirs in enumerate(other.tiles):
            if theirs.color is None and theirs not in table_jokers:
                trial = list(final)
                trial[at] = _with_tile(meld, index, theirs)
                trial[k] = _with_tile(other, j, joker)
                yield trial
    rest = [t for t in meld.tiles if t is not joker]
    pins = {i: f for i, (t, f) in enumerate(zip(meld.tiles, meld.faces, strict=True))}
    try:
        without = Meld.build(
            rest,
            {i: pins[meld.tiles.index(t)] for i, t in enumerate(rest) if t.is_joker},
            meld.kind,
        )
    except InvalidMeldError:
        return
    for k, other in enumerate(final):
        if k == at:
            continue
        for longer in _lengthened(other, joker):
            for pieces in [[longer], *_cuts(longer)]:
                yield (
                    [*final[:at], without, *final[at + 1 : k], *pieces, *final[k + 1 :]]
                    if (at < k)
                    else [*final[:k], *pieces, *final[k + 1 : at], without, *final[at + 1 :]]
                )


def _without(meld: Meld, tile: Tile) -> Meld | None:
    """``meld`` less ``tile`` (its jokers keep their faces where they can), or None."""
    rest = [t for t in meld.tiles if t is not tile]
    faces = dict(zip(meld.tiles, meld.faces, strict=True))
    pins = {i: faces[t] for i, t in enumerate(rest) if t.color is None}
    if meld.kind is MeldKind.GROUP:
        pins = {i: f for i, f in pins.items() if f.color is not None}
    try:
        return Meld.build(rest, pins, meld.kind)
    except InvalidMeldError:
        return None


def _tile_moves(
    final: list[Meld], at: int, starts: Sequence[frozenset[Tile]]
) -> Iterator[list[Meld]]:
    """The table with one real tile of the old set inside ``final[at]`` moved out of it, to
    lengthen another set, when both stay legal sets."""
    meld = final[at]
    inside = {t for start in starts if start and start <= set(meld.tiles) for t in start}
    for tile in meld.tiles:
        if tile.color is None or tile not in inside:
            continue
        smaller = _without(meld, tile)
        if smaller is None:
            continue
        for k, other in enumerate(final):
            if k == at:
                continue
            for longer in _lengthened(other, tile):
                trial = list(final)
                trial[at], trial[k] = smaller, longer
                yield trial


def _lengthened(meld: Meld, tile: Tile) -> Iterator[Meld]:
    """``meld`` with ``tile`` (a joker, or a real tile whose face fits) added at either end of
    a run, or as a group's fourth tile."""
    if tile.color is not None:
        pins = {
            i: f
            for i, (t, f) in enumerate(zip(meld.tiles, meld.faces, strict=True))
            if t.color is None and f.color is not None
        }
        try:
            longer = Meld.build([*meld.tiles, tile], pins, meld.kind)
        except InvalidMeldError:
            return
        if len(longer.tiles) == len(meld.tiles) + 1:
            yield longer
        return
    joker = tile
    """``meld`` with ``joker`` added at either end of a run, or as a group's fourth tile."""
    if meld.kind is MeldKind.GROUP:
        if len(meld.tiles) == 3:  # three tiles with a real one: a fourth joker always fits
            yield Meld.build([*meld.tiles, joker], None, MeldKind.GROUP)
        return
    color = meld.faces[0].color
    low, high = meld.faces[0].number, meld.faces[-1].number
    if high < 13:
        yield Meld((*meld.tiles, joker), (*meld.faces, Face(color, high + 1)), MeldKind.RUN)
    if low > 1:
        yield Meld((joker, *meld.tiles), (Face(color, low - 1), *meld.faces), MeldKind.RUN)


def _with_tile(meld: Meld, index: int, tile: Tile) -> Meld:
    """The same set with another copy of the same face at ``index`` (order kept canonical)."""
    tiles = list(meld.tiles)
    tiles[index] = tile
    if meld.kind is MeldKind.GROUP and tile.color is not None:
        pairs = sorted(
            zip(tiles, meld.faces, strict=True),
            key=lambda p: _tile_key(p[0]),
        )
        return Meld(tuple(t for t, _ in pairs), tuple(f for _, f in pairs), meld.kind)
    return Meld(tuple(tiles), meld.faces, meld.kind)


def _cuts(meld: Meld) -> Iterator[list[Meld]]:
    """Every way of cutting a run into shorter runs of three or more with a real tile each."""
    if meld.kind is not MeldKind.RUN or len(meld.tiles) < 6:
        return
    size = len(meld.tiles)

    def pieces(start: int) -> Iterator[list[tuple[int, int]]]:
        if start == size:
            yield []
            return
        for end in range(start + 3, size + 1):
            if size - end in (1, 2):
                continue
            if all(t.color is None for t in meld.tiles[start:end]):
                continue
            for rest in pieces(end):
                yield [(start, end), *rest]

    for cut in pieces(0):
        if len(cut) > 1:
            yield [Meld(meld.tiles[a:b], meld.faces[a:b], MeldKind.RUN) for a, b in cut]


def _swapped(melds: Sequence[Meld], trial: _Trial, remnants: set[int]) -> list[Meld] | None:
    """The search's sets with each freed joker's place given to its replacement tile and each
    stand-in replaced by the joker itself; None if a group would then repeat a colour, or if
    what is left of a set a tile was taken from (``remnants``, by id) came back as a set and
    is not one."""
    swap: dict[int, Tile] = {}
    for take, stand_in in zip(trial.takes, trial.stand_ins, strict=True):
        swap[id(take.joker)] = take.tile
        swap[id(stand_in)] = take.joker
    out: list[Meld] = []
    for meld in melds:
        if id(meld) in remnants:
            if len(meld.tiles) < 3:
                return None
        elif not any(id(t) in swap for t in meld.tiles):
            out.append(meld)
            continue
        tiles = [swap.get(id(t), t) for t in meld.tiles]
        pins = {
            i: face
            for i, (tile, face) in enumerate(zip(tiles, meld.faces, strict=True))
            if tile.color is None
        }
        try:
            out.append(Meld.build(tiles, pins, meld.kind))
        except InvalidMeldError:
            return None
    return out


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


def explain(table: Sequence[Meld], solution: Solution) -> str:
    """One or two short lines: what the play does to the table ("Added R8 to meld 3; ...")."""
    return str(explain_message(table, solution))


def explain_message(table: Sequence[Meld], solution: Solution) -> Msg | Clauses:
    """:func:`explain` as a translatable message."""
    origin = {t: i for i, m in enumerate(table) for t in m.tiles}
    placed = set(solution.placed)
    final = solution.melds
    main: dict[int, int] = {}
    for i, meld in enumerate(table):
        tiles = set(meld.tiles)
        main[i] = max(range(len(final)), key=lambda f: len(tiles & set(final[f].tiles)))
    parts: dict[int, list[int]] = {}
    for f, meld in enumerate(final):
        for i in {origin[t] for t in meld.tiles if t in origin}:
            parts.setdefault(i, []).append(f)
    done: set[int] = set()
    sentences: list[Msg] = []
    for f, meld in enumerate(final):
        if f in done:
            continue
        mine = [t for t in meld.tiles if t in placed]
        sources = {origin[t] for t in meld.tiles if t in origin}
        if not sources:
            sentences.append(Msg("new set {tiles}", tiles=meld.text()))
            continue
        mains = [i for i in sorted(sources) if main[i] == f]
        borrowed = [t for t in meld.tiles if t in origin and main[origin[t]] != f]
        if len(mains) == 1:
            i = mains[0]
            pieces = parts[i]
            if (
                len(pieces) > 1
                and table[i].kind is MeldKind.RUN
                and all({origin[t] for t in final[p].tiles if t in origin} == {i} for p in pieces)
            ):
                done.update(pieces)
                ordered = sorted(pieces, key=lambda p: final[p].faces[0].number)
                extra = [t for p in ordered for t in final[p].tiles if t in placed]
                cut = next(t for t in final[ordered[1]].tiles if t in origin or t in placed)
                if extra:
                    sentences.append(
                        Msg(
                            "split meld {number} at {tile} and added {tiles}",
                            number=i + 1,
                            tile=str(cut),
                            tiles=tiles_text(extra),
                        )
                    )
                else:
                    sentences.append(
                        Msg("split meld {number} at {tile}", number=i + 1, tile=str(cut))
                    )
                continue
            if borrowed:
                froms = sorted({origin[t] + 1 for t in borrowed})
                sentences.append(
                    Msg(
                        "moved {tiles} from meld {sources} to meld {number}",
                        tiles=tiles_text(borrowed),
                        sources=", ".join(map(str, froms)),
                        number=i + 1,
                    )
                )
            if mine:
                sentences.append(
                    Msg("added {tiles} to meld {number}", tiles=tiles_text(mine), number=i + 1)
                )
        elif not mains:
            froms = sorted({origin[t] + 1 for t in borrowed})
            sentences.append(
                Msg(
                    "new set {tiles} with {borrowed} from meld {sources}",
                    tiles=meld.text(),
                    borrowed=tiles_text(borrowed),
                    sources=", ".join(map(str, froms)),
                )
            )
        else:
            if mine:
                sentences.append(
                    Msg(
                        "joined melds {numbers} with {tiles}",
                        numbers=both([i + 1 for i in mains]),
                        tiles=tiles_text(mine),
                    )
                )
            else:
                numbers = both([i + 1 for i in mains])
                sentences.append(Msg("joined melds {numbers}", numbers=numbers))
    if not sentences:
        return Msg("No change.")
    return Clauses(sentences)


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


__all__ = [
    "OBJECTIVES",
    "Solution",
    "auto_arrange",
    "check",
    "explain",
    "solve",
]
