"""The solver retrieves table jokers the way the rules allow: a real tile of a face the joker
stands for goes into its set, and the joker then goes into a new set. Every answer here is
played through ``Draft.arrange_melds`` and ``Game.commit``, the definition of a legal turn."""

from __future__ import annotations

from engine import Game
from engine.solver import Solution, solve
from tests.engine.helpers import position


def _commit(game: Game, solution: Solution) -> None:
    """Play the solver's table as a person would and let the engine judge it."""
    draft = game.draft(game.current)
    draft.arrange_melds(solution.melds)
    outcome = game.commit(draft)
    assert sorted(map(str, outcome.placed)) == sorted(map(str, solution.placed))


def test_solver_retrieves_two_table_jokers_to_place_eleven() -> None:
    # The example: O10 in for the first joker and K2 in for the second frees both
    # jokers for new sets (K1 B1 J, B4 B6 J); without retrieval only 8 tiles go down.
    game = position(
        ["K1 K2 K8 B1 B4 B5 B6 B8 O5 O5 O8 O10 R7 R11"],
        "K2 B2 O2 R2 / K10 B10 J / J K3 K4 K5 / K10 K11 K12 K13",
        melded=[True],
    )
    solution = solve(game.table, game.players[0].rack)
    assert solution is not None
    assert solution.tiles == 11
    _commit(game, solution)


def test_solver_retrieves_a_joker_with_a_table_tile() -> None:
    # R5 moves from its run into the joker's place; the joker and the rack's K1 B1 make a set.
    game = position(["K1 B1 O9"], "R4 J R6 / R5 R6 R7 R8", melded=[True])
    solution = solve(game.table, game.players[0].rack)
    assert solution is not None
    assert sorted(map(str, solution.placed)) == ["B1", "K1"]
    _commit(game, solution)


def test_solver_does_not_retrieve_before_the_initial_meld() -> None:
    game = position(["K1 B1 R5"], "R4 J R6", melded=[False])
    assert solve(game.table, game.players[0].rack, opening=True) is None


def test_retrieved_joker_may_not_join_a_set_that_was_there() -> None:
    # B6 could free the joker only to lengthen R1 R2 R3, which the rules refuse.
    game = position(["B6"], "B5 J B7 / R1 R2 R3", melded=[True])
    assert solve(game.table, game.players[0].rack) is None
