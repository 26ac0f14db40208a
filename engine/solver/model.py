"""The solver's model of a position: counts per face, the table jokers locked in place, the
score weights, and the records shared by the other modules (a locked joker, a retrieval, a
found optimum)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from engine.melds import Meld, MeldKind
from engine.tiles import (
    COLORS,
    JOKER_VALUE_ON_RACK,
    Face,
    Tile,
)

OBJECTIVES = ("tiles", "value")
_NEG = -(1 << 60)
_BIG = 1000
_RACE_BUDGET = 500  # nodes before the mirrored search joins the race
# The budget of the direction a race starts with, per round, over the other one's: it is the
# guess (the reading of the numbers that won a search of the same position, or the sparser
# end), right more often than not (docs/solver.md, "Speed").
_HEAD_START = 2
# The same when the guess is the reading that won the position's first search (the retrieval
# searches): right for most of their nodes, so the other reading starts far behind and stays
# a safety net (issue 27: mid-game nodes -7%; a wrong guess costs up to 8 times the right one).
_PREFER_HEAD_START = 8
_FREEZE_NODES = 4000  # nodes the minimal-change pass may spend in all
# The search's stages: per number 1..13, one per colour and then its groups (stage s is number
# s // 5 + 1, colour s % 5, 4 = the groups); stage _STAGES is the end, past number 13.
_STAGES: Final = 13 * 5

# Slot codes of an open run: 1-3 = length 1, 2, 3+ with a real tile; 4-6 = the same, jokers only.
_REAL_NEXT = (0, 2, 3, 3, 2, 3, 3)
_JOKER_NEXT = (0, 2, 3, 3, 5, 6, 6)
_CODE = 7  # low 3 bits of a slot: the code
_K_SHIFT = 3  # next 4 bits: the number of the latest real tile when it matters for a joker
_T_BIT = 1 << 7  # started with a free joker: must run on to 13 (else the joker goes at the end)
_X_BIT = 1 << 8  # ends in free jokers added to a finished run: may not end so (they are deferred)
_P_SHIFT = 9  # higher bits: locked jokers waiting for a real tile of their original run


# What fills one place of a set the search made: ("R", 0) a real tile, ("F", 0) a free joker,
# ("L", j) the table joker numbered j locked in its place. A plain pair, like ``Cell``: the
# rebuild reads thousands per call, and CPython indexes and unpacks an exact tuple on a fast
# path that a NamedTuple misses.
Item = tuple[str, int]
REAL: Item = ("R", 0)
FREE: Item = ("F", 0)


# One place of a set of faces: (the face shown, what fills it). A plain pair on purpose: the
# rebuild unpacks thousands per call, and CPython unpacks an exact tuple on a fast path that
# a NamedTuple misses (a median solve was about 5% slower with one).
Cell = tuple[Face, Item]
# A set as the search sees it: its cells in order (runs ascending; groups as planned).
FaceSet = list[Cell]


class GroupPart(NamedTuple):
    """One group of a number's split: the colours of its real tiles, the table jokers locked
    in it (by number) and how many free jokers it takes."""

    colours: tuple[int, ...]
    locked: tuple[int, ...]
    free: int


GroupPlan = tuple[GroupPart, ...]
# _FACES[c][n]: the face of colour c and number n (c = 4: a group joker's colourless face).
_FACES = [[Face(c, n) for n in range(15)] for c in (*COLORS, None)]
# Colour codes by the identity of the colour (None 0, then 1-4): hashing a Color enum member
# runs Python code, and the reconstruction looks faces up thousands of times per call.
_CID = {id(None): 0, **{id(c): i + 1 for i, c in enumerate(COLORS)}}


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
class Locked:
    """A table joker that must stay in its place."""

    ident: int
    tile: Tile
    meld_index: int
    kind: MeldKind
    color: int  # run jokers: colour index; group jokers: -1
    number: int
    reals: frozenset[int]  # runs: numbers of the original real tiles; groups: their colours
    banned: int = -1  # groups: a colour its final group may not hold (its replacement's), or -1
    # Groups: locked jokers (by ident) whose place a retrieval fills with a tile of this joker's
    # original set; in one group with this joker they witness it (``_plan_groups``).
    mates: frozenset[int] = frozenset()
    # Runs: the locked run jokers (bits by ident) whose original set gave the tile that fills
    # this joker's place (a freed joker's): beside them in one run it witnesses them, and
    # ``mark`` (14 or 15, 0: none) is the number it leaves as the latest real tile for that.
    witnessing: int = 0
    mark: int = 0


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


class Model:
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
        mates: dict[int, frozenset[int]] | None = None,
    ) -> None:
        self.must = must = [[0] * 15 for _ in range(4)]
        self.opt = opt = [[0] * 15 for _ in range(4)]
        self.table_count = table_count = [[0] * 15 for _ in range(4)]
        self.opening = opening
        self.objective = objective
        self.threshold = threshold if opening else 0
        self.locked: list[Locked] = []
        self.locked_run: dict[tuple[int, int], list[int]] = {}
        self.locked_group: dict[int, list[int]] = {}
        self.watch: list[set[int]] = [set() for _ in range(4)]
        # Per colour: whether a table joker stands locked in one of its runs (then which real
        # tile lies next to it matters, and a free joker is not simply a worse real tile).
        self.run_jokers = [False] * 4
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
        # Run jokers witnessed by a freed joker's place: 14 and 15 are no number, so a slot's
        # latest real tile can say "a tile of the original set of the jokers in ``marks[k]``".
        self.marks: dict[int, int] = {}
        if mates:
            self._mate(mates)
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
        # only lengthen a finished set is left for the end (``walk.arrangement`` adds it).
        # Jokers that must be placed (``must_place``, a freed table joker) may be deferred too:
        # the ones left over are all added at the end (or the search runs again without).
        self.defer = defer and not opening and self.free_jokers > 0
        self.defer_weight = self.joker_weight[1] if self.defer else 0
        # Upper bound on what the optional tiles from stage ``s`` on can still add (set by
        # ``_useless``, which may drop some of them first).
        self.bound = [0] * (_STAGES + 1)
        # With j free jokers left, bounds[j][s] bounds what stage s on can still add, the
        # jokers' own weight included (``_useless``, ``_bounds``).
        self.bounds: list[list[int]] = []
        # tight[s][j]: what bounds[j] takes off at stage s + 1 (what a step of stage s that
        # leaves j jokers can add at most, beyond its total); one shared row of zeros where
        # nothing is taken off.
        self.tight: list[list[int]] = []
        self.avail = [[a + b for a, b in zip(must[c], opt[c], strict=True)] for c in range(4)]

    def _mate(self, mates: dict[int, frozenset[int]]) -> None:
        """Record which freed jokers' places hold a tile of which locked jokers' original set."""
        ident_of = {id(lk.tile): lk.ident for lk in self.locked}
        witnessing: dict[int, int] = {}
        for lk in self.locked:
            found = mates.get(id(lk.tile))
            if not found:
                continue
            idents = frozenset(ident_of[j] for j in found if j in ident_of)
            if lk.kind is MeldKind.GROUP:
                self.locked[lk.ident] = replace(lk, mates=idents)
                continue
            for j in idents:
                if j != lk.ident and self.locked[j].kind is MeldKind.RUN:
                    witnessing[j] = witnessing.get(j, 0) | 1 << lk.ident
        for j, mask in sorted(witnessing.items()):
            mark = next((k for k, v in self.marks.items() if v == mask), 0)
            if not mark and len(self.marks) < 2:
                mark = 14 + len(self.marks)
                self.marks[mark] = mask
            self.locked[j] = replace(self.locked[j], witnessing=mask, mark=mark)

    def _lock(self, tile: Tile, face: Face, index: int, meld: Meld) -> None:
        ident = len(self.locked)
        if meld.kind is MeldKind.RUN:
            assert face.color is not None
            c = COLORS.index(face.color)
            reals = frozenset(t.number for t in meld.tiles if not t.is_joker)
            if id(tile) in self.witnesses:
                flip = self.mirrored
                reals = frozenset(14 - k if flip else k for k in self.witnesses[id(tile)])
            self.locked.append(Locked(ident, tile, index, meld.kind, c, face.number, reals))
            self.locked_run.setdefault((c, face.number), []).append(ident)
            self.run_jokers[c] = True
            self.watch[c] |= {k for k in reals if k < face.number}
        else:
            colours = frozenset(COLORS.index(t.color) for t in meld.tiles if t.color is not None)
            colours = self.witnesses.get(id(tile), colours)
            banned = self.banned.get(id(tile), -1)
            self.locked.append(
                Locked(ident, tile, index, meld.kind, -1, face.number, colours, banned)
            )
            self.locked_group.setdefault(face.number, []).append(ident)


class OutOfBudget(Exception):
    """A search ran out of its node budget; its memo stays valid for the next try."""


def _useless(model: Model) -> None:
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
    for s in range(_STAGES - 1, -1, -1):
        n, sub = divmod(s, 5)
        add = 0 if sub == 4 else model.opt[sub][n + 1] * model.weight[n + 1]
        model.bound[s] = model.bound[s + 1] + add
    _bounds(model)


def _bounds(model: Model) -> None:
    """``bounds[j]``: the bound with j free jokers left, their weight included.

    A rack tile of number m *needs* free jokers when no run through m has its two other
    faces present (table, rack or a table joker standing there) and no group of three colours
    is there: at least as many as the fewest faces missing (or colours, for a group). A free
    joker that helps such a tile is in its set and stands within two numbers of it (in its
    run) or at its number (in its group). Once the search has passed number n, the jokers it
    placed stand at n or before, so of the tiles of numbers n + 3 on that need jokers, none
    that needs more than the j left can be placed, and those placed are in the sets of the j
    jokers left: at most what the j best places for a joker (beside such tiles, one per face
    and set) can hold. (What a tile needs depends only on the numbers from m - 2 on, which the
    key of a shared memo holds for stage n.)"""
    jokers = model.free_jokers
    bound = model.bound
    mjw = model.max_joker_weight
    if not jokers:
        model.bounds = [bound]
        model.tight = [[0]] * (_STAGES + 1)
        return
    model.bounds = bounds = [[b + j * mjw for b in bound] for j in range(jokers + 1)]
    model.tight = tight = [[0] * (jokers + 1)] * (_STAGES + 1)
    avail = model.avail
    opt = model.opt
    weight = model.weight
    locked_run = model.locked_run
    needy: list[tuple[int, int, int]] = []  # (colour, number, jokers needed)
    for n in range(1, 14):
        colours = sum(1 for c in range(4) if avail[c][n]) + len(model.locked_group.get(n, ()))
        group = 3 - colours
        if group <= 0:
            continue
        for c in range(4):
            if not opt[c][n]:
                continue
            row = avail[c]
            gap = [
                not (0 < k < 14 and (row[k] > 0 or (c, k) in locked_run))
                for k in range(n - 2, n + 3)
            ]
            need = min(group, gap[0] + gap[1], gap[1] + gap[3], gap[3] + gap[4])
            if need:
                needy.append((c, n, need))
    if not needy:
        return
    # cut[j][n]: what stage n's bound loses with j jokers left (tiles of n + 3 on).
    cut = [[0] * 15 for _ in range(jokers + 1)]
    for n in range(1, 11):
        lo = n + 3
        here = [(c, m, need) for c, m, need in needy if m >= lo]
        if not here:
            continue
        total = sum(opt[c][m] * weight[m] for c, m, _ in here)
        # Per place a joker could take (a run's colour and number, or a number's group), what
        # its set could help place, one tile per face: the i-th set with a joker there only
        # the faces with i copies or more.
        places: dict[tuple[int, int], list[int]] = {}
        for c, m, _ in here:
            w = weight[m]
            copies = opt[c][m]
            keys = [(4, m)]
            keys += [(c, k) for k in range(max(m - 2, lo - 2), min(m + 2, 13) + 1) if k != m]
            for key in keys:
                held = places.setdefault(key, [0, 0, 0, 0])
                for i in range(min(copies, 4)):
                    held[i] += w
        ranked = sorted((v for held in places.values() for v in held if v), reverse=True)
        for j in range(jokers + 1):
            beyond = sum(opt[c][m] * weight[m] for c, m, need in here if need > j)
            helped = min(total - beyond, sum(ranked[:j]))
            cut[j][n] = total - helped
    for n in range(1, 11):
        if not any(cut[j][n] for j in range(jokers + 1)):
            continue
        for j in range(jokers + 1):
            row = bounds[j]
            for s in range(5 * n - 5, 5 * n):
                row[s] -= cut[j][n]
        # Stage 5n - 6 is the last before number n's first.
        off = [-cut[j][n] for j in range(jokers + 1)]
        for s in range(max(0, 5 * n - 6), 5 * n - 1):
            tight[s] = off


class Take(NamedTuple):
    """One retrieval: ``tile`` (face ``face``) takes the place of ``joker`` (of starting set
    ``meld_index``); ``home`` is the starting set ``tile`` comes from (-1: the rack)."""

    joker: Tile
    meld_index: int
    face: Face
    tile: Tile
    home: int


class Trial(NamedTuple):
    """What one set of retrievals asks of the search: the table it reads, the rack tiles left,
    the stand-ins for the freed jokers and the score the rack's replacement tiles add."""

    takes: tuple[Take, ...]
    table: list[Meld]
    optional: list[Tile]
    required: list[Tile]
    stand_ins: tuple[Tile, ...]
    credit: int
    banned: dict[int, int]  # id of a freed group joker -> its replacement's colour index
    witnesses: dict[int, frozenset[int]]  # id of a joker in a set that lost a tile -> its reals
    # id of a table joker -> ids of the freed jokers whose replacement comes from its set
    mates: dict[int, frozenset[int]]


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
