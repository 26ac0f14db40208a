"""An exact oracle for a whole turn, joker retrieval included, on tables of up to 80 tiles.

It shares no code with ``engine/solver.py``: it is one mixed-integer programme (SciPy's
``milp``, HiGHS, gap 0) that models the rule of ``engine.rules.turn_problems`` over physical
tiles, and every table it returns is built from physical tiles and judged by that function.

What the rules care about is which physical tile sits in which final set, but only where a table
joker is concerned: a joker *stays* when its final set holds a real tile of its starting set and
it stands for a face it could stand for before; otherwise it is *retrieved*, which needs a real
tile of a face it stood for (not from its starting set) in a final set that also holds a real
tile of its starting set (one such tile per joker of a starting set), and a *new* set for the
joker: one that does not hold every other tile of any starting set. The sets where none of that
is asked (every set without a table joker that is no joker's witness) only need the right faces.

So the model has two parts:

* **Slots**: ``2 * J`` explicit sets for ``J`` table jokers (each joker's final set, each
  retrieved joker's witness set; two may coincide, some may be empty). A slot is a run of one
  colour or a group of one number, position by position (each face a place), and each place is
  filled by one physical source: the real tile of that face from a given starting set, a rack
  copy, a given table joker or a rack joker. The stay, retrieval and new-set conditions are
  written on those fills, including how ``Meld`` resolves a joker's face: in a run it stands
  for its place; in a group it stands for "a missing colour" (which fits any face of that
  number) except when it is the only joker of a four-tile group, where it is the missing colour.
* **Ordinary sets**: integer counts of set patterns over faces (runs of 3-5, longer when the
  rack holds three or more jokers; groups of 3-4), fed by table tiles not in a slot and rack
  tiles. Nothing in the rule looks at which copy of a face they hold.

Every table tile is used exactly once, rack tiles at most once, at least one rack tile is
played. Before the initial meld (``opening``) the table is left as it is and the rack alone must
make new sets worth the threshold (a joker counts as the face it stands for). Scores are on the
solver's scale (``solver_oracle.weights``). The programme has a time limit; a run that hits it
reports the best table found and HiGHS's bound (``Exact.proved`` is then False). The programme
builder and the ordinary sets' face patterns are in ``exact_program``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.melds import Meld, MeldKind
from engine.rules import turn_problems
from engine.tiles import COLORS, Face, Tile
from tests.engine.exact_program import (
    INF,
    FaceKey,
    _bound,
    _key,
    _lay_out,
    _patterns,
    _pools,
    _Program,
)
from tests.engine.solver_oracle import weights

FACES: list[FaceKey] = [(c, n) for c in range(4) for n in range(1, 14)]


@dataclass
class Exact:
    """The oracle's answer: ``score`` of ``table`` (0 and None: no legal play), ``bound`` an
    upper bound on every legal turn's score (equal to ``score`` when ``proved``)."""

    score: int
    bound: int
    proved: bool
    table: list[Meld] | None
    seconds: float = 0.0
    retrieved: int = 0  # table jokers the returned table takes back


def exact_turn(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    objective: str = "tiles",
    *,
    opening: bool = False,
    threshold: int = 30,
    time_limit: float = 60.0,
) -> Exact:
    """The best legal turn from ``table`` with ``rack`` (after the initial meld, or with
    ``opening`` before it), by the engine's rules; see the module docstring."""
    import time

    began = time.perf_counter()
    if opening:
        answer = _opening(table, rack, objective, threshold, time_limit)
    else:
        answer = _melded(table, rack, objective, time_limit)
    answer.seconds = time.perf_counter() - began
    return answer


def _opening(
    table: Sequence[Meld], rack: Sequence[Tile], objective: str, threshold: int, time_limit: float
) -> Exact:
    supply: Counter[FaceKey] = Counter(_key(t) for t in rack if not t.is_joker)
    jokers = sum(1 for t in rack if t.is_joker)
    patterns = _patterns(supply, jokers, 5 if jokers <= 2 else 13)
    if not patterns:
        return Exact(0, 0, True, None)
    p = _Program()
    cols = []
    for pat in patterns:
        gain = sum(weights(objective, True, f[1], False) * k for f, k in pat.items if f != "J")  # type: ignore[index]
        # In the opening a joker is worth the face it stands for.
        if objective == "value":
            gain += pat.joker_value * 1000 + pat.count("J")
        else:
            gain += pat.count("J") * 1000 + pat.joker_value
        cols.append(p.var(hi=4, cost=-gain))
    for f in supply:
        p.row([(cols[i], pat.count(f)) for i, pat in enumerate(patterns)], 0, supply[f])
    p.row([(cols[i], pat.count("J")) for i, pat in enumerate(patterns)], 0, jokers)
    p.row([(cols[i], pat.value) for i, pat in enumerate(patterns)], threshold, INF)
    res = p.solve(time_limit)
    if res.x is None:
        if res.status == 2:  # infeasible: no opening
            return Exact(0, 0, True, None)
        return Exact(0, _bound(res), False, None)
    pools = _pools(rack)
    final = list(table)
    for i, pat in enumerate(patterns):
        for _ in range(round(res.x[cols[i]])):
            final.append(_lay_out(pat, pools))
    return _finish(table, rack, final, objective, False, threshold, res)


def _finish(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    final: list[Meld],
    objective: str,
    melded: bool,
    threshold: int,
    res: object,
) -> Exact:
    """Judge the table by the engine's rule and score it by its own tiles."""
    problems = turn_problems(table, rack, final, melded_before=melded, threshold=threshold)
    assert problems == [], [str(p) for p in problems]
    rack_ids = set(rack)
    score = 0
    for meld in final:
        for tile, face in zip(meld.tiles, meld.faces, strict=True):
            if tile in rack_ids:
                score += weights(objective, not melded, face.number, tile.is_joker)
    claimed = round(-res.fun)  # type: ignore[attr-defined]
    assert score == claimed, (score, claimed)
    proved = res.status == 0  # type: ignore[attr-defined]
    bound = score if proved else max(score, _bound(res))
    return Exact(score, bound, proved, final, 0.0, retrieved_jokers(table, final))


def retrieved_jokers(table: Sequence[Meld], final: Sequence[Meld]) -> int:
    """How many table jokers ``final`` takes back (by the rule's stay test)."""
    where = {t: m for m in final for t in m.tiles}
    count = 0
    for meld in table:
        originals = {t for t in meld.tiles if not t.is_joker}
        for joker in meld.jokers:
            options = (
                meld.joker_options(joker)
                if meld.kind is MeldKind.GROUP
                else (meld.faces[meld.tiles.index(joker)],)
            )
            now = where[joker]
            face = now.faces[now.tiles.index(joker)]
            fits = any(
                face.number == o.number and (face.color is None or face.color == o.color)
                for o in options
            )
            count += not (fits and originals & set(now.tiles))
    return count


Shape = tuple[MeldKind, int, frozenset[FaceKey]]


def _shapes(supply: Counter[FaceKey], jokers: int) -> list[Shape]:
    """Every run window and group of colours a slot can take: at least one place with a real
    tile to fill it, and at most ``jokers`` places without."""
    out: list[Shape] = []

    def fits(faces: list[FaceKey]) -> bool:
        reals = sum(1 for f in faces if supply[f])
        return reals > 0 and len(faces) - reals <= jokers

    for c in range(4):
        for lo in range(1, 12):
            for hi in range(lo + 2, 14):
                faces = [(c, n) for n in range(lo, hi + 1)]
                if fits(faces):
                    out.append((MeldKind.RUN, c, frozenset(faces)))
    for n in range(1, 14):
        for size in (3, 4):
            for cols in itertools.combinations(range(4), size):
                faces = [(c, n) for c in cols]
                if fits(faces):
                    out.append((MeldKind.GROUP, n, frozenset(faces)))
    return out


@dataclass
class _TableJoker:
    tile: Tile
    origin: int  # index of its starting set
    options: frozenset[FaceKey]  # faces a real tile must show to replace it
    number: int  # the number of those faces


def _table_jokers(table: Sequence[Meld]) -> list[_TableJoker]:
    out = []
    for o, meld in enumerate(table):
        for joker in meld.jokers:
            if meld.kind is MeldKind.GROUP:
                faces = meld.joker_options(joker)
            else:
                faces = (meld.faces[meld.tiles.index(joker)],)
            keys = frozenset((COLORS.index(f.color), f.number) for f in faces if f.color)
            out.append(_TableJoker(joker, o, keys, faces[0].number))
    return out


def _melded(
    table: Sequence[Meld], rack: Sequence[Tile], objective: str, time_limit: float
) -> Exact:
    jokers = _table_jokers(table)
    n_jokers = len(jokers)
    # Real table tiles by (face, starting set): a set never holds two tiles of one face.
    origin_tile: dict[tuple[FaceKey, int], Tile] = {}
    for o, meld in enumerate(table):
        for t in meld.tiles:
            if not t.is_joker:
                assert (_key(t), o) not in origin_tile
                origin_tile[(_key(t), o)] = t
    origins_of: dict[FaceKey, list[int]] = {}
    for f, o in origin_tile:
        origins_of.setdefault(f, []).append(o)
    rack_count: Counter[FaceKey] = Counter(_key(t) for t in rack if not t.is_joker)
    rack_jokers = sum(1 for t in rack if t.is_joker)
    w_joker = weights(objective, False, 0, True)
    supply = Counter({f: len(os) for f, os in origins_of.items()}) + rack_count

    p = _Program()
    # Ordinary sets: counts of face patterns.
    patterns = _patterns(supply, rack_jokers, 5 if rack_jokers <= 2 else 13)
    x = [p.var(hi=4) for _ in patterns]
    to_ordinary = {key: p.var() for key in origin_tile}
    rack_ordinary = {
        f: p.var(hi=k, cost=-weights(objective, False, f[1], False)) for f, k in rack_count.items()
    }
    jokers_ordinary = p.var(hi=rack_jokers, cost=-w_joker)
    # The slots: explicit sets for the table jokers and their witnesses.
    n_slots = 2 * n_jokers
    shapes = _shapes(supply, n_jokers + rack_jokers)
    shape = [[p.var() for _ in shapes] for _ in range(n_slots)]
    occ = [{f: p.var() for f in FACES} for _ in range(n_slots)]
    # fill[k][f]: source -> column; sources ("T", o), ("R",), ("J", j), ("X",)
    fill: list[dict[FaceKey, dict[tuple[object, ...], int]]] = []
    for k in range(n_slots):
        by_face: dict[FaceKey, dict[tuple[object, ...], int]] = {}
        for f in FACES:
            src: dict[tuple[object, ...], int] = {}
            for o in origins_of.get(f, []):
                src[("T", o)] = p.var()
            if rack_count[f]:
                src[("R",)] = p.var(cost=-weights(objective, False, f[1], False))
            if k < n_jokers:
                for j in range(k, n_jokers):  # joker j in slots 0..j (slots are interchangeable)
                    src[("J", j)] = p.var()
            if rack_jokers:
                src[("X",)] = p.var(cost=-w_joker)
            by_face[f] = src
        fill.append(by_face)
    ret = [p.var() for _ in jokers]
    witness = [[p.var() for _ in range(n_slots)] for _ in jokers]
    replace = [[{f: p.var() for f in sorted(jk.options)} for _ in range(n_slots)] for jk in jokers]

    # Conservation.
    for f in supply:
        terms = [(x[i], pat.count(f)) for i, pat in enumerate(patterns)]
        terms += [(to_ordinary[(f, o)], -1) for o in origins_of.get(f, [])]
        if f in rack_ordinary:
            terms.append((rack_ordinary[f], -1))
        p.row(terms, 0, 0)
    p.row(
        [(x[i], pat.count("J")) for i, pat in enumerate(patterns)] + [(jokers_ordinary, -1)], 0, 0
    )
    for (f, o), col in to_ordinary.items():
        p.row([(col, 1)] + [(fill[k][f][("T", o)], 1) for k in range(n_slots)], 1, 1)
    for f, col in rack_ordinary.items():
        p.row([(col, 1)] + [(fill[k][f][("R",)], 1) for k in range(n_slots)], 0, rack_count[f])
    p.row(
        [(jokers_ordinary, 1)]
        + [(fill[k][f][("X",)], 1) for k in range(n_slots) for f in FACES if ("X",) in fill[k][f]],
        0,
        rack_jokers,
    )
    for j in range(n_jokers):
        p.row([(fill[k][f][("J", j)], 1) for k in range(j + 1) for f in FACES], 1, 1)
    played = [(col, 1) for col in rack_ordinary.values()] + [(jokers_ordinary, 1)]
    played += [
        (fill[k][f][s], 1)
        for k in range(n_slots)
        for f in FACES
        for s in (("R",), ("X",))
        if s in fill[k][f]
    ]
    p.row(played, 1, INF)

    # Each slot is empty or one shape: a run of one colour or a group of one number.
    def groups_of(k: int, number: int, size: int = 0) -> list[tuple[int, int]]:
        return [
            (shape[k][i], 1)
            for i, (kind, n, cols) in enumerate(shapes)
            if kind is MeldKind.GROUP and n == number and size in (0, len(cols))
        ]

    def fours(k: int) -> list[tuple[int, int]]:
        return [(col, c) for n in range(1, 14) for col, c in groups_of(k, n, 4)]

    for k in range(n_slots):
        used = [(col, 1) for col in shape[k]]
        p.row(used, 0, 1)
        for f in FACES:
            cover = [(shape[k][i], -1) for i, (_, _, faces) in enumerate(shapes) if f in faces]
            p.row([(occ[k][f], 1), *cover], 0, 0)
            p.row([(col, 1) for col in fill[k][f].values()] + [(occ[k][f], -1)], 0, 0)
        reals = [(col, 1) for f in FACES for s, col in fill[k][f].items() if s[0] in ("T", "R")]
        p.row(reals + [(col, -1) for col, _ in used], 0, INF)
        if k < n_jokers:
            # A joker slot holds a table joker; a witness slot serves a joker's witness.
            holds = [(fill[k][f][("J", j)], -1) for j in range(k, n_jokers) for f in FACES]
            p.row(used + holds, -INF, 0)
        else:
            served = [(witness[j][k], -1) for j in range(k - n_jokers, n_jokers)]
            p.row(used + served, -INF, 0)

    def neg(terms: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(col, -a) for col, a in terms]

    def slot_jokers(k: int) -> list[tuple[int, int]]:
        return [(col, 1) for f in FACES for s, col in fill[k][f].items() if s[0] in ("J", "X")]

    def in_slot(j: int, k: int) -> list[tuple[int, int]]:
        if k >= n_jokers or k > j:
            return []
        return [(fill[k][f][("J", j)], 1) for f in FACES]

    def originals_in(o: int, k: int) -> list[tuple[int, int]]:
        return [(fill[k][f][("T", o)], 1) for (f, oo) in origin_tile if oo == o]

    for j, jk in enumerate(jokers):
        for k in range(n_slots):
            here = in_slot(j, k)
            if here:
                # Staying: a real tile of its starting set is in its set...
                p.row(
                    originals_in(jk.origin, k) + [(c, -a) for c, a in here] + [(ret[j], 1)], 0, INF
                )
                # ...and it stands for a face it could stand for before.
                for f in FACES:
                    col = fill[k][f][("J", j)]
                    if f in jk.options:
                        continue
                    if f[1] != jk.number:
                        p.row([(col, 1), (ret[j], -1)], -INF, 0)
                        continue
                    # Only as "a missing colour" of a group of that number.
                    p.row([(col, 1), (ret[j], -1), *neg(groups_of(k, f[1]))], -INF, 0)
                    lone = [*fours(k), *neg(slot_jokers(k))]
                    p.row([(col, 1), (ret[j], -1), *lone], -INF, 0)
            # Retrieved: a witness set with a real tile of its starting set and a replacement.
            if k - n_jokers > j:  # witness sets without a table joker, in order of use
                p.row([(witness[j][k], 1)], 0, 0)
            p.row([*originals_in(jk.origin, k), (witness[j][k], -1)], 0, INF)
            for f, col in replace[j][k].items():
                real = [
                    (c, -1)
                    for s, c in fill[k][f].items()
                    if s[0] in ("T", "R") and s != ("T", jk.origin)
                ]
                p.row([(col, 1), *real], -INF, 0)
            p.row([(c, 1) for c in replace[j][k].values()] + [(witness[j][k], -1)], 0, 0)
            # ...and its set is new: it holds not every other tile of any starting set.
            if here:
                for o, meld in enumerate(table):
                    rest = [t for t in meld.tiles if t != jk.tile]
                    if not rest:
                        continue
                    size_rest = len(rest)
                    terms = originals_in(o, k)
                    for j2, other in enumerate(jokers):
                        if other.origin == o and j2 != j:
                            terms += in_slot(j2, k)
                    terms += [(ret[j], size_rest)] + [(c, size_rest) for c, _ in here]
                    p.row(terms, -INF, 3 * size_rest - 1)
        p.row([(c, 1) for c in witness[j]] + [(ret[j], -1)], 0, 0)
    # One real tile frees one joker, across the whole table (a set holds one tile of a face,
    # so the tile of face f in slot k replaces at most one joker, whatever set it came from).
    if len(jokers) > 1:
        for k in range(n_slots):
            for f in FACES:
                terms = [(replace[j][k][f], 1) for j in range(len(jokers)) if f in replace[j][k]]
                if len(terms) > 1:
                    p.row(terms, 0, 1)

    res = p.solve(time_limit)
    if res.x is None:
        if res.status == 2:  # infeasible: no rack tile can be played
            return Exact(0, 0, True, None)
        return Exact(0, _bound(res), False, None)
    value = np.round(res.x).astype(int)

    # The table: slots first (they pick their rack copies), then the ordinary sets.
    pools = _pools(rack)
    final: list[Meld] = []
    for k in range(n_slots):
        cells = [(f, s) for f in FACES for s, col in fill[k][f].items() if value[col]]
        if not cells:
            continue
        tiles: list[Tile] = []
        for f, s in cells:
            if s[0] == "T":
                tiles.append(origin_tile[(f, s[1])])  # type: ignore[index]
            elif s[0] == "R":
                tiles.append(pools[f].pop())
            elif s[0] == "J":
                tiles.append(jokers[s[1]].tile)  # type: ignore[index]
            else:
                tiles.append(pools["J"].pop())
        kind = next(shapes[i][0] for i, col in enumerate(shape[k]) if value[col])
        if kind is MeldKind.RUN:
            pins = {
                i: Face(COLORS[f[0]], f[1]) for i, (f, _) in enumerate(cells) if tiles[i].is_joker
            }
            order = sorted(range(len(cells)), key=lambda i: cells[i][0][1])
            tiles = [tiles[i] for i in order]
            pins = {order.index(i): face for i, face in pins.items()}
            final.append(Meld.build(tiles, pins, MeldKind.RUN))
        else:
            final.append(Meld.build(tiles, None, MeldKind.GROUP))
    for (f, _o), col in to_ordinary.items():
        if value[col]:
            pools.setdefault(f, []).append(origin_tile[(f, _o)])
    # Rack copies the ordinary sets do not use are dropped from the pools.
    for f, col in rack_ordinary.items():
        table_copies = sum(value[to_ordinary[(f, o)]] for o in origins_of.get(f, []))
        keep = value[col]
        rack_left = [t for t in pools.get(f, []) if t in set(rack)]
        on_table = [t for t in pools.get(f, []) if t not in set(rack)]
        assert len(on_table) == table_copies
        pools[f] = rack_left[:keep] + on_table
    pools["J"] = pools.get("J", [])[: value[jokers_ordinary]]
    for i, pat in enumerate(patterns):
        for _ in range(value[x[i]]):
            final.append(_lay_out(pat, pools))
    return _finish(table, rack, final, objective, True, 30, res)
