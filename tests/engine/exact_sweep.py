"""Sweep the solver against the exact oracle on new seeded positions (docs/solver.md,
"Correctness evidence"): ``python -m tests.engine.exact_sweep --seed 7 --count 400``.

Kinds: ``test`` (like test_solver_exact.py's positions: tables of 30-80 tiles, one or two
table jokers, a tenth XP, every fourth in the opening), ``xp`` (a third XP with one to three
table jokers, the minimal-change pass on half), ``hard`` (tables of 45-80 tiles, always two
table jokers, one or two rack jokers), ``mid`` (the mid-game positions of
benchmarks/bench_solver_kinds.py: tables of 30-80 tiles with 0-2 table and 0-2 rack jokers,
racks of 6-30, the minimal-change pass on a third). Prints every position where the solver's
score differs from the oracle's (or falls outside its bounds when the time limit was hit), then
a summary.
"""

from __future__ import annotations

import argparse
import random

from engine.solver import solve
from engine.tiles import Edition
from tests.engine.exact_oracle import exact_turn
from tests.engine.solver_oracle import (
    Position,
    mid_game_suite,
    random_position,
    solution_score,
)


def _position(rng: random.Random, kind: str, i: int) -> Position:
    """The ``i``-th position of a ``test``, ``xp`` or ``hard`` sweep."""
    xp = i % 3 == 2 if kind == "xp" else i % 10 == 9
    size = [45, 60, 80][i % 3] if kind == "hard" else [30, 45, 60, 80][i % 4]
    rack_size = rng.randint(6, 24)
    if kind == "hard":
        table_jokers, rack_jokers = 2, rng.choice([1, 2])
    else:
        table_jokers = rng.choice([1, 2, 2, 3] if kind == "xp" and xp else [1, 2])
        rack_jokers = rng.choice([0, 1, 2])
    return random_position(
        rng,
        size,
        rack_size,
        edition=Edition.XP if xp else Edition.CLASSIC,
        table_jokers=table_jokers,
        rack_jokers=rack_jokers,
        ident=str(i),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--kind", choices=("test", "xp", "hard", "mid"), default="test")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mid = mid_game_suite(args.count, args.seed) if args.kind == "mid" else []
    seconds = []
    misses = unproved = retrieving = 0
    for i in range(args.count):
        p = mid[i] if mid else _position(rng, args.kind, i)
        # The mid-game suite cycles through 18 kinds: vary the objective by cycle instead.
        cycle = i // 18 if mid else i
        objective = "value" if cycle % 2 else "tiles"
        opening = cycle % 4 == 3
        answer = exact_turn(p.table, p.rack, objective, opening=opening, time_limit=args.time_limit)
        minimal = (args.kind == "xp" and i % 2 == 0) or (args.kind == "mid" and i % 3 == 0)
        solution = solve(
            p.table, p.rack, objective=objective, opening=opening, minimal_change=minimal
        )
        ours = solution_score(solution, objective)
        seconds.append(answer.seconds)
        unproved += not answer.proved
        retrieving += answer.retrieved > 0
        right = ours == answer.score if answer.proved else answer.score <= ours <= answer.bound
        if not right:
            misses += 1
            table = " / ".join(m.text() for m in p.table)
            rack = " ".join(map(str, p.rack))
            print(
                f"MISS {i} {objective} opening={opening} {p.edition.value}: solver {ours}, "
                f"oracle {answer.score} (bound {answer.bound}) | {table} | {rack}",
                flush=True,
            )
    seconds.sort()
    n = len(seconds)
    print(
        f"{n} positions, {misses} missed, {unproved} unproved, {retrieving} oracle tables "
        f"retrieve; oracle median {seconds[n // 2]:.2f} s, p90 {seconds[int(n * 0.9)]:.2f} s, "
        f"max {seconds[-1]:.2f} s"
    )


if __name__ == "__main__":
    main()
