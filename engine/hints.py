"""``hint``: the shortest list of commands from where the player's draft is to the best legal
turn, and a line saying what they do.

The turn itself comes from :func:`engine.auto.best_plan` (the same plan ``auto`` follows: it
keeps what the player already laid this turn when any legal turn does, and otherwise takes
back what it must). :func:`hint` then finds the shortest list of commands that turns the draft
into that table and proves it by running them on a copy of the draft, one by one, through
:func:`engine.steps.apply_step` (the path typed commands take), so every command it shows is
accepted in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.auto import best_plan
from engine.draft import Draft
from engine.errors import InvalidMeldError, RummikubError
from engine.melds import Meld
from engine.messages import Clauses, Msg
from engine.steps import apply_step
from engine.tiles import Tile, sort_tiles, tiles_text

if TYPE_CHECKING:
    from engine.game import Game

_MAX_CLAUSES = 3


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
    plan = best_plan(draft)
    if plan is None:
        return None
    target = plan.melds
    placed = len(plan.placed)
    if draft.is_legal and placed <= len(draft.played):
        return Hint((), Msg("No change."), tuple(s.text() for s in draft.slots))
    plans: list[list[str]] = []
    if plan.taken_back:  # "auto TILES" keeps what was played; plain auto takes back too
        plans.append(["auto"])
    else:
        rack_part = sort_tiles(t for t in draft.rack if t in plan.placed)
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
            apply_step(trial, command)
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
    still = set(after.played)
    back = [t for t in before.played if t not in still]
    if back:
        clauses.append(Msg("took {tiles} back to your rack", tiles=tiles_text(sort_tiles(back))))
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
