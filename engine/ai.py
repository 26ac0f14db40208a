"""AI seats: choose a whole new table for a seat, or None to draw.

Every level works from what a player at the table may know (the table, its own rack, the pool
size and the other racks' sizes) and hands back a whole table, which the caller plays through
``Draft.arrange_melds`` and ``Game.commit`` exactly like a person's turn, so an AI can never make
an illegal move. The levels:

* ``easy`` plays only new sets from its own rack (never touches the table) and overlooks the
  tile it drew last;
* ``medium`` places as many tiles as the exact solver can, every turn;
* ``hard`` also thinks about timing: it keeps one cheap tile back when that tile can still be
  played next turn (a play next turn instead of a draw), stops holding back and switches to
  shedding points once an opponent is close to going out or the pool is empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game import Game, TurnOutcome
from engine.melds import Meld
from engine.solver import Solution, solve
from engine.tiles import Tile

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

# An opponent with this many tiles or fewer may go out soon: stop holding tiles back.
DANGER_RACK = 5


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
    others = [len(p.rack) for i, p in enumerate(game.players) if i != seat]
    endgame = min(others) <= DANGER_RACK or not game.pool
    best = solve(game.table, rack, objective="value" if endgame else "tiles", minimal_change=False)
    if best is None:
        return None
    if endgame or len(best.placed) == len(rack) or len(best.placed) < 2:
        return best.melds
    held = _hold_back(game.table, rack, best)
    return held.melds if held is not None else best.melds


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
