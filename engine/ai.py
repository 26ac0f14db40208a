"""AI seats: choose a whole new table for a seat, or None to draw.

A first version by the lead so the manager and adapters can run AI seats; the solver's owner
replaces the policies with stronger ones behind the same two names (``AI_LEVELS``,
``choose_move``). Moves go through ``Draft.arrange_melds`` and ``Game.commit`` like a person's.
"""

from __future__ import annotations

from engine.game import Game
from engine.melds import Meld
from engine.solver import solve

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def choose_move(game: Game, seat: int, level: str = "medium") -> list[Meld] | None:
    """The table this AI wants after its turn, or None to draw."""
    player = game.players[seat]
    rack = list(player.rack)
    if player.drawn is not None and player.drawn in rack and level == "easy":
        rack.remove(player.drawn)
    if not player.melded:
        solution = solve(game.table, rack, opening=True, threshold=game.rules.opening_threshold)
        return solution.melds if solution is not None else None
    if level == "easy":
        solution = solve([], rack)
        if solution is None:
            return None
        return [*game.table, *solution.melds]
    solution = solve(game.table, rack)
    return solution.melds if solution is not None else None
