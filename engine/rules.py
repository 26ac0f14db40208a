"""The one definition of a legal turn: what the table and rack may be after a turn.

:func:`turn_problems` is the rule every path uses: ``done``, the timeout, ``arrange``, replayed
logs, the solver's answers as ``hint`` and ``auto`` offer them, and AI moves (they all end in a
``Draft`` checked by it, or call it directly). A turn is legal when

* every tile on the table at the start is still on the table, every other tile on the final table
  came from the player's rack, and no tile is there twice;
* every set is valid (a ``Meld`` is valid by construction);
* at least one rack tile was played;
* before the initial meld: the starting sets are all still there, unchanged, and the new sets are
  made of rack tiles only, worth at least the threshold (:func:`opening_problem_msg`);
* the table jokers moved only as the joker rule below allows (:func:`joker_problem_msg`).

Step verbs may refuse a step early only when no continuation short of undoing it could pass
this check; anything else they leave to it.

The joker rule is checked on states, not on the verbs used, so a turn built step by step, an
``arrange`` of the whole table, a solver's answer and a replayed log are judged the same way:

* a joker that still stands in its place (its final set holds a real tile from its original set
  and it stands for a face it could stand for before) was not touched;
* any other table joker was retrieved, which needs: the initial meld made before this turn, a
  real tile of a face it stood for in its place (in a set with a real tile of its original set;
  one tile frees one joker, so two jokers of one set need two tiles), and a new set for the
  joker (one that does not hold every other tile of a set from the start of the turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.melds import Meld, MeldKind
from engine.messages import Msg, either
from engine.tiles import Face, Tile, sort_tiles, tiles_text


def turn_problems(
    start: Sequence[Meld],
    rack: Sequence[Tile],
    final: Sequence[Meld],
    *,
    melded_before: bool,
    threshold: int,
) -> list[Msg]:
    """Every reason the turn from ``start`` (and the player's ``rack``) to ``final`` is not
    legal, as translatable sentences; empty when it is legal."""
    problems: list[Msg] = []
    start_tiles = {t for m in start for t in m.tiles}
    final_tiles = [t for m in final for t in m.tiles]
    on_final = set(final_tiles)
    if len(on_final) != len(final_tiles):
        problems.append(Msg("The same physical tile appears twice on the table."))
    left_out = start_tiles - on_final
    if left_out:
        problems.append(
            Msg(
                "Every tile on the table must stay on the table; your arrangement leaves out "
                "{tiles}.",
                tiles=tiles_text(sort_tiles(left_out)),
            )
        )
    rack_set = set(rack)
    foreign = [t for t in final_tiles if t not in start_tiles and t not in rack_set]
    if foreign:
        problems.append(
            Msg("{tiles} is neither on the table nor on your rack.", tiles=tiles_text(foreign))
        )
    played = [t for t in rack if t in on_final]
    if not played:
        problems.append(
            Msg("You must play at least one tile from your rack (or draw to end your turn).")
        )
    if problems:
        return problems
    if not melded_before:
        problem = opening_problem_msg(start, final, played, threshold)
        if problem:
            problems.append(problem)
    problem = joker_problem_msg(start, final, melded_before)
    if problem:
        problems.append(problem)
    return problems


def is_legal_turn(
    start: Sequence[Meld],
    rack: Sequence[Tile],
    final: Sequence[Meld],
    *,
    melded_before: bool,
    threshold: int,
) -> bool:
    """:func:`turn_problems` as a yes or no."""
    return not turn_problems(start, rack, final, melded_before=melded_before, threshold=threshold)


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
    # Where each joker ended (only jokers are looked up: hashing every tile of a big table
    # was most of this check's time inside the solver).
    final_of: dict[Tile, tuple[int, Meld]] = {}
    for index, meld in enumerate(final):
        for tile in meld.tiles:
            if tile.color is None:
                final_of[tile] = (index, meld)
    # For each joker retrieved so far (all starting sets), the tiles that may replace it.
    needs: list[set[Tile]] = []
    for number, meld in enumerate(start, start=1):
        for joker in meld.jokers:
            if joker not in final_of:
                return Msg("A joker on the table must stay on the table.")
            options = _options(meld, joker)
            _, final_meld = final_of[joker]
            originals = {t for t in meld.tiles if t.color is not None}
            face = final_meld.faces[final_meld.tiles.index(joker)]
            if originals & set(final_meld.tiles) and _fits(face, options):
                continue
            if not melded_before:
                return Msg("You can take a joker from the table only after your initial meld.")
            replacements = {
                t
                for m in final
                if originals & set(m.tiles)
                for t in m.tiles
                if not t.is_joker and t not in meld.tiles and _fits(t.face, options)
            }
            needs.append(replacements)
            if not replacements:
                return Msg(
                    "To take the joker from meld {number}, put {wanted} in its place in that set.",
                    number=number,
                    wanted=either([str(o) for o in options]),
                )
            for other in start:
                rest = {t for t in other.tiles if t != joker}
                if rest and rest <= set(final_meld.tiles):
                    if other is meld:
                        return Msg(
                            "The joker in meld {number} would stand for {face} instead of "
                            "{wanted}; to take it, write: swap J in {number} with {wanted}, "
                            "then play it in a new set.",
                            number=number,
                            face=str(face),
                            wanted=either([str(o) for o in options]),
                        )
                    return Msg(
                        "A joker taken from the table must go into a new set, "
                        "not onto a set that was already there."
                    )
        # One real tile frees one joker, across the whole table: the jokers taken so far
        # (this set's and earlier sets') must each have a tile of their own.
        if needs and not _one_tile_each(needs):
            return Msg(
                "Each joker you take from meld {number} needs a tile of its own in its place.",
                number=number,
            )
    return None


def _one_tile_each(needs: Sequence[set[Tile]]) -> bool:
    """Whether every retrieved joker can be given its own replacement tile (one real tile
    frees one joker: two jokers of a group need both missing colours, and one R9 in a set
    holding tiles of two starting sets frees only one of their jokers)."""
    return _assign(needs, 0, frozenset())


def _assign(needs: Sequence[set[Tile]], index: int, used: frozenset[Tile]) -> bool:
    """Whether the jokers from ``index`` on can each get a tile of theirs not in ``used`` (a
    function of its own: a nested one calling itself is a reference cycle, left for the
    cyclic collector on every call)."""
    if index == len(needs):
        return True
    return any(_assign(needs, index + 1, used | {t}) for t in needs[index] if t not in used)


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
