"""Two versions of the solver side by side in one process (a research tool for issue 27).

Each version is a copy of ``engine/solver`` at a git revision (``WORK``: the files as they are
now), its imports renamed so that both load at once (``ab_a``, ``ab_b``), pure Python or, with
``--compile``, built with mypyc the way ``setup.py`` builds the package. Every position is
solved by both in turn, the first alternating from one position to the next, timed by the CPU
time of the calling thread; per kind of position it prints the medians, the p99 and the sums of
both and B's over A's, and how many answers (tiles placed, value) differ.

On this 2-core machine the CPU clock itself drifts by tens of percent within minutes, so two
runs of ``bench_solver_kinds.py`` minutes apart cannot tell a 5% change; side by side, position
by position, they can (docs/solver.md, "The ninth round").

Run: ``.venv/bin/python benchmarks/ab_solver.py [--a HEAD] [--b WORK] [--compile]
[--suites mid,jokers,synthetic,game] [--seed 2026]`` (pure: about 3 minutes for the four
suites; compiled: two builds of about 40 s each first).
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import game_positions, joker_positions, pct
from bench_solver_kinds import answer, kind_of

from engine.solver.native import NOT_COMPILED
from tests.engine.solver_oracle import Position, mid_game_suite, position_suite

ROOT = Path(__file__).resolve().parents[1]


BUILD = """
import sys
from pathlib import Path
from mypyc.build import mypycify
from setuptools import setup
names = [f"{package}/{p.name}" for p in sorted(Path("{package}").glob("*.py"))
         if p.name != "__init__.py"]
sys.argv = ["setup.py", "build_ext", "--inplace", "-q", "--build-temp", "build_{package}"]
setup(name="{package}", ext_modules=mypycify(names, opt_level="3"))
"""


def _sources(revision: str) -> dict[str, str]:
    """The solver's modules at ``revision`` (``WORK``: the work tree), by file name."""
    folder = ROOT / "engine" / "solver"
    if revision == "WORK":
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))}
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", revision, "engine/solver/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    out = {}
    for path in listing:
        if path.endswith(".py"):
            text = subprocess.run(
                ["git", "show", f"{revision}:{path}"],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            out[Path(path).name] = text
    return out


def make_copy(revision: str, package: str, where: Path, compile_it: bool) -> None:
    """Write ``engine/solver`` at ``revision`` as ``package`` under ``where`` (and build it)."""
    folder = where / package
    folder.mkdir()
    for name, text in _sources(revision).items():
        if name not in NOT_COMPILED:  # as setup.py: the entry point and the chooser stay out
            renamed = text.replace("engine.solver.", f"{package}.")
            (folder / name).write_text(renamed, encoding="utf-8")
    (folder / "__init__.py").write_text(f'"""engine/solver at {revision}."""\n', encoding="utf-8")
    if compile_it:
        env = {**os.environ, "MYPYPATH": str(ROOT)}
        subprocess.run(
            [sys.executable, "-c", BUILD.replace("{package}", package)],
            cwd=where,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


SUITES: dict[str, Callable[[int], list[Position]]] = {
    "mid": lambda seed: mid_game_suite(540, seed),
    "jokers": lambda seed: joker_positions(200, seed),
    "synthetic": lambda seed: position_suite(300, seed),
    "game": lambda seed: game_positions(6, seed),
}

Solve = Callable[..., object]


def compare(name: str, positions: list[Position], a: Solve, b: Solve) -> None:
    """Solve every position with both (alternating which first) and print the kinds."""
    times: dict[tuple[str, str, str], tuple[list[float], list[float]]] = {}
    differ = 0
    for index, p in enumerate(positions):
        order = (a, b) if index % 2 == 0 else (b, a)
        answers = {}
        for solve in order:
            start = time.thread_time()
            solution = solve(p.table, p.rack, minimal_change=False)
            spent = 1000 * (time.thread_time() - start)
            pair = times.setdefault(kind_of(p), ([], []))
            pair[0 if solve is a else 1].append(spent)
            answers[solve is a] = answer(solution)
        differ += answers[True] != answers[False]
    print(f"\n{name}: {len(positions)} positions, answers differ on {differ}")
    print(f"{'table':>6} {'tj':>3} {'rj':>3} {'n':>4} | median A / B | p99 A / B | sum A / B (B/A)")
    kinds = sorted(times, key=lambda k: (int(k[0].split("-")[0]), k[1], k[2]))
    all_a: list[float] = []
    all_b: list[float] = []
    for kind in kinds:
        ta, tb = times[kind]
        all_a += ta
        all_b += tb
        print(
            f"{kind[0]:>6} {kind[1]:>3} {kind[2]:>3} {len(ta):>4} | "
            f"{statistics.median(ta):6.2f} {statistics.median(tb):6.2f} "
            f"({statistics.median(tb) / statistics.median(ta):.3f}) | "
            f"{pct(ta, 0.99):6.1f} {pct(tb, 0.99):6.1f} | "
            f"{sum(ta):7.0f} {sum(tb):7.0f} ({sum(tb) / sum(ta):.3f})"
        )
    print(
        f"{'all':>14} {len(all_a):>4} | {statistics.median(all_a):6.2f} "
        f"{statistics.median(all_b):6.2f} | sum {sum(all_a):.0f} {sum(all_b):.0f} "
        f"({sum(all_b) / sum(all_a):.3f})",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="HEAD", help="git revision of A (WORK: the work tree)")
    parser.add_argument("--b", default="WORK", help="git revision of B (WORK: the work tree)")
    parser.add_argument("--compile", action="store_true", help="build both with mypyc")
    parser.add_argument("--suites", default="mid,jokers,synthetic,game")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    names = args.suites.split(",")
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        parser.error(f"unknown suite {unknown[0]!r}: choose from {', '.join(SUITES)}")
    with tempfile.TemporaryDirectory(prefix="ab-solver-") as tmp:
        where = Path(tmp)
        make_copy(args.a, "ab_a", where, args.compile)
        make_copy(args.b, "ab_b", where, args.compile)
        sys.path.insert(0, str(where))
        a = importlib.import_module("ab_a.api")
        b = importlib.import_module("ab_b.api")
        build = "compiled" if args.compile else "pure"
        print(f"A = {args.a}, B = {args.b}, {build}; CPU ms per position")
        for p in position_suite(3, 1):  # warm both up
            a.solve(p.table, p.rack)
            b.solve(p.table, p.rack)
        for name in names:
            compare(name, SUITES[name](args.seed), a.solve, b.solve)
    return 0


if __name__ == "__main__":
    sys.exit(main())
