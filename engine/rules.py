"""Whole-turn checks that compare the table before and after a turn.

The joker rule is checked on states, not on the verbs used, so a turn built step by step, an
``arrange`` of the whole table, a solver's answer and a replayed log are judged the same way:

* a joker that still stands in its place (its final set holds a real tile from its original set
  and it stands for a face it could stand for before) was not touched;
* any other table joker was retrieved, which needs: the initial meld made before this turn, a
  real tile of a face it stood for in its place (in a set with a real tile of its original set),
  and a new set for the joker (one that does not hold every other tile of a set from the start
  of the turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.melds import Meld, MeldKind
from engine.messages import Msg, either
from engine.tiles import Face, Tile


def _fits(face: Face, options: Sequence[Face]) -> bool:
    for option in options:
        if face.number != option.number:
            continue
        if face.color is None or option.color is None or face.color == option.color:
            return True
    return False


def joker_problem(start: Sequence[Meld], final: Sequence[Meld], melded_before: bool) -> str | None:
    """Return a sentence explaining why the table jokers were moved illegally, or None."""
    problem = joker_problem_msg(start, final, melded_before)
    return None if problem is None else str(problem)


def joker_problem_msg(
    start: Sequence[Meld], final: Sequence[Meld], melded_before: bool
) -> Msg | None:
    """:func:`joker_problem` as a translatable message."""
    final_of: dict[Tile, tuple[int, Meld]] = {}
    for index, meld in enumerate(final):
        for tile in meld.tiles:
            final_of[tile] = (index, meld)
    for number, meld in enumerate(start, start=1):
        for joker in meld.jokers:
            if joker not in final_of:
                return Msg("A joker on the table must stay on the table.")
            options = _options(meld, joker)
            _, final_meld = final_of[joker]
            originals = {t for t in meld.tiles if not t.is_joker}
            face = final_meld.faces[final_meld.tiles.index(joker)]
            if originals & set(final_meld.tiles) and _fits(face, options):
                continue
            if not melded_before:
                return Msg("You can take a joker from the table only after your initial meld.")
            replaced = any(
                originals & set(m.tiles)
                and any(
                    not t.is_joker and t not in meld.tiles and _fits(t.face, options)
                    for t in m.tiles
                )
                for m in final
            )
            if not replaced:
                return Msg(
                    "To take the joker from meld {number}, put {wanted} in its place in that set.",
                    number=number,
                    wanted=either([str(o) for o in options]),
                )
            for other in start:
                rest = {t for t in other.tiles if t != joker}
                if rest and rest <= set(final_meld.tiles):
                    return Msg(
                        "A joker taken from the table must go into a new set, "
                        "not onto a set that was already there."
                    )
    return None


def _options(meld: Meld, joker: Tile) -> tuple[Face, ...]:
    if meld.kind is MeldKind.GROUP:
        return meld.joker_options(joker)
    return (meld.faces[meld.tiles.index(joker)],)


def opening_problem(
    start: Sequence[Meld], final: Sequence[Meld], rack_played: Sequence[Tile], threshold: int
) -> str | None:
    """The initial meld: new sets from the rack only, worth at least ``threshold``."""
    problem = opening_problem_msg(start, final, rack_played, threshold)
    return None if problem is None else str(problem)


def opening_problem_msg(
    start: Sequence[Meld], final: Sequence[Meld], rack_played: Sequence[Tile], threshold: int
) -> Msg | None:
    """:func:`opening_problem` as a translatable message."""
    start_sets = [frozenset(m.tiles) for m in start]
    final_sets = [frozenset(m.tiles) for m in final]
    remaining = list(final_sets)
    for s in start_sets:
        if s in remaining:
            remaining.remove(s)
        else:
            return Msg(
                "Before your initial meld you can't change the sets on the table; "
                "play new sets from your rack only."
            )
    played = set(rack_played)
    for s in remaining:
        if not s <= played:
            return Msg("Your initial meld must use only tiles from your own rack.")
    total = sum(m.value for m in final if frozenset(m.tiles) in remaining)
    if total < threshold:
        return Msg(
            "Your initial meld is worth {total}; it must total at least {threshold} "
            "(a joker counts as the tile it stands for).",
            total=total,
            threshold=threshold,
        )
    return None
