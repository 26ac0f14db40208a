"""The new set a freed joker needs: the search does not see which physical copy is which, so
its table may put a freed joker onto an old set. These repairs make such a table legal, or
choose the joker's new set first and search the rest around it (docs/solver.md, "The new
set")."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import cast

from engine.errors import InvalidMeldError
from engine.melds import Meld, MeldKind
from engine.rules import joker_problem
from engine.solver.drive import _finish, _optimum
from engine.solver.model import _CID, Trial, _placed_score, _tile_score
from engine.solver.rebuild import _tile_key
from engine.tiles import (
    COLORS,
    Face,
    Tile,
)


def _in_new_set(
    table: Sequence[Meld],
    trial: Trial,
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
    table: Sequence[Meld], melds: Sequence[Meld], trial: Trial, remnants: set[int]
) -> list[Meld] | None:
    """The search's sets for ``trial`` as a table the joker rule accepts, or None."""
    final = _swapped(melds, trial, remnants)
    if final is not None and joker_problem(table, final, melded_before=True) is not None:
        final = _traded(table, final, trial) or _repaired(
            table, final, [take.joker for take in trial.takes]
        )
    return final


def _traded(table: Sequence[Meld], final: list[Meld], trial: Trial) -> list[Meld] | None:
    """The table with a replacement tile taken from a set traded with another copy of its face
    elsewhere, if the joker rule then accepts it: the search counts a copy of that face beside
    a joker of the set it came from as a tile of that set, and the copies can trade places
    (the original goes back beside the joker, the other into the freed joker's place)."""
    for take in trial.takes:
        tile = take.tile
        if take.home < 0:
            continue
        at = next((i for i, m in enumerate(final) if tile in m.tiles), -1)
        if at < 0:
            continue
        for j, meld in enumerate(final):
            if j == at:
                continue
            for other in meld.tiles:
                if other.color is not tile.color or other.number != tile.number:
                    continue
                trade = {id(tile): other, id(other): tile}
                traded = list(final)
                for k in (at, j):
                    traded[k] = _with(final[k], trade)
                if joker_problem(table, traded, melded_before=True) is None:
                    return traded
    return None


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


def _swapped(melds: Sequence[Meld], trial: Trial, remnants: set[int]) -> list[Meld] | None:
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
        try:
            out.append(_with(meld, swap))
        except InvalidMeldError:
            return None
    return out


def _with(meld: Meld, swap: dict[int, Tile]) -> Meld:
    """``meld`` with tiles put in for others (``swap``, by id) on the same faces, built as
    ``Meld.build`` orders it (jokers pinned to their faces)."""
    tiles = [swap.get(id(t), t) for t in meld.tiles]
    pins = {
        i: face
        for i, (tile, face) in enumerate(zip(tiles, meld.faces, strict=True))
        if tile.color is None
    }
    return Meld.build(tiles, pins, meld.kind)
