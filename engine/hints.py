"""``hint`` and ``auto`` from where the player is: the best legal turn that keeps the draft's work.

Both start from the current draft, not from the start of the turn. :func:`best_final` asks the
solver (``engine.solver.solve``: the best legal final table from a table and a rack) from two
places, the draft as it stands and the start of the turn with the tiles already played required,
and, for a player past the initial meld, also from the start with one table joker swapped out
for a real tile (today's solver never retrieves a joker itself; once it does, these extra tries
simply never win). Every answer is judged by :func:`engine.rules.turn_problems` from the start of
the turn, the same check ``done`` makes, before it is used.

:func:`hint` then finds the shortest list of commands that turns the draft into that table and
proves it by running them on a copy of the draft, one by one, through ``Draft.apply_text`` (the
path typed commands take), so every command it shows is accepted in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import InvalidMeldError, RummikubError
from engine.melds import Meld, MeldKind
from engine.messages import Clauses, Msg
from engine.rules import turn_problems
from engine.tiles import Tile, sort_tiles, tiles_text

if TYPE_CHECKING:
    from engine.draft import Draft
    from engine.game import Game

_MAX_CLAUSES = 3


@dataclass(frozen=True, slots=True)
class _Found:
    melds: list[Meld]
    placed: int  # rack tiles (of the start of the turn) on the final table
    keeps: bool  # every rack tile already played stays on the table
    order: int  # which try found it (earlier = fewer changes to the draft)


def _legal(draft: Draft, final: Sequence[Meld]) -> bool:
    return not turn_problems(
        draft.base_table,
        draft.base_rack,
        final,
        melded_before=draft.melded_before,
        threshold=draft.game.rules.opening_threshold,
    )


def _tries(draft: Draft, wanted: Sequence[Tile] | None) -> list[list[Meld]]:
    """Final tables the solver offers from the draft, from the start, and from the start with
    one joker retrieved (each may still be illegal; the caller checks)."""
    from engine.solver import solve

    start, rack = list(draft.base_table), list(draft.base_rack)
    opening = not draft.melded_before
    threshold = draft.game.rules.opening_threshold
    played = set(draft.played)
    wanted_set = set(wanted or ())
    required = [t for t in rack if t in played or t in wanted_set]
    out: list[list[Meld]] = []

    def add(found: object) -> None:
        melds = getattr(found, "melds", None)
        if melds is not None:
            out.append(list(melds))

    valid = all(slot.error_message() is None for slot in draft.slots)
    # 0. The draft itself, when it is a whole table (it may already be the best turn).
    if valid and not draft.held:
        out.append(draft.melds())
    # 1. From the draft as it stands (keeps the player's rearrangement).
    if not opening and valid:
        table = draft.melds()
        pool = list(draft.rack) + list(draft.held)
        if wanted:
            held = [j for j in draft.held if j not in wanted_set]
            add(solve(table, pool, must_place=[*wanted, *held]))
        else:
            add(solve(table, pool))
            if draft.held:
                add(solve(table, pool, must_place=list(draft.held)))
    # 2. From the start of the turn, the tiles already played (and the wanted ones) required.
    if wanted:
        add(solve(start, rack, opening=opening, threshold=threshold, must_place=required))
    else:
        add(solve(start, rack, opening=opening, threshold=threshold))
        if played:
            add(solve(start, rack, opening=opening, threshold=threshold, must_place=required))
    # 3. From the start with one table joker taken by a real tile from the rack or the table.
    if not opening:
        for swapped, pool, used in _swaps(start, rack):
            joker = next(t for t in pool if t.is_joker and t not in rack)
            if wanted:
                must = [t for t in required if t != used] + [joker]
                add(solve(swapped, pool, must_place=must))
            else:
                add(solve(swapped, pool))
    return out


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


def best_final(draft: Draft, wanted: Sequence[Tile] | None = None) -> list[Meld] | None:
    """The best legal final table for this turn from where the draft is: the most rack tiles
    placed (exactly the tiles already played plus ``wanted`` when ``wanted`` is given), keeping
    what the player already played and changing the draft least; None if there is none."""
    rack = set(draft.base_rack)
    played = set(draft.played)
    wanted_set = set(wanted or ())
    best: _Found | None = None
    for order, found_melds in enumerate(_tries(draft, wanted)):
        melds = _prefer_played(found_melds, played, rack)
        on_table = {t for m in melds for t in m.tiles}
        if wanted and not (wanted_set | played) <= on_table:
            continue
        if not _legal(draft, melds):
            continue
        found = _Found(melds, len(rack & on_table), played <= on_table, order)
        if best is None or (found.placed, found.keeps) > (best.placed, best.keeps):
            best = found
    return None if best is None else best.melds


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


# ----- hint -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hint:
    """Commands to type in order (each accepted by the draft), what they do, and the table they
    end in (meld texts by number, empty for a meld used up)."""

    commands: tuple[str, ...]
    explanation: Clauses | Msg
    table: tuple[str, ...]

    def message(self) -> Msg:
        if not self.commands:
            return Msg("Your draft is already the best play found; finish with done.")
        return Msg(
            "{explanation} (type: {commands})",
            explanation=self.explanation,
            commands="; ".join(self.commands),
        )


def hint_text(game: Game, seat: int, draft: Draft | None = None) -> Msg | None:
    """What ``hint`` answers a seat: the commands from its draft (a fresh one when ``draft`` is
    None or another seat's) and a short explanation; None when nothing can be played."""
    if draft is None or draft.seat != seat:
        draft = game.draft(seat)
    found = hint(draft)
    return None if found is None else found.message()


def hint(draft: Draft) -> Hint | None:
    """The shortest list of commands from the draft to the best legal turn found, or None when
    no rack tile can be played this turn."""
    target = best_final(draft)
    if target is None:
        return None
    placed = len(set(draft.base_rack) & {t for m in target for t in m.tiles})
    if draft.is_legal and placed <= len(draft.played):
        return Hint((), Msg("No change."), tuple(s.text() for s in draft.slots))
    plans: list[list[str]] = []
    to_place = [t for t in draft.rack + draft.held if any(t in m.tiles for m in target)]
    rack_part = sort_tiles(t for t in to_place if t in draft.rack)
    plans.append([f"auto {tiles_text(rack_part)}".rstrip()])
    plans.extend(_swap_plans(draft, target))
    plans.append(["arrange " + " / ".join(m.text() for m in target)])
    best: tuple[tuple[int, int], list[str], Draft] | None = None
    for commands in plans:
        run = _run(draft, commands)
        if run is None or not run.is_legal:
            continue
        if len(set(draft.base_rack) - set(run.rack)) < placed:
            continue
        key = (len(commands), sum(len(c) for c in commands))
        if best is None or key < best[0]:
            best = (key, commands, run)
    if best is None:  # pragma: no cover - the arrange plan states a legal table by faces
        return None
    _, commands, run = best
    return Hint(tuple(commands), explain(draft, run), tuple(s.text() for s in run.slots))


def _run(draft: Draft, commands: Sequence[str]) -> Draft | None:
    """A copy of the draft after ``commands``, or None if one of them is refused."""
    trial = draft.fork()
    try:
        for command in commands:
            trial.apply_text(command)
    except RummikubError:
        return None
    return trial


def _swap_plans(draft: Draft, target: Sequence[Meld]) -> list[list[str]]:
    """For a target that takes a table joker still in its place: swap it (with the tile of the
    target that stands in its place), play the joker's new set if the rack makes it, then auto."""
    plans: list[list[str]] = []
    if not draft.melded_before or draft.held:
        return plans
    final_of = {t: m for m in target for t in m.tiles}
    for number, slot in enumerate(draft.slots, start=1):
        try:
            meld = slot.meld() if slot.tiles else None
        except InvalidMeldError:
            continue
        if meld is None:
            continue
        for joker in meld.jokers:
            home = final_of.get(joker)
            originals = set(slot.tiles) - {joker}
            if home is None or originals & set(home.tiles):
                continue  # the joker stays in (what is left of) its set
            options = meld.joker_options(joker)
            for holder in target:
                if not originals & set(holder.tiles):
                    continue
                for tile in holder.tiles:
                    fits = any(o.number == tile.number and o.color == tile.color for o in options)
                    if tile.is_joker or tile in slot.tiles or not fits:
                        continue
                    where = _where(draft, tile)
                    if where is None:
                        continue
                    swap = f"swap J in {number} with {tile}"
                    if where > 0:
                        swap += f" from {where}"
                    rest = sort_tiles(t for t in draft.rack if t in final_of and t != tile)
                    own = [t for t in home.tiles if t not in draft.rack and t != joker]
                    plan = [swap]
                    if not own:
                        plan.append("play " + " ".join(str(t) for t in home.tiles))
                        rest = [t for t in rest if t not in home.tiles]
                    if rest or own:
                        plan.append(f"auto {tiles_text(rest)}".rstrip())
                    plans.append(plan)
    return plans


def _where(draft: Draft, tile: Tile) -> int | None:
    """0 for the rack, a meld number for the table, None if the tile is in neither."""
    if tile in draft.rack:
        return 0
    for number, slot in enumerate(draft.slots, start=1):
        if tile in slot.tiles:
            return number
    return None


def explain(before: Draft, after: Draft) -> Clauses | Msg:
    """A short line saying what changed between two drafts of one turn, by meld number."""
    clauses: list[Msg] = []
    old = before.slots
    for number, slot in enumerate(after.slots, start=1):
        if not slot.tiles:
            continue
        was = old[number - 1] if number <= len(old) else None
        if was is not None and was.tiles == slot.tiles and was.text() == slot.text():
            continue
        if was is None or not was.tiles:
            clauses.append(Msg("new set {tiles}", tiles=slot.text()))
        elif set(was.tiles) <= set(slot.tiles):
            added = [t for t in slot.tiles if t not in was.tiles]
            clauses.append(
                Msg("added {tiles} to meld {number}", tiles=tiles_text(added), number=number)
            )
        else:
            gone = [t for t in was.tiles if t not in slot.tiles]
            came = [t for t in slot.tiles if t not in was.tiles]
            if len(gone) == 1 and gone[0].is_joker and len(came) == 1:
                clauses.append(
                    Msg(
                        "put {tile} in place of the joker in meld {number}",
                        tile=str(came[0]),
                        number=number,
                    )
                )
            else:
                clauses.append(
                    Msg("meld {number} becomes {tiles}", number=number, tiles=slot.text())
                )
    if not clauses:
        return Msg("No change.")
    if len(clauses) > _MAX_CLAUSES:
        more = len(clauses) - _MAX_CLAUSES
        clauses = [*clauses[:_MAX_CLAUSES], Msg("{count} more changes", count=more)]
    return Clauses(clauses)
