"""AI seats: choose a whole new table for a seat, or None to draw.

Every level works from what a player at the table may know (the table, its own rack, the pool
size and the other racks' sizes) and hands back a whole table, which the caller plays through
``Draft.arrange_melds`` and ``Game.commit`` exactly like a person's turn, so an AI can never make
an illegal move. The levels:

* ``easy`` plays only new sets from its own rack (never touches the table) and overlooks the
  tile it drew last;
* ``medium`` places as many tiles as the exact solver can, every turn (the solver takes jokers
  from the table when that places more);
* ``hard`` also thinks about timing and jokers: it keeps a free joker and whole new sets made
  from its own rack in reserve (each is a sure play for a later turn instead of a draw) and
  holds one cheap tile back when it will still fit next turn. Once an opponent is close to
  going out it starves them: it lays nothing down (every tile added to the table is room the
  opponent could use to go out) and draws, unless it can go out itself. With the pool empty it
  sheds points instead (a joker counts 30).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import InvalidMeldError
from engine.game import Game, TurnOutcome
from engine.melds import Meld, MeldKind
from engine.rules import joker_problem
from engine.solver import Solution, solve
from engine.tiles import Tile

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

# An opponent with this many tiles or fewer may go out soon: hard stops feeding the table.
DANGER_RACK = 8


def choose_move(game: Game, seat: int, level: str = "medium") -> list[Meld] | None:
    """The table this AI wants after its turn (melds in table order), or None to draw."""
    return _choose(game, seat, level)


def _choose(game: Game, seat: int, level: str) -> list[Meld] | None:
    if level not in AI_LEVELS:
        raise ValueError(f"AI level must be one of {', '.join(AI_LEVELS)}, not {level!r}")
    player = game.players[seat]
    rack = list(player.rack)
    threshold = game.rules.opening_threshold
    if level == "easy" and player.drawn is not None and player.drawn in rack:
        rack.remove(player.drawn)
    if not player.melded:
        opening = solve(game.table, rack, opening=True, threshold=threshold, minimal_change=False)
        return opening.melds if opening is not None else None
    if level == "easy":
        own = solve([], rack, minimal_change=False)
        return [*game.table, *own.melds] if own is not None else None
    if level == "medium":
        best = solve(game.table, rack, minimal_change=False)
        return best.melds if best is not None else None
    return _hard(game, seat, rack)


def _hard(game: Game, seat: int, rack: list[Tile]) -> list[Meld] | None:
    if not game.pool:
        shed = solve(game.table, rack, objective="value", minimal_change=False)
        return shed.melds if shed is not None else None
    others = [len(p.rack) for i, p in enumerate(game.players) if i != seat]
    if min(others) <= DANGER_RACK:
        # Starve an opponent close to going out: lay down nothing they could build on; draw,
        # unless this turn empties the rack.
        out = solve(game.table, rack, must_place=rack, minimal_change=False)
        return out.melds if out is not None else None
    best = solve(game.table, rack, minimal_change=False)
    if best is None:
        return None
    if len(best.placed) == len(rack):
        return best.melds
    if any(t.is_joker for t in best.placed):
        # A joker kept on the rack is a sure play for a later turn; play it now only when it
        # lets more real tiles down (or nothing else can be played).
        plain = solve(game.table, [t for t in rack if not t.is_joker], minimal_change=False)
        reals = sum(1 for t in best.placed if not t.is_joker)
        if plain is not None and len(plain.placed) >= reals:
            best = plain
    reserve = _reserve(game.table, rack, best)
    if reserve is not None:
        return reserve.melds
    if len(best.placed) < 2:
        return best.melds
    held = _hold_back(game.table, rack, best)
    return held.melds if held is not None else best.melds


@dataclass(frozen=True, slots=True)
class Retrieval:
    """A play that starts by taking a joker from the table: ``tile`` goes into meld
    ``meld_index`` (0-based) in the joker's place, ``swapped`` is the table right after that
    swap, and ``solution`` plays the joker (and more rack tiles) from there (its ``placed``
    holds the joker, not ``tile``)."""

    meld_index: int
    joker: Tile
    tile: Tile
    swapped: list[Meld]
    solution: Solution

    @property
    def melds(self) -> list[Meld]:
        return self.solution.melds

    @property
    def placed(self) -> int:
        """Rack tiles played in all (the swapped-in tile instead of the joker)."""
        return len(self.solution.placed)


def retrieval(table: Sequence[Meld], rack: Sequence[Tile], baseline: int) -> Retrieval | None:
    """The solver's best play when it starts by taking a joker from the table with a rack tile
    and places at least ``baseline`` rack tiles; None otherwise. (``solve`` itself retrieves
    jokers; this only describes such a play as a swap followed by the rest, for ``hint``.)"""
    found = solve(table, rack, minimal_change=False)
    if found is None or len(found.placed) < baseline:
        return None
    placed = set(found.placed)
    final_of = {t: m for m in found.melds for t in m.tiles}
    for index, meld in enumerate(table):
        originals = {t for t in meld.tiles if not t.is_joker}
        for joker in meld.jokers:
            options = meld.joker_options(joker) if meld.kind is MeldKind.GROUP else None
            face = meld.faces[meld.tiles.index(joker)]
            home = final_of[joker]
            if originals & set(home.tiles):
                continue  # still in its own set
            for tile in found.placed:
                fits = (
                    any(f.color == tile.color and f.number == tile.number for f in options)
                    if options is not None
                    else tile.face == face
                )
                if tile.is_joker or not fits or not originals & set(final_of[tile].tiles):
                    continue
                try:
                    swapped = Meld.build(
                        [tile if t == joker else t for t in meld.tiles], None, meld.kind
                    )
                except InvalidMeldError:
                    continue
                new_table = [*table[:index], swapped, *table[index + 1 :]]
                moved = sorted((placed - {tile}) | {joker}, key=lambda t: t.sort_key())
                solution = Solution(
                    found.melds,
                    moved,
                    found.value,
                    found.kept,
                    found.moved,
                    found.objective,
                    found.opening,
                )
                if joker_problem(table, found.melds, True) is None:
                    return Retrieval(index, joker, tile, new_table, solution)
    return None


def _reserve(table: Sequence[Meld], rack: list[Tile], best: Solution) -> Solution | None:
    """Keep whole new sets made from the rack alone for later turns (they can always be played,
    so they replace future draws): play the rest now, or the biggest of those sets alone."""
    mine = set(rack)
    own = [m for m in best.melds if all(t in mine for t in m.tiles)]
    if not own:
        return None
    own_tiles = {t for m in own for t in m.tiles}
    rest = [t for t in best.placed if t not in own_tiles]
    if rest:
        return solve(table, rack, must_place=rest, minimal_change=False)
    if len(own) == 1:
        return None
    biggest = max(own, key=lambda m: (len(m.tiles), m.value))
    return solve(table, rack, must_place=list(biggest.tiles), minimal_change=False)


def _hold_back(table: Sequence[Meld], rack: list[Tile], best: Solution) -> Solution | None:
    """The same play minus one cheap tile that will still fit next turn, if there is one."""
    # A tile in a set of three is holding that set up; try the others first, cheapest first.
    size = {t: len(m.tiles) for m in best.melds for t in m.tiles}
    candidates = sorted(
        (t for t in best.placed if not t.is_joker), key=lambda t: (size[t] <= 3, t.number)
    )
    for keep in candidates[:4]:
        rest = [t for t in best.placed if t != keep]
        without = solve(table, rack, must_place=rest, minimal_change=False)
        if without is None:
            continue
        if solve(without.melds, [keep], minimal_change=False) is not None:
            return without
    return None


def take_turn(game: Game, level: str) -> tuple[TurnOutcome, bool]:
    """Play the current seat's AI turn through the draft; returns the outcome and whether the
    chosen table was refused (never expected; the seat then draws)."""
    seat = game.current
    melds = choose_move(game, seat, level)
    if melds is not None:
        draft = game.draft(seat)
        try:
            draft.arrange_melds(melds)
            return game.commit(draft), False
        except ValueError:
            return game.draw(seat), True
    return game.draw(seat), False
