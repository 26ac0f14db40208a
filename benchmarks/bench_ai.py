"""AI strength and think time: mirrored seeded two-player games, every move through the draft.

Run: ``.venv/bin/python benchmarks/bench_ai.py [--deals 100] [--seeds 1,1001]``

Each deal is played twice with the seats swapped (same tiles, same order), so the luck of the
deal cancels out: 100 deals give 200 games per pairing and seed set. It prints, for hard vs
medium and medium vs easy, per seed set and over all of them, the stronger level's win rate with
a 95% interval, mean scores, turns per game, illegal (refused) moves and unfinished games, and
the AI think time per turn (median, p99, max).
Targets: hard beats medium and medium beats easy in at least 60% of games; think time p99
under 1 s; no illegal or unfinished game.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cli.simulate import GameRecord, play_game


def pairing(strong: str, weak: str, deals: int, seed: int) -> tuple[list[GameRecord], float]:
    start = time.perf_counter()
    records = []
    for index in range(deals):
        records.append(play_game(seed + index, [strong, weak]))
        records.append(play_game(seed + index, [weak, strong]))
    return records, time.perf_counter() - start


def describe(
    strong: str, weak: str, records: list[GameRecord], seconds: float, label: str = ""
) -> dict[str, float]:
    finished = [r for r in records if r.winner is not None]
    wins = sum(1 for r in finished if r.levels[r.winner] == strong)  # type: ignore[index]
    n = len(finished)
    rate = wins / n if n else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / n) if n else 0.0
    strong_scores = [r.scores[r.levels.index(strong)] for r in finished]
    weak_scores = [r.scores[r.levels.index(weak)] for r in finished]
    think = sorted(t * 1000 for r in records for t in r.think)
    p99 = think[int(0.99 * (len(think) - 1))]
    illegal = sum(r.illegal for r in records)
    print(f"\n{strong} vs {weak}{label}: {len(records)} games ({seconds:.0f} s)")
    print(
        f"  {strong} wins {wins}/{n} = {100 * rate:.1f}% "
        f"(95% interval {100 * (rate - half):.1f}-{100 * (rate + half):.1f}%)"
    )
    print(
        f"  mean score {strong} {statistics.fmean(strong_scores):+.1f}, "
        f"{weak} {statistics.fmean(weak_scores):+.1f}; "
        f"{statistics.fmean(r.turns for r in records):.1f} turns per game"
    )
    print(f"  illegal moves {illegal}, unfinished games {len(records) - n}")
    print(
        f"  think time per AI turn: median {statistics.median(think):.1f} ms, "
        f"p99 {p99:.1f} ms, max {think[-1]:.1f} ms over {len(think)} turns"
    )
    return {"rate": rate, "p99": p99, "illegal": illegal, "unfinished": len(records) - n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per seed set (100)")
    parser.add_argument(
        "--seeds", default="1,1001", help="first seed of each seed set, comma-separated (1,1001)"
    )
    parser.add_argument(
        "--pairings", default="hard:medium,medium:easy", help="strong:weak pairs to play"
    )
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    pairs = [tuple(p.split(":")) for p in args.pairings.split(",") if p.strip()]
    results = []
    for strong, weak in pairs:
        everything: list[GameRecord] = []
        total = 0.0
        for seed in seeds:
            records, seconds = pairing(strong, weak, args.deals, seed)
            label = f", seeds {seed}-{seed + args.deals - 1}"
            summary = describe(strong, weak, records, seconds, label)
            everything += records
            total += seconds
        if len(seeds) > 1:
            summary = describe(strong, weak, everything, total, ", all seed sets")
        results.append((strong, weak, summary))
    print()
    for strong, weak, r in results:
        ok = r["rate"] >= 0.6 and r["p99"] < 1000 and not r["illegal"] and not r["unfinished"]
        print(
            f"{strong} vs {weak}: {100 * r['rate']:.1f}% wins, think p99 {r['p99']:.0f} ms -> "
            f"targets {'met' if ok else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
