"""Solver speed by kind of position (issue 27): the compiled build, the pure build and
rummikub-solver 1.0.0 on the same positions in the same run.

Run: ``.venv/bin/python benchmarks/bench_solver_kinds.py [--mid 540] [--synthetic 300]
[--jokers 200] [--games 6] [--seed 2026] [--clock wall|cpu]`` (about ten minutes on a busy
2-core machine; ``--quick`` for a first look; ``--only mid`` runs one suite). ``--clock cpu``
times each solve by the CPU time of the calling thread instead of the wall clock: on a machine
shared with other jobs that leaves out the time the process waits for a core (the reference's
HiGHS works in that thread too).

Suites:

* ``mid``: mid-game tables (``tests.engine.solver_oracle.mid_game_suite``): 30-59 and 60-80
  tiles built from legal sets, exactly 0, 1 or 2 jokers on the table and 0, 1 or 2 on the rack
  (every combination in turn; XP where the box needs more than two jokers), racks of 6-30;
* ``game``, ``synthetic`` and ``table jokers``: the suites of ``bench_solver.py``.

Each position is solved once by each solver, in turn (compiled, pure, reference), so all three
see the same load: ours is the exact optimum with joker retrieval (``minimal_change=False``),
the reference's ``solve`` in TILE_COUNT mode. Rows are kinds of position, as in issue 27:
table tiles (0-29, 30-59, 60-80), jokers on the table (yes/no) and on the rack (yes/no);
milliseconds, median, p99 and max; "ratio" is the reference's median over ours (compiled),
"pure/c" the pure build's median over the compiled one's. Targets (compiled): median at least
10x faster than the reference for every kind, p99 under 25 ms, max under 100 ms; pure within 2x
of compiled. The compiled and pure answers must score the same (it says so when they do not).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import game_positions, joker_positions, pct

from engine.solver import COMPILED, solve
from engine.solver.api import solve as pure_solve
from tests.engine.solver_oracle import (
    Position,
    mid_game_suite,
    position_suite,
    reference_tile_count,
)

SIZES = ((0, 29), (30, 59), (60, 200))
TARGET_RATIO = 10.0
TARGET_P99 = 25.0
TARGET_MAX = 100.0
TARGET_PURE = 2.0


class Row(NamedTuple):
    """One position's kind and times (ms)."""

    kind: tuple[str, str, str]
    compiled: float
    pure: float
    reference: float


def kind_of(p: Position) -> tuple[str, str, str]:
    tiles = sum(len(m) for m in p.table)
    size = next(f"{lo}-{min(hi, 80)}" for lo, hi in SIZES if lo <= tiles <= hi)
    table_jokers = "yes" if any(m.jokers for m in p.table) else "no"
    rack_jokers = "yes" if any(t.is_joker for t in p.rack) else "no"
    return size, table_jokers, rack_jokers


def answer(solution: object) -> tuple[int, int]:
    """Tiles placed and their value (the two builds' Solution classes differ)."""
    if solution is None:
        return 0, 0
    return len(solution.placed), solution.value  # type: ignore[attr-defined]


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def timed(fn: Callable[[], object], clock: Callable[[], float]) -> tuple[float, object]:
    start = clock()
    result = fn()
    return 1000 * (clock() - start), result


def measure(positions: Sequence[Position], clock: Callable[[], float]) -> tuple[list[Row], int]:
    """Every position solved once by each solver in turn; also how many answers differ."""
    rows: list[Row] = []
    differ = 0
    for p in positions:
        t_c, ours = timed(lambda p=p: solve(p.table, p.rack, minimal_change=False), clock)
        t_p, pure = timed(lambda p=p: pure_solve(p.table, p.rack, minimal_change=False), clock)
        t_r, _ = timed(lambda p=p: reference_tile_count(p.table, p.rack, p.edition), clock)
        if answer(ours) != answer(pure):
            differ += 1
            print(f"  compiled and pure differ on {p.ident}", flush=True)
        rows.append(Row(kind_of(p), t_c, t_p, t_r))
    return rows, differ


def stats(values: Sequence[float]) -> tuple[float, float, float]:
    return statistics.median(values), pct(values, 0.99), max(values)


class Verdict(NamedTuple):
    label: str
    n: int
    ratio: float
    p99: float
    worst: float
    pure: float

    def misses(self) -> list[str]:
        out = []
        if self.ratio < TARGET_RATIO:
            out.append(f"ratio {self.ratio:.1f}x < {TARGET_RATIO:.0f}x")
        if self.p99 >= TARGET_P99:
            out.append(f"p99 {self.p99:.1f} ms")
        if self.worst >= TARGET_MAX:
            out.append(f"max {self.worst:.1f} ms")
        if self.pure > TARGET_PURE:
            out.append(f"pure {self.pure:.2f}x compiled")
        return out


def report(name: str, rows: Sequence[Row]) -> list[Verdict]:
    print(f"\n{name}: {len(rows)} positions")
    print(
        f"{'table':>6} {'tj':>3} {'rj':>3} {'n':>4} | {'compiled':>8} {'p99':>6} {'max':>6} | "
        f"{'pure':>6} {'p99':>6} {'max':>6} | {'reference':>9} {'p99':>6} {'max':>6} | "
        f"{'ratio':>6} {'pure/c':>6}"
    )
    kinds = sorted({r.kind for r in rows}, key=lambda k: (int(k[0].split("-")[0]), k[1], k[2]))
    verdicts = []
    for kind in [*kinds, None]:
        sel = [r for r in rows if kind is None or r.kind == kind]
        c, p, ref = (stats([getattr(r, f) for r in sel]) for f in Row._fields[1:])
        ratio = ref[0] / c[0]
        pure = p[0] / c[0]
        size, tj, rj = kind if kind is not None else ("all", "", "")
        print(
            f"{size:>6} {tj:>3} {rj:>3} {len(sel):>4} | {c[0]:8.2f} {c[1]:6.1f} {c[2]:6.1f} | "
            f"{p[0]:6.2f} {p[1]:6.1f} {p[2]:6.1f} | {ref[0]:9.2f} {ref[1]:6.1f} {ref[2]:6.1f} | "
            f"{ratio:5.1f}x {pure:5.2f}x"
        )
        label = f"{name}, all" if kind is None else f"{name}, {size} tiles tj={tj} rj={rj}"
        verdicts.append(Verdict(label, len(sel), ratio, c[1], c[2], pure))
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mid", type=int, default=540, help="mid-game positions (540)")
    parser.add_argument("--synthetic", type=int, default=300, help="synthetic positions (300)")
    parser.add_argument("--jokers", type=int, default=200, help="table-joker positions (200)")
    parser.add_argument("--games", type=int, default=6, help="self-play games for positions")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=("mid", "game", "synthetic", "jokers"))
    parser.add_argument("--quick", action="store_true", help="a small subset of every suite")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall")
    args = parser.parse_args()
    if args.quick:
        args.mid, args.synthetic, args.jokers, args.games = 108, 60, 40, 1
    if not COMPILED:
        print("the compiled build is not installed (or stale): both columns are pure Python")
    print(f"clock: {args.clock}", flush=True)
    suites: dict[str, Callable[[], list[Position]]] = {
        "mid": lambda: mid_game_suite(args.mid, args.seed),
        "game": lambda: game_positions(args.games, args.seed),
        "synthetic": lambda: position_suite(args.synthetic, args.seed),
        "jokers": lambda: joker_positions(args.jokers, args.seed),
    }
    counts = {"mid": args.mid, "game": args.games, "synthetic": args.synthetic}
    counts["jokers"] = args.jokers
    for p in position_suite(3, 1):  # warm up all three (the reference compiles on first use)
        solve(p.table, p.rack)
        pure_solve(p.table, p.rack)
        reference_tile_count(p.table, p.rack, p.edition)
    verdicts: list[Verdict] = []
    differ = 0
    for name, build in suites.items():
        if (args.only and name != args.only) or not counts[name]:
            continue
        rows, wrong = measure(build(), CLOCKS[args.clock])
        differ += wrong
        verdicts += report(name, rows)
    print()
    missed = [(v, v.misses()) for v in verdicts if v.misses()]
    for v, why in missed:
        print(f"NOT met: {v.label} (n={v.n}): {', '.join(why)}")
    if not missed:
        print("every target met on every kind")
    if differ:
        print(f"compiled and pure answers differ on {differ} positions")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
