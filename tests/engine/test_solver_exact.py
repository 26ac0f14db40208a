"""The solver against an exact oracle of the real rules on big tables (issue 13).

``tests/engine/exact_oracle.py`` is a MILP over physical tiles that models the rule of
``engine.rules.turn_problems`` with joker retrieval (stay, or a replacement next to a tile of
the joker's set and a new set for the joker), the initial meld and the opening. It is checked
first against the exhaustive oracle on small positions, then used where that one cannot go:
tables of 30-80 tiles. Every table it returns is judged by ``turn_problems`` (inside the oracle)
and played here through ``Draft.arrange_melds`` and ``Game.commit``.

SOLVER_ORACLE_SCALE=N runs N times as many positions.
"""

from __future__ import annotations

import os
import random

import pytest

from engine import Game, Meld, PlayerState, Rules
from engine.solver import solve
from engine.tiles import Edition
from tests.engine.exact_oracle import Exact, exact_turn
from tests.engine.helpers import position
from tests.engine.retrieval_oracle import best_turn
from tests.engine.solver_oracle import (
    Position,
    mid_game_suite,
    milp_optimum,
    random_position,
    solution_score,
)

SCALE = int(os.environ.get("SOLVER_ORACLE_SCALE", "1"))
TIME_LIMIT = 60.0  # seconds per oracle programme; a run that hits it is counted, not skipped


def _game(p: Position, melded: bool) -> Game:
    used = {t for m in p.table for t in m.tiles} | set(p.rack)
    pool = [t for t in p.edition.all_tiles() if t not in used]
    players = [PlayerState(list(p.rack), melded), PlayerState([], True)]
    return Game(Rules(edition=p.edition), 0, players, list(p.table), pool, 0, 0)


def _play(game: Game, table: list[Meld]) -> None:
    """Play a table as a person would and let the engine judge it."""
    draft = game.draft(game.current)
    draft.arrange_melds(table)
    game.commit(draft)


def _check_oracle_table(p: Position, answer: Exact, *, melded: bool) -> None:
    if answer.table is not None:
        _play(_game(p, melded), answer.table)


def test_exact_oracle_finds_the_issue_example_with_two_retrievals() -> None:
    # Issue 13: O10 in for one joker and K2 in for the other free both for new sets (11
    # tiles); with the jokers locked in place only 8 go down.
    game = position(
        ["K1 K2 K8 B1 B4 B5 B6 B8 O5 O5 O8 O10 R7 R11"],
        "K2 B2 O2 R2 / K10 B10 J / J K3 K4 K5 / K10 K11 K12 K13",
        melded=[True],
    )
    rack = game.players[0].rack
    answer = exact_turn(game.table, rack)
    assert answer.proved and answer.score // 1000 == 11
    assert answer.retrieved == 2
    assert (milp_optimum(game.table, rack) or 0) // 1000 == 8
    assert answer.table is not None
    _play(game, answer.table)


@pytest.mark.parametrize(
    ("table", "rack", "best"),
    [
        # Nothing before the initial meld but new sets from the rack worth 30.
        ("R4 J R6", "K1 B1 R5", 0),
        ("R4 J R6", "K10 B10 O10 R5", 3),
    ],
)
def test_exact_oracle_in_the_opening_leaves_the_table_alone(
    table: str, rack: str, best: int
) -> None:
    game = position([rack], table, melded=[False])
    answer = exact_turn(game.table, game.players[0].rack, opening=True)
    assert answer.proved and answer.score // 1000 == best
    if answer.table is not None:
        assert answer.table[: len(game.table)] == list(game.table)


def test_exact_oracle_refuses_a_freed_joker_on_an_old_set() -> None:
    # B6 could free the joker only to lengthen R1 R2 R3, which the rules refuse.
    game = position(["B6"], "B5 J B7 / R1 R2 R3", melded=[True])
    answer = exact_turn(game.table, game.players[0].rack)
    assert answer.proved and answer.score == 0 and answer.table is None


@pytest.mark.parametrize(("rack", "tiles"), [("O10 R1 R2 B7 B8", 3), ("O10 R10 R1 R2 B7 B8", 6)])
def test_exact_oracle_frees_two_jokers_of_a_group_only_with_two_tiles(
    rack: str, tiles: int
) -> None:
    # With O10 alone one joker is freed (B7 B8 J), the other stays as R10; with O10 and R10
    # both go (B7 B8 J B10 after all, and R1 R2 J).
    game = position([rack], "K10 B10 J J", melded=[True])
    answer = exact_turn(game.table, game.players[0].rack)
    assert answer.proved and answer.score // 1000 == tiles
    assert answer.retrieved == tiles // 3
    assert answer.table is not None
    _play(game, answer.table)


@pytest.mark.slow
def test_exact_oracle_matches_the_exhaustive_oracle_on_small_positions() -> None:
    """The same optimum as ``retrieval_oracle.best_turn`` (every cover of the physical tiles,
    judged by the engine's joker rule), XP and three table jokers included."""
    rng = random.Random(1313)
    misses = []
    retrieving = 0
    for i in range(300 * SCALE):
        xp = i % 5 == 4
        p = random_position(
            rng,
            rng.choice([3, 6, 9, 10]),
            rng.randint(3, 6),
            edition=Edition.XP if xp else Edition.CLASSIC,
            table_jokers=rng.choice([1, 2, 2, 3] if xp else [1, 1, 2]),
            rack_jokers=rng.choice([0, 1, 2] if xp else [0, 0, 1]),
            ident=str(i),
        )
        objective = "value" if i % 2 else "tiles"
        answer = exact_turn(p.table, p.rack, objective, time_limit=TIME_LIMIT)
        best, _ = best_turn(p.table, p.rack, objective)
        if not answer.proved or answer.score != best:
            misses.append((p.ident, objective, answer.score, best))
        _check_oracle_table(p, answer, melded=True)
        retrieving += answer.retrieved > 0
    assert misses == []
    assert retrieving >= 40 * SCALE  # the positions do exercise retrieval


def big_positions(count: int, seed: int) -> list[tuple[Position, str, bool]]:
    """Tables of 30-80 tiles with one or two jokers, racks of 6-24 with 0-2 jokers, a tenth
    XP; objectives tiles and value, a quarter in the opening (with either objective)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        p = random_position(
            rng,
            [30, 45, 60, 80][i % 4],
            rng.randint(6, 24),
            edition=Edition.XP if i % 10 == 9 else Edition.CLASSIC,
            table_jokers=rng.choice([1, 2]),
            rack_jokers=rng.choice([0, 1, 2]),
            ident=f"s{seed}-{i}",
        )
        out.append((p, "value" if i % 2 else "tiles", i % 8 in (3, 6)))
    return out


@pytest.mark.slow
def test_solver_reaches_the_exact_optimum_on_big_tables() -> None:
    """(b) on tables of 30-80 tiles: the solver's score equals the exact oracle's; the oracle's
    own score lies between the MILP with table jokers locked and with them roaming."""
    misses = []
    unproved = []
    retrieval_needed = 0
    seconds = []
    positions = big_positions(60 * SCALE, 8013)
    for index, (p, objective, opening) in enumerate(positions):
        solution = solve(
            p.table, p.rack, objective=objective, opening=opening, minimal_change=index % 3 == 0
        )
        ours = solution_score(solution, objective)
        answer = exact_turn(p.table, p.rack, objective, opening=opening, time_limit=TIME_LIMIT)
        seconds.append(answer.seconds)
        if answer.proved:
            if ours != answer.score:
                misses.append((p.ident, objective, opening, ours, answer.score))
        else:
            # Bounded: the best table found and HiGHS's bound still catch a wrong answer.
            unproved.append(p.ident)
            if not answer.score <= ours <= answer.bound:
                misses.append((p.ident, objective, opening, ours, answer.score, answer.bound))
        _check_oracle_table(p, answer, melded=not opening)
        if not opening and index % 2 == 0:
            locked = milp_optimum(p.table, p.rack, objective=objective) or 0
            roaming = milp_optimum(p.table, p.rack, objective=objective, roam=True) or 0
            assert locked <= answer.score <= roaming or not answer.proved, p.ident
            retrieval_needed += answer.score > locked
    seconds.sort()
    print(
        f"{len(positions)} positions, {len(unproved)} unproved, retrieval needed on "
        f"{retrieval_needed}; oracle median {seconds[len(seconds) // 2]:.2f} s, "
        f"max {seconds[-1]:.2f} s"
    )
    assert misses == []
    assert len(unproved) <= len(positions) // 20, unproved
    assert retrieval_needed >= 3 * SCALE  # some optima are out of reach without retrieval


def test_solver_reaches_the_exact_optimum_on_every_mid_game_kind() -> None:
    """The benchmark's mid-game suite (issue 27: tables of 30-80 tiles with 0-2 table and
    0-2 rack jokers, racks of 6-30), one position of each of its 18 kinds per scale: the
    solver's score equals the exact oracle's, and the oracle's table passes ``Game.commit``."""
    positions = mid_game_suite(18 * SCALE, 2727)
    kinds = {
        (
            sum(len(m) for m in p.table) >= 60,
            sum(len(m.jokers) for m in p.table),
            sum(t.is_joker for t in p.rack),
        )
        for p in positions
    }
    assert len(kinds) == 18  # both table sizes, 0-2 jokers on the table, 0-2 on the rack
    misses = []
    for index, p in enumerate(positions):
        objective = "value" if index % 4 == 1 else "tiles"
        solution = solve(p.table, p.rack, objective=objective, minimal_change=index % 3 == 0)
        ours = solution_score(solution, objective)
        answer = exact_turn(p.table, p.rack, objective, time_limit=TIME_LIMIT)
        right = ours == answer.score if answer.proved else answer.score <= ours <= answer.bound
        if not right:
            misses.append((p.ident, objective, ours, answer.score, answer.bound))
        _check_oracle_table(p, answer, melded=True)
    assert misses == []


# Positions where the solver stays below the exact optimum (found by sweeps of this file's big
# positions; the solver's known gaps, docs/solver.md "The new set"). Each is legal by the engine:
# the oracle's table passes ``turn_problems`` and ``Game.commit``.
# Found as misses when the rule let one real tile free jokers of two starting sets (it asked
# for a tile of its own only among the jokers of one set). One tile frees one joker across
# the table now (engine.rules; tests/engine/test_one_rule.py), and the solver, which always
# assumed so, reaches the exact optimum on each.
ONE_TILE_ONE_JOKER = [
    # The old rule let one rack R9 next to K9 (first set) and O9 (second set) replace both
    # group jokers at once (118 points against the solver's 108).
    (
        "K9 O9 J=9 / K9 O9 J=9 / K8 B8 O8 R8 / K6 O6 R6 / K1 B1 O1 R1 / R4 R5 R6 / "
        "K13 B13 O13 R13 / K1 O1 R1 / B4 B5 B6 B7 / K11 B11 O11 R11 / K12 B12 R12 / K3 B3 O3 / "
        "K5 O5 R5 / K3 B3 O3 R3",
        "O10 O6 K10 K6 B6 K2 B2 R9 K12 B1 R8 O11 K5 R12 O7 R10 B10 O4",
        "value",
        Edition.CLASSIC,
    ),
    # XP, three table jokers: the old rule let one rack R10 in a run with tiles of the second
    # and third sets replace both jokers that stood for R10 (18 tiles against the solver's 17).
    (
        "K9 K10 K11 J=K12 K13 / J=R10 R11 R12 / R9 J=R10 R11 R12 / O5 O6 O7 O8 / B3 O3 R3 / "
        "K5 B5 O5 R5 / K2 O2 R2 / B7 O7 R7 / B3 B4 B5 B6 / B11 B12 B13 / R2 R3 R4 / K1 B1 O1 R1 / "
        "K8 O8 R8",
        "J K6 B10 R4 K4 K3 K12 O2 B11 R10 B3 O9 O9 R1 O12 B9 R13 K1",
        "value",
        Edition.XP,
    ),
    # XP, three table jokers: the old rule let one rack K12 in K12 O12 R12 (O12 of one
    # O12 R12 J, R12 of the other) free both of those jokers (10 tiles against the solver's 8).
    (
        "B13 O13 R13 / K5 B5 O5 / K5 B5 O5 R5 / K8 B8 R8 / B8 B9 B10 / K9 O9 R9 / O12 R12 J=12 / "
        "B1 R1 J=1 / K2 K3 K4 / O12 R12 J=12",
        "R4 B2 K10 O11 B2 K5 K6 K6 R5 B3 K12 K13 B7 B7 R13 K6 R13",
        "tiles",
        Edition.XP,
    ),
]

# Found as a miss: one run of real tiles replaces two run jokers at once, the replacement of
# one coming from the other's set (``Locked.witnessing`` in engine/solver/model.py).
RUN_MATES = [
    # O3 O4 O5 takes O3 of the first set, O5 of the third (into the first joker's place) and an
    # O4 from O4..O9 (into the third's place), so both jokers go (B13 R13 J, J B12 B13). 19
    # tiles either way; the solver used to leave K4 on the rack where the oracle leaves R2.
    (
        "O3 O4 J=O5 / K7 K8 K9 K10 K11 / J=O4 O5 O6 O7 / B8 B9 B10 / R11 R12 R13 / R1 R2 R3 R4 / "
        "K1 K2 K3 / K10 B10 O10 R10 / O8 O9 O10 O11 / K12 B12 O12 / K4 K5 K6 K7 / K1 B1 R1 / "
        "O4 O5 O6 O7 O8 O9",
        "R3 B13 R13 B13 R2 R5 K4 B2 K6 O3 B3 B5 B4 R6 O1 B3 B5 R7 R6 K9",
        "tiles",
        Edition.CLASSIC,
    ),
    # The same position read 13..1 (every number n as 14 - n): the first joker's place now
    # comes before the second's in the run, the other order for the search.
    (
        "J=O9 O10 O11 / K3 K4 K5 K6 K7 / O7 O8 O9 J=O10 / B4 B5 B6 / R1 R2 R3 / R10 R11 R12 R13 / "
        "K11 K12 K13 / R4 O4 B4 K4 / O3 O4 O5 O6 / O2 B2 K2 / K7 K8 K9 K10 / R13 B13 K13 / "
        "O5 O6 O7 O8 O9 O10",
        "R11 B1 R1 B1 R12 R9 K10 B12 K8 O11 B11 B9 B10 R8 O13 B11 B9 R7 R8 K5",
        "tiles",
        Edition.CLASSIC,
    ),
    # XP (`exact_sweep --kind test --seed 31`, position 229): K3 K4 K5 takes K3 of a group into
    # the second joker's place and K4 of that joker's set into the first one's, with K5 of the
    # first set beside them; both jokers go (O5 O6 J O7 O8, B3 B4 J). The solver placed 14
    # points fewer: its rebuild gave the second joker K5 of its own set as a witness, which
    # left the first joker none (``_mated`` in engine/solver/rebuild.py).
    (
        "K2 B2 O2 / J=K4 K5 K6 K7 K8 K9 / B6 O6 R6 / B7 B8 B9 B10 B11 / K13 B13 O13 R13 / "
        "J=K3 K4 K5 / K3 B3 R3 / B8 B9 B10 / B8 B9 B10 / K2 O2 R2 / K3 B3 O3 / R7 R8 R9 R10 / "
        "R7 R8 R9",
        "B6 K5 K4 O12 K10 K10 B4 O5 O13 O6 O11 R4 O6 K6 B3 O8",
        "value",
        Edition.XP,
    ),
]


@pytest.mark.parametrize(("table", "rack", "objective", "edition"), ONE_TILE_ONE_JOKER)
def test_one_tile_frees_one_joker_and_the_solver_reaches_the_exact_optimum(
    table: str, rack: str, objective: str, edition: Edition
) -> None:
    game = position([rack], table, melded=[True], rules=Rules(edition=edition))
    rack_tiles = game.players[0].rack
    solution = solve(game.table, rack_tiles, objective=objective)
    answer = exact_turn(game.table, rack_tiles, objective)
    assert answer.proved and answer.table is not None
    assert solution_score(solution, objective) == answer.score
    _play(game, answer.table)


@pytest.mark.parametrize(("table", "rack", "objective", "edition"), RUN_MATES)
def test_one_run_replaces_two_run_jokers_and_the_solver_reaches_the_exact_optimum(
    table: str, rack: str, objective: str, edition: Edition
) -> None:
    game = position([rack], table, melded=[True], rules=Rules(edition=edition))
    answer = exact_turn(game.table, game.players[0].rack, objective)
    assert answer.proved and answer.table is not None
    _play(game, answer.table)
    game = position([rack], table, melded=[True], rules=Rules(edition=edition))
    solution = solve(game.table, game.players[0].rack, objective=objective)
    assert solution is not None and solution_score(solution, objective) == answer.score
    # Both table jokers leave their sets, as in the oracle's table.
    jokers = [t for m in game.table for t in m.jokers]
    homes = [next(m for m in solution.melds if joker in m.tiles) for joker in jokers]
    assert len(jokers) == 2 and all(home not in game.table for home in homes)
    _play(game, solution.melds)
