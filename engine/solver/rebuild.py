"""From the search's sets of faces back to melds of physical tiles: deferred jokers added,
long runs cut back into starting runs, groups re-split, copies chosen so that starting sets
stay whole, and the kept/moved metrics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from engine.melds import Meld, MeldKind
from engine.solver.groups import _plain_exact, _plain_plan, _plan_groups
from engine.solver.model import _CID, _FACES, FREE, REAL, Cell, FaceSet, Locked, Model
from engine.tiles import (
    Tile,
)

# -- keeping table sets as they were -------------------------------------------------------------


_KIND = {"R": 0, "F": 1, "L": 2}
# The number and colour part of a signature item, by the identity of a shared face.
# The mirrored face (number 14 - n) of a shared face, by identity.
_FLIP_ID = {id(f): _FACES[c][14 - f.number] for c, row in enumerate(_FACES) for f in row}
_FCODE = {id(f): (f.number << 12) | (_CID[id(f.color)] << 9) for row in _FACES for f in row}


class Assignment(NamedTuple):
    """The physical tiles chosen for each set's cells, and per set the index of the starting set
    it equals (-1: none)."""

    chosen: list[list[Tile | None]]
    whole: list[int]


class Metrics(NamedTuple):
    """How much of the table a solution leaves alone: starting sets still whole, and table
    tiles that left the biggest part of their starting set."""

    kept: int
    moved: int


def _attach(sets: list[FaceSet], jokers: int, avoid: Counter[tuple[int, ...]]) -> bool:
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
                items.append((_FACES[4][low.number], FREE))
                jokers -= 1
            continue
        faces = _FACES[_CID[id(low.color)] - 1]
        top = high.number
        while jokers and top < 13:
            top += 1
            items.append((faces[top], FREE))
            jokers -= 1
        bottom = low.number
        while jokers and bottom > 1:
            bottom -= 1
            items.insert(0, (faces[bottom], FREE))
            jokers -= 1
    return jokers == 0


def _tile_key(tile: Tile) -> tuple[int, int, int]:
    """``Tile.sort_key()`` without hashing the colour (colour, number, copy; jokers last)."""
    c = _CID[id(tile.color)]
    return (c - 1, tile.number, tile.copy) if c else (99, 99, tile.copy)


def _signature(items: Iterable[Cell]) -> tuple[int, ...]:
    """What a set is made of, up to which physical copy of a face is used: one int per item
    (number, colour, real / free joker / which table joker). The faces are the shared ones of
    ``_FACES``."""
    fcode = _FCODE
    kind = _KIND
    return tuple(sorted([fcode[id(f)] | (kind[it[0]] << 7) | it[1] for f, it in items]))


def _table_signatures(table: Sequence[Meld], model: Model) -> list[tuple[int, ...]]:
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


def _run_piece_ok(piece: FaceSet, info: Sequence[Locked]) -> bool:
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
    sets: list[FaceSet], targets: dict[tuple[int, ...], int], info: Sequence[Locked]
) -> list[FaceSet]:
    """Cut long runs where the cut gives back a table run exactly (R1-R6 -> R1-R3 / R4-R6)."""
    out: list[FaceSet] = []
    for run in sets:
        if len(run) < 6 or run[0][0].color is None or run[0][0] is run[1][0]:
            out.append(run)
            continue
        size = len(run)
        # best[i]: (matches, pieces) for run[:i]
        best: list[tuple[int, list[FaceSet]] | None] = [None] * (size + 1)
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
    sets: list[FaceSet], table: Sequence[Meld], model: Model, targets: dict[tuple[int, ...], int]
) -> list[FaceSet]:
    """Re-split each number's groups so that table groups come back unchanged where possible
    (a number with no starting group, or whose groups all equal starting groups, is left as
    the search planned it)."""
    by_number: dict[int, list[FaceSet]] = {}
    others: list[FaceSet] = []
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
        carved: list[FaceSet] = []
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
                [(_FACES[c][n], REAL) for c in cols] + [(_FACES[4][n], ("L", j)) for j in lks]
            )
        plan = _plan_groups(g, free, locked, model.locked) if locked else _plain_plan(g, free)
        if plan is None:  # cannot happen: every carve was checked
            out.extend(groups)
            continue
        out.extend(carved)
        for colours, lk, nf in plan:
            out.append(
                [(_FACES[c][n], REAL) for c in colours]
                + [(_FACES[4][n], ("L", j)) for j in lk]
                + [(_FACES[4][n], FREE)] * nf
            )
    return out


# -- physical tiles ------------------------------------------------------------------------------


def _mated(cells: FaceSet, j: int, model: Model) -> bool:
    """Whether another locked joker's place in ``cells`` holds a tile of locked joker ``j``'s
    original set (a freed joker whose replacement came from there: ``Locked.witnessing``)."""
    return any(
        it[0] == "L" and it[1] != j and model.locked[it[1]].witnessing >> j & 1 for _, it in cells
    )


def _assign(
    sets: list[FaceSet],
    table: Sequence[Meld],
    sigs: Sequence[tuple[int, ...]],
    model: Model,
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
            if info.kind is MeldKind.RUN and model.marks and _mated(s, it[1], model):
                # A freed joker's place in this run holds a tile of its original set.
                candidates = []
            elif info.kind is MeldKind.RUN:
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
    return Assignment(chosen, whole)


def _build(
    items: FaceSet, tiles: Sequence[Tile | None], back: dict[int, Tile] | None = None
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
    return Metrics(kept, moved)


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
