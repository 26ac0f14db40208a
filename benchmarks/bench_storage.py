"""Storage benchmark: save and load per turn, and resuming 10,000 stored games at start-up.

    .venv/bin/python benchmarks/bench_storage.py            # SQLite, plus PostgreSQL if
                                                            # TEST_DATABASE_URL is set
    .venv/bin/python benchmarks/bench_storage.py --pg-url postgresql+asyncpg://postgres@127.0.0.1/test

Turns come from real engine games (a simple player: plays the melds it finds, else draws), so
snapshots and logs have realistic sizes. The reference for SQLite is a bare stdlib ``sqlite3``
UPDATE + COMMIT of the same snapshot with the same pragmas, measured in the same run: the ratio
says what SQLAlchemy, the ORM and the version check cost on top of the disk. PostgreSQL runs in
a throw-away schema that is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, Rules
from storage import Database, Seat
from storage.models import GameActionRow, GameRow, utcnow
from tests.storage.crash_worker import end_turn, next_steps
from tests.storage.scratch import scratch_schema

SAVE_TARGET_MS = 5.0
RESUME_TARGET_S = 5.0


def quantiles(samples: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.2f} ms"


def play_turn(game: Game) -> tuple[list[str], list[str]]:
    """Play one turn of the simple player; returns (draft steps, new log entries)."""
    draft = game.draft()
    steps = next_steps(game, draft)
    for step in steps:
        draft.apply_text(step)
    before = len(game.log)
    end_turn(game, draft)
    return steps, game.log[before:]


async def bench_turns(db: Database, turns: int, rng: random.Random) -> dict[str, float]:
    """Save every committed turn (and every draft step) of several games; time each call."""
    saves: list[float] = []
    drafts: list[float] = []
    loads: list[float] = []
    games: dict[int, tuple[Game, int]] = {}
    channel = 0
    while len(saves) < turns:
        if len(games) < 8:
            seed = rng.getrandbits(60)
            game = Game.new(rng.choice([2, 3, 4]), seed, Rules())
            stored = await db.games.create(
                platform="bench",
                channel_id=f"turns-{channel}",
                seats=[Seat(f"p{i}", f"Player {i}") for i in range(game.player_count)],
                seed=seed,
                setup=game.rules.to_text(),
                snapshot=game.to_text(),
            )
            channel += 1
            games[stored.id] = (game, stored.version)
        game_id = rng.choice(list(games))
        game, version = games[game_id]
        steps, new_actions = play_turn(game)
        for i in range(len(steps)):
            t0 = time.perf_counter()
            version = await db.games.save_draft(
                game_id, expected_version=version, draft=steps[: i + 1]
            )
            drafts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        if game.result is not None:
            await db.games.finish(
                game_id,
                expected_version=version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                scores=list(game.result.scores),
                winner=game.result.winner,
            )
            del games[game_id]
        else:
            version = await db.games.save_turn(
                game_id,
                expected_version=version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                deadline=utcnow() + timedelta(seconds=60),
                turn=game.turn,
            )
            games[game_id] = (game, version)
        saves.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await db.games.load(game_id)
        loads.append(time.perf_counter() - t0)
    save_median, save_p99 = quantiles(saves)
    draft_median, draft_p99 = quantiles(drafts or [0.0])
    load_median, load_p99 = quantiles(loads)
    return {
        "save_median": save_median,
        "save_p99": save_p99,
        "draft_median": draft_median,
        "draft_p99": draft_p99,
        "load_median": load_median,
        "load_p99": load_p99,
    }


def raw_sqlite_reference(path: Path, snapshot: str, runs: int, synchronous: str) -> float:
    """Median time of a bare stdlib UPDATE + COMMIT of one snapshot (the disk's floor)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={synchronous}")
    connection.execute("CREATE TABLE IF NOT EXISTS ref (id INTEGER PRIMARY KEY, v INT, s TEXT)")
    connection.execute("INSERT OR REPLACE INTO ref VALUES (1, 0, ?)", (snapshot,))
    samples = []
    for i in range(runs):
        t0 = time.perf_counter()
        connection.execute("BEGIN")
        connection.execute(
            "UPDATE ref SET v = ?, s = ? WHERE id = 1 AND v = ?", (i + 1, snapshot, i)
        )
        connection.execute("COMMIT")
        samples.append(time.perf_counter() - t0)
    connection.close()
    return statistics.median(samples)


def stored_games(
    count: int, active: int, templates: int, rng: random.Random
) -> list[tuple[Game, bool]]:
    """``count`` games (``active`` of them unfinished), drawn from ``templates`` real games.

    Each template is a game played by the simple player (an unfinished one stopped after 0-40
    turns); rows reuse templates because playing 10,000 games would take minutes, while what
    is measured - rows, log sizes and snapshot parsing - is the same.
    """
    unfinished: list[Game] = []
    finished: list[Game] = []
    while len(unfinished) < templates // 2 or len(finished) < templates - templates // 2:
        game = Game.new(rng.choice([2, 3, 4]), rng.getrandbits(60), Rules())
        want_active = len(unfinished) < templates // 2
        for _ in range(rng.randint(0, 40) if want_active else 300):
            if game.finished:
                break
            play_turn(game)
        if want_active and not game.finished:
            unfinished.append(game)
        elif game.finished and len(finished) < templates - templates // 2:
            finished.append(game)
    return [
        (rng.choice(unfinished), True) if index < active else (rng.choice(finished), False)
        for index in range(count)
    ]


async def populate(db: Database, games: list[tuple[Game, bool]]) -> None:
    """Bulk-insert stored games directly (creating 10,000 one by one is not what is measured)."""
    now = utcnow()
    game_rows: list[dict[str, Any]] = []
    action_rows: list[dict[str, Any]] = []
    for index, (game, active) in enumerate(games, start=1):
        game_rows.append(
            {
                "id": index,
                "version": 1 + len(game.log),
                "platform": "bench",
                "channel_id": f"resume-{index}",
                "seats": [Seat(f"p{i}", f"Player {i}").to_json() for i in range(game.player_count)],
                "seed": game.seed,
                "setup": game.rules.to_text(),
                "snapshot": game.to_text(),
                "action_count": len(game.log),
                "draft": [],
                "status": game.status,
                "turn": game.turn,
                "deadline": now + timedelta(seconds=60) if active else None,
                "result": None if game.result is None else {"text": game.result.to_text()},
                "created_at": now,
                "updated_at": now,
                "finished_at": None if active else now,
            }
        )
        action_rows.extend(
            {"game_id": index, "seq": seq, "action": action} for seq, action in enumerate(game.log)
        )
    async with db.transaction() as session:
        game_table = GameRow.__table__  # type: ignore[attr-defined]
        action_table = GameActionRow.__table__  # type: ignore[attr-defined]
        for start in range(0, len(game_rows), 2000):
            await session.execute(game_table.insert(), game_rows[start : start + 2000])
        for start in range(0, len(action_rows), 20000):
            await session.execute(action_table.insert(), action_rows[start : start + 20000])
        if db.dialect == "postgresql":
            from sqlalchemy import text

            await session.execute(
                text("SELECT setval(pg_get_serial_sequence('game', 'id'), :n)"), {"n": len(games)}
            )


async def bench_resume(make_db: Callable[[], Database], expected: int) -> dict[str, float]:
    """A fresh process's start-up: open, migrate (no-op), list active games, parse snapshots."""
    t0 = time.perf_counter()
    db = make_db()
    await db.start()
    t1 = time.perf_counter()
    active = await db.games.list_active()
    t2 = time.perf_counter()
    parsed = [Game.from_text(g.snapshot) for g in active]
    t3 = time.perf_counter()
    with_logs = await db.games.list_active(with_actions=True)
    t4 = time.perf_counter()
    await db.close()
    assert len(active) == len(parsed) == len(with_logs) == expected, (len(active), expected)
    return {
        "start": t1 - t0,
        "list": t2 - t1,
        "parse": t3 - t2,
        "total": t3 - t0,
        "list_with_logs": t4 - t3,
    }


async def main_async(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    print(f"storage benchmark: {args.turns} saved turns per backend, resume of {args.games} games")
    print(f"({args.active} active); targets: save median < {SAVE_TARGET_MS} ms on SQLite, ")
    print(f"resume < {RESUME_TARGET_S} s.\n")
    print("making the stored games with the engine ...", flush=True)
    t0 = time.perf_counter()
    games = stored_games(args.games, args.active, args.templates, rng)
    mean_snapshot = statistics.mean(len(g.to_text()) for g, _ in games)
    mean_log = statistics.mean(len(g.log) for g, _ in games)
    print(
        f"  {args.templates} played games in {time.perf_counter() - t0:.1f} s; stored rows have "
        f"snapshots of {mean_snapshot:.0f} bytes and {mean_log:.0f} log entries on average\n"
    )
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        backends: list[tuple[str, Callable[[], Database], Any]] = []
        for sync in ("FULL", "NORMAL"):
            turns_path = Path(scratch) / f"turns-{sync}.db"
            resume_path = Path(scratch) / f"resume-{sync}.db"
            backends.append(
                (
                    f"SQLite synchronous={sync}",
                    lambda p=turns_path, s=sync: Database(
                        f"sqlite+aiosqlite:///{p}", sqlite_synchronous=s
                    ),
                    lambda p=resume_path, s=sync: Database(
                        f"sqlite+aiosqlite:///{p}", sqlite_synchronous=s
                    ),
                )
            )
        pg_url = args.pg_url or os.environ.get("TEST_DATABASE_URL")
        for name, make_turns_db, make_resume_db in backends:
            await report(name, make_turns_db, make_resume_db, games, args, failures, scratch)
        if pg_url:
            async with (
                scratch_schema(pg_url, "rk_bench") as turns_schema,
                scratch_schema(pg_url, "rk_bench") as resume_schema,
            ):
                await report(
                    "PostgreSQL",
                    lambda: Database(pg_url, schema=turns_schema),
                    lambda: Database(pg_url, schema=resume_schema),
                    games,
                    args,
                    failures,
                    scratch,
                )
        else:
            print("PostgreSQL: skipped (set TEST_DATABASE_URL or pass --pg-url)")
    if failures:
        print("\nMISSED: " + "; ".join(failures))
        return 1
    print("\nall targets met")
    return 0


async def report(
    name: str,
    make_turns_db: Callable[[], Database],
    make_resume_db: Callable[[], Database],
    games: list[tuple[Game, bool]],
    args: argparse.Namespace,
    failures: list[str],
    scratch: str,
) -> None:
    rng = random.Random(args.seed)
    db = make_turns_db()
    await db.start()
    try:
        turn = await bench_turns(db, args.turns, rng)
    finally:
        await db.close()
    print(f"{name}")
    print(f"  save a turn   median {ms(turn['save_median'])}   p99 {ms(turn['save_p99'])}")
    print(f"  save a draft  median {ms(turn['draft_median'])}   p99 {ms(turn['draft_p99'])}")
    print(f"  load a game   median {ms(turn['load_median'])}   p99 {ms(turn['load_p99'])}")
    if name.startswith("SQLite"):
        sync = name.rsplit("=", 1)[1]
        snapshot = games[0][0].to_text()
        reference = raw_sqlite_reference(Path(scratch) / f"ref-{sync}.db", snapshot, 300, sync)
        print(
            f"  reference: bare sqlite3 UPDATE+COMMIT {ms(reference)}; save is "
            f"{turn['save_median'] / reference:.1f}x that"
        )
        if sync == "FULL" and turn["save_median"] * 1000 >= SAVE_TARGET_MS:
            failures.append(f"{name} save median {ms(turn['save_median']).strip()}")
    resume_db = make_resume_db()
    await resume_db.start()
    try:
        await populate(resume_db, games)
    finally:
        await resume_db.close()
    active = sum(1 for _, is_active in games if is_active)
    resume = await bench_resume(make_resume_db, active)
    storage_part = resume["start"] + resume["list"]
    print(
        f"  resume {len(games)} games: storage {storage_part:.2f} s (open+migrate "
        f"{resume['start']:.2f} s, load {active} active {resume['list']:.2f} s; with their "
        f"action logs {resume['list_with_logs']:.2f} s), target {RESUME_TARGET_S:.0f} s, "
        f"{storage_part / RESUME_TARGET_S:.0%} of it"
    )
    print(
        f"  + Game.from_text of every active snapshot {resume['parse']:.2f} s "
        f"({resume['parse'] / active * 1000:.2f} ms each): {resume['total']:.2f} s in all"
        + ("" if resume["total"] < RESUME_TARGET_S else "  <- over the target, in the engine")
        + "\n"
    )
    if storage_part >= RESUME_TARGET_S:
        failures.append(f"{name} resume {storage_part:.2f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=400, help="turns saved per backend")
    parser.add_argument("--games", type=int, default=10_000, help="stored games to resume")
    parser.add_argument("--active", type=int, default=5_000, help="of which unfinished")
    parser.add_argument("--templates", type=int, default=100, help="distinct played games")
    parser.add_argument("--pg-url", help="PostgreSQL URL (default: $TEST_DATABASE_URL)")
    parser.add_argument("--seed", type=int, default=2026)
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
