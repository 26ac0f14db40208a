"""Joker retrieval: every way of freeing table jokers with a tile of a face they stand for,
each searched as the same table with the joker locked in place, its replacement out of the
supply and a stand-in joker that must be placed (docs/solver.md, "The model")."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple, cast

from engine.melds import Meld, MeldKind
from engine.rules import joker_problem
from engine.solver.drive import _finish, _optimum, _settle
from engine.solver.model import (
    _CID,
    _NEG,
    _STAND_IN_COPY,
    Take,
    Trial,
    _placed_score,
    _tile_score,
)
from engine.solver.newset import _in_new_set, _legal
from engine.solver.rebuild import _order
from engine.solver.share import Sharing
from engine.tiles import (
    COLORS,
    Face,
    Tile,
)

# -- joker retrieval -----------------------------------------------------------------------------
#
# A table joker may stay (the search locks it in its place) or be taken back: a real tile of a
# face it stands for goes into its set (in a set with a real tile of its original set), and the
# joker goes into a new set. In faces that is the locked joker's place filled by a real tile,
# and one more free joker on the table: so each retrieval is searched as the same table with
# the joker locked where it is, one real tile of its face taken out of the supply (from another
# set when the table has one, else from the rack), and a stand-in joker that must be placed.
# The stand-in's place is the joker's new place and the locked joker's place is the tile's.


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
) -> list[Trial]:
    """Every way of taking back some of the table jokers with tiles that are there: each freed
    joker's replacement face, the tile from another set when the table has one (that is never
    worse than the rack's copy: the two can trade places), else from the rack. With two or more
    freed jokers, also the ways that take the replacements from the other freed jokers' sets
    where they can (all of them, or one of them first): there a replacement witnesses that
    set's joker too when both end in one set (``mates``)."""
    jokers = _joker_faces(table)
    choices: list[list[Face | None]] = [[None, *faces] for _, _, faces in jokers]
    trials: list[Trial] = []
    for combo in itertools.product(*choices):
        if all(face is None for face in combo):
            continue
        freed = frozenset(
            index for (index, _, _), face in zip(jokers, combo, strict=True) if face is not None
        )
        ways: list[tuple[Take, ...]] = []
        prefers: list[frozenset[int]] = [frozenset()]
        if len(freed) > 1:
            prefers += [freed, *(frozenset({index}) for index in sorted(freed))]
        for prefer in prefers:
            used: set[int] = set()
            takes: list[Take] = []
            for (index, joker, _), face in zip(jokers, combo, strict=True):
                if face is None:
                    continue
                take = _replacement(table, optional, required, index, joker, face, used, prefer)
                if take is None:
                    break
                takes.append(take)
            else:
                if tuple(takes) not in ways:
                    ways.append(tuple(takes))
        trials.extend(_trial(table, optional, required, way, objective) for way in ways)
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
    prefer: frozenset[int] = frozenset(),
) -> Take | None:
    """A tile of ``face`` not yet used: from a set in ``prefer`` first, then a set without
    jokers, then any other set, then the rack (required tiles first)."""
    candidates: list[tuple[int, int, Tile]] = []
    for home, meld in enumerate(table):
        if home == index:
            continue
        rank = -1 if home in prefer else 1 if meld.jokers else 0
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
    return Take(joker, index, face, tile, home)


def _trial(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    takes: tuple[Take, ...],
    objective: str,
) -> Trial:
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
    return Trial(
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
        _mates(table, takes),
    )


def _mates(table: Sequence[Meld], takes: Sequence[Take]) -> dict[int, frozenset[int]]:
    """Per table joker, the freed jokers of the same kind of set (run or group) whose
    replacement tile comes from its set: that tile, in the freed joker's place, witnesses it
    when both end in one set (``Locked.mates`` for groups, ``Locked.witnessing`` for runs)."""
    out: dict[int, set[int]] = {}
    for take in takes:
        if take.home >= 0 and table[take.home].kind is table[take.meld_index].kind:
            for joker in table[take.home].jokers:
                out.setdefault(id(joker), set()).add(id(take.joker))
    return {k: frozenset(v) for k, v in out.items()}


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
    prefer: bool | None = None,
) -> list[Meld] | None:
    """The best table that takes back table jokers, if it beats ``have`` (the score without
    retrieval; None: no play) and the engine's joker rule accepts it; None otherwise.
    ``prefer``: the reading of the numbers its searches start with (``_optimum``)."""
    trials = _trials(table, optional, required, cast(str, options["objective"]))
    if not trials:
        return None
    # The trials differ from each other only at a few numbers: they share one memo.
    with Sharing():
        return _best_trial(
            table, optional, required, options, have, minimal_change, origin, prefer, trials
        )


def _best_trial(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    have: int | None,
    minimal_change: bool,
    origin: dict[int, int],
    prefer: bool | None,
    trials: list[Trial],
) -> list[Meld] | None:
    objective = cast(str, options["objective"])
    joker_score = _tile_score(Tile.joker(), objective)
    # With several trials and one free joker only (``_roams_alone``), an upper bound first: the
    # search with the table joker free to go anywhere (but staying on the table) allows every
    # legal turn. If even that cannot beat ``have``, no retrieval can; once a retrieval reaches
    # it, no other can do better; and when the joker rule accepts its own table, that table is
    # the optimum and no trial runs. (A single trial goes without it: it can cost more than
    # that trial.)
    ceiling = _NEG
    roam: Roam | None = None
    if len(trials) > 1 and _roams_alone(table, optional, required):
        roam = _roam(table, optional, required, options, origin, have, prefer)
        if roam is None:
            return None
        if roam.table is not None and not minimal_change:
            return roam.table
        ceiling = roam.ceiling
        # The roaming table hints which replacements work: first the ways (with as many jokers
        # freed) whose replacement faces it shows beside their jokers' original tiles, so that a
        # good score comes early and the other searches stop at their bounds sooner.
        trials.sort(key=lambda trial: (-len(trial.takes), -_agrees(table, trial, roam.melds)))
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
            # Even every rack tile left and the freed jokers placed would not beat ``have``:
            # no search (a fifth to a quarter of the trials on the benchmark's suites).
            most = freed * joker_score + sum(_tile_score(t, objective) for t in trial.optional)
            if most < target:
                continue
        here = {
            **options,
            "banned": trial.banned,
            "witnesses": trial.witnesses,
            "mates": trial.mates,
        }
        found = _optimum(
            trial.table,
            trial.optional,
            trial.required,
            target=target,
            prefer=prefer,
            **here,  # type: ignore[arg-type]
        )
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
    if roam is not None and roam.table is not None and (have is None or have < roam.ceiling):
        return roam.table  # (with ``minimal_change``, when no settled trial reached the bound)
    return best


def _roams_alone(table: Sequence[Meld], optional: Sequence[Tile], required: Sequence[Tile]) -> bool:
    """Whether the roaming bound is worth its search: only with one table joker and none on
    the rack. With two free jokers or more every rack tile counts towards its bound, so it
    costs more than the trials it could spare (issue 27: on the mid-game suite it was 27% of
    the nodes; without it there the nodes fall 18%, the worst position's by 40%)."""
    if sum(len(m.jokers) for m in table) != 1:
        return False
    return not any(t.color is None for t in optional) and not any(t.color is None for t in required)


class Roam(NamedTuple):
    """The optimum with every table joker free to go anywhere on the table (an upper bound on
    every legal turn, as a score of rack tiles) and its table, if the engine's joker rule
    accepts it with some order of the table jokers (then it is the optimum); else None.
    ``melds``: its sets either way."""

    ceiling: int
    table: list[Meld] | None
    melds: list[Meld]


def _agrees(table: Sequence[Meld], trial: Trial, melds: Sequence[Meld]) -> int:
    """How many of the trial's replacement faces ``melds`` show in a set beside a face of
    a real tile of their joker's original set."""
    count = 0
    for take in trial.takes:
        own = {t.face for t in table[take.meld_index].tiles if t.color is not None}
        count += any(
            take.face in faces and not own.isdisjoint(faces)
            for faces in ({t.face for t in m.tiles if t.color is not None} for m in melds)
        )
    return count


def _roam(
    table: Sequence[Meld],
    optional: Sequence[Tile],
    required: Sequence[Tile],
    options: dict[str, object],
    origin: dict[int, int],
    have: int | None,
    prefer: bool | None = None,
) -> Roam | None:
    """One search with the table jokers roaming, aimed at beating ``have`` (the best with
    them in place; None: no play); None when even that does not beat it, so no retrieval can.
    It is exact when it does, so a table the joker rule accepts is then the optimum."""
    joker_score = _tile_score(Tile.joker(), cast(str, options["objective"]))
    loose = []
    for meld in table:
        reals = tuple(t for t in meld.tiles if t.color is not None)
        loose.append(Meld(reals, tuple(t.face for t in reals), meld.kind))
    table_jokers = [t for m in table for t in m.jokers]
    need = 1 if have is None else have + 1
    target = None if required else need + len(table_jokers) * joker_score
    found = _optimum(
        loose,
        optional,
        [*required, *table_jokers],
        target=target,
        prefer=prefer,
        **options,  # type: ignore[arg-type]
    )
    if found is None:
        return None
    ceiling = found.score - len(table_jokers) * joker_score
    if ceiling < need and not required:
        return None
    melds = _finish(found.way, loose)
    # The search does not tell the table jokers apart: try each order of them in its places.
    for order in itertools.islice(itertools.permutations(table_jokers), 24):
        swap = {id(a): b for a, b in zip(table_jokers, order, strict=True)}
        final = [
            Meld(tuple(swap.get(id(t), t) for t in m.tiles), m.faces, m.kind)
            if any(id(t) in swap for t in m.tiles)
            else m
            for m in melds
        ]
        if joker_problem(table, final, melded_before=True) is None:
            return Roam(ceiling, _order(table, final, origin), melds)
    return Roam(ceiling, None, melds)
