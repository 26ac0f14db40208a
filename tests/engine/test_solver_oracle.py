"""The solver against independent exact answers on seeded positions.

* 300 positions (empty to 80-tile tables, racks of 6 to 30, jokers on table and rack in about
  half, a tenth XP) against a set-partitioning MILP over every legal set (SciPy's milp); the
  objective cycles through tiles, value and the opening; every answer is re-validated.
* Small racks against a plain exhaustive search over rack subsets and table partitions.
* rummikub-solver 1.0.0 (PyPI) where its model applies: no jokers anywhere.
"""

from __future__ import annotations

import random

import pytest

from engine.solver import check, solve
from engine.tiles import Edition
from tests.engine.solver_oracle import (
    exhaustive_optimum,
    milp_optimum,
    position_suite,
    random_position,
    reference_tile_count,
    solution_score,
)

MODES = (("tiles", False), ("value", False), ("tiles", True))
POSITIONS = position_suite(300, 2026)


@pytest.mark.slow
def test_same_optimum_as_the_milp_on_300_positions() -> None:
    mismatches = []
    for index, p in enumerate(POSITIONS):
        objective, opening = MODES[index % 3]
        # Half with the minimal-change pass (same optimum, fewer changes), half without.
        solution = solve(
            p.table, p.rack, objective=objective, opening=opening, minimal_change=index % 2 == 0
        )
        if solution is not None:
            problem = check(p.table, p.rack, solution)
            assert problem is None, f"{p.ident}: {problem}"
        ours = solution_score(solution, objective)
        oracle = milp_optimum(p.table, p.rack, objective=objective, opening=opening) or 0
        if opening or not any(m.jokers for m in p.table):
            if ours != oracle:
                mismatches.append((p.ident, objective, opening, ours, oracle))
            continue
        # Table jokers after the initial meld: the solver may also retrieve them, so the MILP
        # with jokers in place is a lower bound and the one with jokers roaming an upper bound
        # (tests/engine/test_solver_retrieval.py checks the optimum exactly on small positions).
        roaming = milp_optimum(p.table, p.rack, objective=objective, roam=True) or 0
        if not oracle <= ours <= roaming:
            mismatches.append((p.ident, objective, opening, ours, oracle))
    assert mismatches == []


def test_suite_spans_the_sizes_and_jokers_it_claims() -> None:
    tables = [sum(len(m) for m in p.table) for p in POSITIONS]
    racks = [len(p.rack) for p in POSITIONS]
    assert min(tables) == 0 and max(tables) >= 80
    assert min(racks) == 6 and max(racks) == 30
    assert sum(1 for p in POSITIONS if any(t.is_joker for m in p.table for t in m.tiles)) >= 50
    assert sum(1 for p in POSITIONS if any(t.is_joker for t in p.rack)) >= 50
    assert sum(1 for p in POSITIONS if p.edition is Edition.XP) >= 25


def test_must_place_matches_the_milp() -> None:
    rng = random.Random(7)
    for i in range(40):
        p = random_position(rng, 20, 8, table_jokers=i % 2, rack_jokers=i % 3, ident=str(i))
        wanted = p.rack[: 1 + i % 3]
        solution = solve(p.table, p.rack, must_place=wanted)
        oracle = milp_optimum(p.table, p.rack, must_place=wanted)
        if oracle is None:
            # Only a joker retrieval (which this MILP does not model) can make it possible.
            assert solution is None or any(m.jokers for m in p.table), p.ident
            if milp_optimum(p.table, p.rack, must_place=wanted, roam=True) is None:
                assert solution is None, p.ident
        if solution is not None:
            assert sorted(solution.placed, key=lambda t: t.sort_key()) == sorted(
                wanted, key=lambda t: t.sort_key()
            )
            assert check(p.table, p.rack, solution) is None


def test_same_optimum_as_exhaustive_search_on_small_racks() -> None:
    rng = random.Random(11)
    for i in range(40):
        p = random_position(rng, [0, 3, 6][i % 3], 5, rack_jokers=i % 3, ident=str(i))
        objective = "value" if i % 2 else "tiles"
        solution = solve(p.table, p.rack, objective=objective)
        assert solution_score(solution, objective) == exhaustive_optimum(
            p.table, p.rack, objective
        ), p.ident


def test_same_tile_count_as_rummikub_solver_without_jokers() -> None:
    rng = random.Random(5)
    for i in range(40):
        p = random_position(rng, [0, 15, 30, 60][i % 4], 6 + i % 20, ident=str(i))
        solution = solve(p.table, p.rack)
        ours = len(solution.placed) if solution is not None else 0
        assert ours == (reference_tile_count(p.table, p.rack) or 0), p.ident


def test_rummikub_solver_misses_joker_sets_we_find() -> None:
    from tests.engine.test_solver import position

    # A 4-group with a joker: the reference finds no arrangement of this table at all...
    table, rack = position("K5 B5 O5 J", "R7 K9")
    assert reference_tile_count(table, rack) is None
    # ...and with a run on the rack it pulls the joker out of the group (not allowed).
    table, rack = position("K5 B5 O5 J", "R7 R8 R9")
    assert reference_tile_count(table, rack) == 2
    ours = solve(table, rack)
    assert ours is not None and len(ours.placed) == 3
    # A joker at the end of a 4-run or as the fourth of a group: we place 2, it places 1.
    table, rack = position("R4 R5 R6 / K9 B9 O9", "R7 K9 J")
    assert reference_tile_count(table, rack) == 1
    ours = solve(table, rack)
    assert ours is not None and len(ours.placed) == 2
