"""``rummikub simulate``: seeded AI-vs-AI games with win rates, scores, turns and think time.

Every AI turn goes through ``Draft.arrange_melds`` and ``Game.commit`` (or ``Game.draw``), the
same path as a person's, so a refused move would be counted as illegal; conservation of the box
is checked after every turn. With ``--mirror`` each deal is also played with the seats rotated,
so luck of the deal cancels out between levels.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.cli import options


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", type=options.positive("--games"), default=20, help="deals to play (default 20)"
    )
    parser.add_argument(
        "--seats",
        default="hard,medium",
        help="AI level per seat, comma-separated: easy, medium, hard (default hard,medium)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    parser.add_argument(
        "--mirror", action="store_true", help="also play each deal with the seats rotated"
    )
    parser.add_argument(
        "--threshold",
        type=options.setting("threshold"),
        default=30,
        help=f"initial meld total, {options.span('threshold')} (30)",
    )
    parser.add_argument(
        "--max-turns",
        type=options.positive("--max-turns"),
        default=1000,
        help="stop a game after this many turns",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass
class GameRecord:
    seed: int
    levels: tuple[str, ...]
    winner: int | None  # seat; None if unfinished
    scores: tuple[int, ...]
    turns: int
    illegal: int
    think: list[float] = field(default_factory=list)


def play_game(
    seed: int, levels: Sequence[str], *, threshold: int = 30, max_turns: int = 1000
) -> GameRecord:
    """One seeded game between AI seats; think times are in seconds."""
    from engine import Game, Rules
    from engine.ai import take_turn
    from engine.tiles import Edition

    edition = Edition.CLASSIC if len(levels) <= 4 else Edition.XP
    game = Game.new(len(levels), seed, Rules(edition=edition, opening_threshold=threshold))
    illegal = 0
    think: list[float] = []
    while not game.finished and game.turn <= max_turns:
        level = levels[game.current]
        start = time.perf_counter()
        _, refused = take_turn(game, level)
        think.append(time.perf_counter() - start)
        illegal += refused
        game.check_conservation()
    result = game.result
    if result is None:
        return GameRecord(seed, tuple(levels), None, (0,) * len(levels), game.turn, illegal, think)
    return GameRecord(seed, tuple(levels), result.winner, result.scores, game.turn, illegal, think)


def run(
    games: int, seats: Sequence[str], seed: int, *, mirror: bool, threshold: int, max_turns: int
) -> list[GameRecord]:
    records = []
    for index in range(games):
        rotations = range(len(seats)) if mirror else range(1)
        for shift in rotations:
            levels = list(seats[shift:]) + list(seats[:shift])
            records.append(
                play_game(seed + index, levels, threshold=threshold, max_turns=max_turns)
            )
    return records


def summary(records: Sequence[GameRecord]) -> dict[str, object]:
    levels = sorted({lv for r in records for lv in r.levels})
    per_level: dict[str, dict[str, float]] = {}
    for level in levels:
        seats = [(r, s) for r in records for s, lv in enumerate(r.levels) if lv == level]
        finished = [(r, s) for r, s in seats if r.winner is not None]
        wins = sum(1 for r, s in finished if r.winner == s)
        per_level[level] = {
            "seats": len(seats),
            "wins": wins,
            "win_rate": round(wins / len(finished), 3) if finished else 0.0,
            "mean_score": round(statistics.fmean(r.scores[s] for r, s in finished), 1)
            if finished
            else 0.0,
        }
    think = sorted(t for r in records for t in r.think)
    done = [r for r in records if r.winner is not None]
    return {
        "games": len(records),
        "finished": len(done),
        "unfinished": len(records) - len(done),
        "illegal": sum(r.illegal for r in records),
        "turns_per_game": round(statistics.fmean(r.turns for r in records), 1) if records else 0,
        "levels": per_level,
        "think_ms": {
            "turns": len(think),
            "median": round(1000 * statistics.median(think), 2) if think else 0.0,
            "p99": round(1000 * think[int(0.99 * (len(think) - 1))], 2) if think else 0.0,
            "max": round(1000 * think[-1], 2) if think else 0.0,
        },
    }


def main(args: argparse.Namespace) -> int:
    from engine.ai import AI_LEVELS

    seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
    bad = [s for s in seats if s not in AI_LEVELS]
    if bad:
        print(f"Unknown AI level {bad[0]!r}; use {', '.join(AI_LEVELS)}.", file=sys.stderr)
        return 2
    if not 2 <= len(seats) <= 6:
        print(f"A table has 2 to 6 seats, not {len(seats)}.", file=sys.stderr)
        return 2
    records = run(
        args.games,
        seats,
        args.seed,
        mirror=args.mirror,
        threshold=args.threshold,
        max_turns=args.max_turns,
    )
    report = summary(records)
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{report['games']} games ({report['finished']} finished, "
        f"{report['unfinished']} unfinished, {report['illegal']} illegal moves), "
        f"{report['turns_per_game']} turns per game"
    )
    levels = report["levels"]
    assert isinstance(levels, dict)
    for level, stats in levels.items():
        print(
            f"  {level:<7} seats {stats['seats']:>4}  wins {stats['wins']:>4}  "
            f"win rate {100 * stats['win_rate']:5.1f}%  mean score {stats['mean_score']:7.1f}"
        )
    think = report["think_ms"]
    assert isinstance(think, dict)
    print(
        f"  AI think time over {think['turns']} turns: median {think['median']} ms, "
        f"p99 {think['p99']} ms, max {think['max']} ms"
    )
    return 0
