"""``auto`` and the plan behind ``hint``: the best legal turn from where the draft is.

The draft is a value that knows no solver; this layer asks ``engine.solver.solve`` and turns
its answer into a resolved ``Auto`` step (the table by meld number) that the draft applies and
records, so a stored draft replays without asking the solver again.

Tiles the player laid from the rack this turn are still theirs: a plan keeps them on the table
when any legal turn does, and otherwise takes back what it must (``Plan.taken_back``). The tries,
in order (earlier ones change the draft less and win ties):

* the draft itself, and the draft as it stands as a table (after the initial meld);
* the start of the turn: the best play, and the tiles already played (with the ``wanted`` ones)
  required; after the initial meld also with one table joker swapped out for a real tile;
* when none of those keeps what was played: completions, the played tiles with a few rack tiles
  that fit them (the same number, the same colour close by, a joker), each then grown by
  solving again with it as the table; and the same for what is left after taking back the
  tiles of one draft meld.

Every answer is judged by :func:`engine.rules.turn_problems` from the start of the turn, the
same check ``done`` makes, before it is used.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from engine.actions import Auto
from engine.draft import ON_RACK, Draft
from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld, MeldKind
from engine.rules import turn_problems
from engine.solver import Solution, solve
from engine.tiles import Tile, sort_tiles, tiles_text

_PARTNERS = 10
"""How many rack tiles near the played ones a completion may draw on."""

_COMPLETION = 3
"""The most rack tiles a completion adds to the played ones."""

_BUDGET = 240
"""The most solver calls completions may make for one plan."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A legal final table for the turn, the rack tiles (of the start of the turn) it places,
    and the tiles laid this turn that it takes back to the rack (empty: it keeps them all)."""

    melds: tuple[Meld, ...]
    placed: frozenset[Tile]
    taken_back: tuple[Tile, ...]


def best_plan(draft: Draft, wanted: Sequence[Tile] | None = None) -> Plan | None:
    """The best legal turn from where the draft is: keeping the tiles already played if any
    legal turn does, the most rack tiles, the fewest changes; with ``wanted`` exactly the tiles
    already played and those. None when no legal turn places a rack tile."""
    judge = _Judge(draft, wanted)
    for melds in _tries(draft, wanted):
        judge.offer(melds)
    played = list(draft.played)
    best = judge.best
    if best is None or wanted or not played:
        return best  # no legal turn at all, or nothing laid this turn to keep
    if best.taken_back:
        budget = _Budget(_BUDGET)
        for melds in _completions(draft, played, budget):
            judge.offer(melds)
        groups = _played_by_meld(draft)
        if judge.best is not None and judge.best.taken_back and len(groups) > 1:
            for group in sorted(groups, key=len):  # take back as little as possible
                rest = [t for t in played if t not in group]
                for melds in _completions(draft, rest, budget):
                    judge.offer(melds)
    elif len(best.placed) < judge.most:
        for melds in _grown(draft, list(best.melds)):
            judge.offer(melds)
    return judge.best


def resolve(draft: Draft, action: Auto) -> Auto:
    """``action`` with its answer: the table by meld number that the draft is to show (raises
    ``IllegalMoveError`` saying what can be placed instead when there is no answer)."""
    if action.layout is not None:
        return action
    state = draft.state
    wanted = draft.take(action.tiles, [*state.held, *state.rack], ON_RACK)
    plan = best_plan(draft, wanted or None)
    if plan is None:
        raise _refusal(draft, wanted)
    layout = tuple(slot.tokens() for slot in draft.layout_of(plan.melds))
    return replace(action, layout=layout)


# ----- judging the tries ----------------------------------------------------------------------


class _Judge:
    """Keeps the best legal answer offered: most played tiles kept, then most rack tiles
    placed, then the first offered."""

    def __init__(self, draft: Draft, wanted: Sequence[Tile] | None) -> None:
        self.draft = draft
        self.rack = set(draft.base_rack)
        self.played = set(draft.played)
        self.wanted = set(wanted or ())
        self.best: Plan | None = None
        self.key: tuple[int, int] = (-1, -1)
        self.most = 0  # the most rack tiles any legal answer offered placed, kept or not

    def offer(self, melds: Sequence[Meld]) -> None:
        melds = _prefer_played(list(melds), self.played, self.rack)
        on_table = {t for m in melds for t in m.tiles}
        if self.wanted and not (self.wanted | self.played) <= on_table:
            return
        if not _legal(self.draft, melds):
            return
        placed = frozenset(self.rack & on_table)
        self.most = max(self.most, len(placed))
        kept = len(self.played & on_table)
        if (kept, len(placed)) > self.key:
            back = tuple(t for t in self.draft.base_rack if t in self.played - on_table)
            self.best = Plan(tuple(melds), placed, back)
            self.key = (kept, len(placed))


def _legal(draft: Draft, final: Sequence[Meld]) -> bool:
    return not turn_problems(
        draft.base_table,
        draft.base_rack,
        final,
        melded_before=draft.melded_before,
        threshold=draft.game.rules.opening_threshold,
    )


def _melds(found: Solution | None) -> list[list[Meld]]:
    return [] if found is None else [list(found.melds)]


def _tries(draft: Draft, wanted: Sequence[Tile] | None) -> Iterator[list[Meld]]:
    """Final tables the solver offers from the draft, from the start, and from the start with
    one joker retrieved (each may still be illegal; the judge checks)."""
    start, rack = list(draft.base_table), list(draft.base_rack)
    opening = not draft.melded_before
    threshold = draft.game.rules.opening_threshold
    played = set(draft.played)
    wanted_set = set(wanted or ())
    required = [t for t in rack if t in played or t in wanted_set]
    valid = all(slot.error_message() is None for slot in draft.slots)
    # 0. The draft itself, when it is a whole table (it may already be the best turn).
    if valid and not draft.held:
        yield draft.melds()
    # 1. From the draft as it stands (keeps the player's rearrangement).
    if not opening and valid:
        table = draft.melds()
        pool = list(draft.rack) + list(draft.held)
        if wanted:
            held = [j for j in draft.held if j not in wanted_set]
            yield from _melds(solve(table, pool, must_place=[*wanted, *held]))
        else:
            yield from _melds(solve(table, pool))
            if draft.held:
                yield from _melds(solve(table, pool, must_place=list(draft.held)))
    # 2. From the start of the turn, the tiles already played (and the wanted ones) required.
    if wanted:
        yield from _melds(
            solve(start, rack, opening=opening, threshold=threshold, must_place=required)
        )
    else:
        yield from _melds(solve(start, rack, opening=opening, threshold=threshold))
        if played:
            yield from _melds(
                solve(start, rack, opening=opening, threshold=threshold, must_place=required)
            )
    # 3. From the start with one table joker taken by a real tile from the rack or the table.
    if not opening:
        for swapped, pool, used in _swaps(start, rack):
            joker = next(t for t in pool if t.is_joker and t not in rack)
            if wanted:
                must = [t for t in required if t != used] + [joker]
                yield from _melds(solve(swapped, pool, must_place=must))
            else:
                yield from _melds(solve(swapped, pool))


def _swaps(
    table: Sequence[Meld], rack: Sequence[Tile]
) -> list[tuple[list[Meld], list[Tile], Tile | None]]:
    """Each table with one joker replaced by a real tile of a face it stands for, with the rack
    that then holds the joker, and the rack tile used (None when it came from the table)."""
    out: list[tuple[list[Meld], list[Tile], Tile | None]] = []
    for k, meld in enumerate(table):
        for joker in meld.jokers:
            options = meld.joker_options(joker)
            seen: set[tuple[object, int, int]] = set()
            sources: list[tuple[Tile, int | None]] = [(t, None) for t in rack]
            sources += [(t, q) for q, m in enumerate(table) if q != k for t in m.tiles]
            for tile, q in sources:
                if tile.is_joker or not any(
                    o.number == tile.number and o.color == tile.color for o in options
                ):
                    continue
                if (tile.color, tile.number, -1 if q is None else q) in seen:
                    continue
                seen.add((tile.color, tile.number, -1 if q is None else q))
                try:
                    kind = meld.kind if meld.kind is MeldKind.RUN else None
                    new = Meld.build([tile if t == joker else t for t in meld.tiles], None, kind)
                    swapped = list(table)
                    swapped[k] = new
                    if q is not None:
                        rest = [t for t in table[q].tiles if t != tile]
                        if not rest:
                            continue
                        swapped[q] = Meld.build(rest)
                except InvalidMeldError:
                    continue
                if q is None:
                    pool = [t for t in rack if t != tile] + [joker]
                    out.append((swapped, pool, tile))
                else:
                    out.append((swapped, [*rack, joker], None))
    return out


def _prefer_played(melds: list[Meld], played: set[Tile], rack: set[Tile]) -> list[Meld]:
    """The same table with the rack copies already played used first: a player cannot tell
    two R9s apart, so a solver that picked the other copy means the same play."""
    on_table = {t for m in melds for t in m.tiles}
    spare: dict[tuple[object, int], list[Tile]] = {}
    for tile in sort_tiles(played - on_table):
        spare.setdefault((tile.color, tile.number), []).append(tile)
    if not spare:
        return melds
    out: list[Meld] = []
    for meld in melds:
        tiles = list(meld.tiles)
        for i, tile in enumerate(tiles):
            key = (tile.color, tile.number)
            if tile in rack and tile not in played and spare.get(key):
                tiles[i] = spare[key].pop()
        if tiles == list(meld.tiles):
            out.append(meld)
        else:
            pins = {
                i: f for i, (t, f) in enumerate(zip(tiles, meld.faces, strict=True)) if t.is_joker
            }
            out.append(Meld.build(tiles, pins, meld.kind))
    return out


# ----- completing what the player laid ------------------------------------------------------


class _Budget:
    """Solver calls left for the completions of one plan."""

    def __init__(self, calls: int) -> None:
        self.left = calls

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _played_by_meld(draft: Draft) -> list[list[Tile]]:
    """The tiles laid this turn, grouped by the draft meld they lie in."""
    played = set(draft.played)
    groups = [[t for t in slot.tiles if t in played] for slot in draft.slots]
    return [group for group in groups if group]


def _partners(
    played: Sequence[Tile], rest: Sequence[Tile], table: Sequence[Meld] = ()
) -> list[Tile]:
    """The rack tiles that could share a set with a played tile, the likeliest first: jokers,
    the same number, the same colour close by, and tiles that could free a table joker."""
    freeing = {face for meld in table for j in meld.jokers for face in meld.joker_options(j)}
    scored: list[tuple[int, tuple[int, int, int], Tile]] = []
    reals = [t for t in played if not t.is_joker]
    for tile in rest:
        if tile.is_joker or not reals:
            scored.append((0, tile.sort_key(), tile))
            continue
        gaps = [1] if tile.face in freeing else []
        for t in reals:
            if t.number == tile.number and t.color != tile.color:
                gaps.append(0)
            elif t.color == tile.color and t.number != tile.number:
                gaps.append(abs(t.number - tile.number))
        if gaps and min(gaps) <= 2:
            scored.append((min(gaps), tile.sort_key(), tile))
    return [tile for _, _, tile in sorted(scored)[:_PARTNERS]]


def _completions(draft: Draft, played: Sequence[Tile], budget: _Budget) -> Iterator[list[Meld]]:
    """Legal-looking tables holding every tile of ``played`` and as few other rack tiles as a
    completion needs, each followed by the tables grown from it: completed one draft meld at a
    time (the tiles found for one kept for the next), else all at once."""
    kept: list[Tile] = []
    found: list[tuple[list[Tile], list[Meld]]] = []
    wanted = set(played)
    groups = [[t for t in group if t in wanted] for group in _played_by_meld(draft)]
    for group in sorted((g for g in groups if g), key=lambda g: _slot_is_valid(draft, g[0])):
        found = _smallest(draft, kept, group, budget)
        if not found:
            break
        kept = found[0][0]
    if not found:
        found = _smallest(draft, [], played, budget)
    for _, melds in found[:3]:
        yield melds
        yield from _grown(draft, melds)


def _slot_is_valid(draft: Draft, tile: Tile) -> bool:
    """False for a tile in a draft meld that is not a valid set (those are completed last)."""
    return not any(tile in slot.tiles and slot.error_message() for slot in draft.slots)


def _smallest(
    draft: Draft, kept: Sequence[Tile], loose: Sequence[Tile], budget: _Budget
) -> list[tuple[list[Tile], list[Meld]]]:
    """The tables the solver finds with every tile of ``kept`` and ``loose`` placed and the
    fewest rack tiles near ``loose`` besides, with the rack tiles each places."""
    start, rack = list(draft.base_table), list(draft.base_rack)
    opening = not draft.melded_before
    threshold = 0 if opening else draft.game.rules.opening_threshold
    taken = {*kept, *loose, *draft.played}  # tiles laid this turn are not spare partners
    table = start if draft.melded_before else []
    partners = _partners(loose, [t for t in rack if t not in taken], table)
    for size in range(_COMPLETION + 1):
        found: list[tuple[list[Tile], list[Meld]]] = []
        for extra in itertools.combinations(partners, size):
            if not budget.spend():
                return found
            must = [*kept, *loose, *extra]
            answer = solve(start, rack, opening=opening, threshold=threshold, must_place=must)
            if answer is not None:
                found.append((must, list(answer.melds)))
        if found:
            return found
    return []


def _grown(draft: Draft, melds: list[Meld]) -> Iterator[list[Meld]]:
    """The tables the solver makes from ``melds`` as a table and the rack tiles it leaves:
    everything in it stays, more is placed (before the initial meld only in new sets, so the
    sets of the start stay as they were)."""
    on_table = {t for m in melds for t in m.tiles}
    rest = [t for t in draft.base_rack if t not in on_table]
    if not rest:
        return
    if draft.melded_before:
        yield from _melds(solve(melds, rest))
        return
    start = set(frozenset(m.tiles) for m in draft.base_table)
    new = [m for m in melds if frozenset(m.tiles) not in start]
    for objective in ("tiles", "value"):
        answer = solve(new, rest, objective=objective)
        if answer is not None:
            yield [*draft.base_table, *answer.melds]


# ----- when there is no answer ----------------------------------------------------------------


def _refusal(draft: Draft, wanted: Sequence[Tile]) -> IllegalMoveError:
    """Why ``auto`` found nothing: what can be placed instead, when something can."""
    if not wanted:
        return IllegalMoveError("No tile from your rack can be placed; draw instead.")
    names = tiles_text(wanted)
    threshold = draft.game.rules.opening_threshold
    plan = best_plan(draft)
    if plan is not None and plan.taken_back:
        return IllegalMoveError(
            "{tiles} cannot be placed together with the tiles you already played; auto alone "
            "finds the best play, taking back {back}.",
            tiles=names,
            back=tiles_text(plan.taken_back),
        )
    can = [t for t in draft.rack if plan is not None and t in plan.placed]
    if not draft.melded_before:
        if not can:
            return IllegalMoveError(
                "{tiles} cannot make an initial meld worth {threshold} from your rack alone.",
                tiles=names,
                threshold=threshold,
            )
        return IllegalMoveError(
            "{tiles} cannot all go into your initial meld; {can} can (auto {can}).",
            tiles=names,
            can=tiles_text(can),
        )
    if not can:
        return IllegalMoveError("None of {tiles} can be placed on this table.", tiles=names)
    return IllegalMoveError(
        "{tiles} cannot all be placed; {can} can (auto {can}).",
        tiles=names,
        can=tiles_text(can),
    )
