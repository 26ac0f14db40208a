"""Scale-out benchmark: 1, 2 and 4 bot processes sharing one PostgreSQL database.

    TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/bench_scaleout.py [--processes 1,2,4] [--games 48]
        [--seconds 30] [--think 0]

Each process is what ``rummikub run --shard-ids`` makes of a Discord shard: its own game manager
in shared mode (deadline leases, outbox sweeps) over the one database, serving only its own
channels. The same total number of games (``--games``) is split over the processes; in each
game two simulated people play (a set found on their rack, then ``done``; otherwise ``draw``),
flat out or, with ``--think S``, reading and thinking S seconds on average before each
command, against an easy AI seat, whose moves are leased in the database as every process's
deadline work is; every reply is confirmed delivered, as the adapters do (the outbox writes).
A finished match starts again in the same channel. The processes start together and run for
``--seconds``; the figures are commands per second over all of them, p50/p99 per command (and
for ``done``, which includes the AI's move), and the optimistic-locking conflicts counted by the
managers' metrics. Runs in a scratch schema it drops afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_manager import one_turn  # noqa: E402
from bot.api import ChannelRef, PlayerRef, confirm_delivery  # noqa: E402
from bot.manager import GameManager  # noqa: E402
from bot.presenter import Presenter  # noqa: E402
from storage import Database  # noqa: E402
from tests.storage.scratch import scratch_schema  # noqa: E402


async def one_channel(
    manager: GameManager,
    name: str,
    until: float,
    latencies: dict[str, list[float]],
    rng: random.Random,
    think: float,
) -> None:
    """Matches in one channel, flat out, until ``until`` (a ``time.time()``)."""
    channel = ChannelRef("bench", name)
    a = PlayerRef("bench", f"{name}-a", "A")
    b = PlayerRef("bench", f"{name}-b", "B")

    async def say(player: PlayerRef, text: str) -> None:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))  # a person reading and thinking
        start = time.perf_counter()
        replies = await manager.handle(player, channel, text)
        latencies.setdefault(text.split()[0], []).append(time.perf_counter() - start)
        await confirm_delivery(manager, replies)

    while time.time() < until:
        table = manager.tables.get(channel.key)
        if table is None:
            await say(a, "start threshold=0 games=1")
            await say(b, "join")
            await say(a, "addbot easy")
            await say(a, "deal")
            continue
        if table.game is None or table.game.finished:
            await asyncio.sleep(0.01)
            continue
        await one_turn(table.game, table.seat_of(a), a, b, say, rng)


async def worker(args: argparse.Namespace) -> None:
    """One bot process: its channels, flat out from ``--start-at`` for ``--seconds``."""
    db = Database(args.url, schema=args.schema)
    await db.start()
    manager = GameManager(
        db, presenter=Presenter(images=False), rng=random.Random(args.index), shared=True
    )
    await manager.resume()

    async def outbox(reply: object) -> None:  # AI and timer replies: delivered at once
        await confirm_delivery(manager, [reply])  # type: ignore[list-item]

    manager.set_outbox(outbox)
    latencies: dict[str, list[float]] = {}
    await asyncio.sleep(max(0.0, args.start_at - time.time()))
    started = time.perf_counter()
    until = args.start_at + args.seconds
    rng = random.Random(args.index)
    await asyncio.gather(
        *(
            one_channel(manager, f"p{args.index}-c{k}", until, latencies, rng, args.think)
            for k in range(args.games)
        )
    )
    elapsed = time.perf_counter() - started
    await manager.flush_confirmed()
    conflicts = manager.metrics.registry.get_sample_value("rummikub_database_conflicts_total")
    await manager.close()
    await db.close()
    print(
        json.dumps(
            {
                "elapsed": elapsed,
                "latencies": latencies,
                "conflicts": conflicts or 0,
                "internal_errors": manager.internal_errors,
            }
        )
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def run_processes(
    url: str, schema: str, processes: int, games: int, seconds: float, think: float
) -> dict[str, float]:
    start_at = time.time() + 6.0  # every process imported and connected by then
    per = max(1, games // processes)
    children = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--url",
                url,
                "--schema",
                schema,
                "--index",
                str(i),
                "--games",
                str(per),
                "--seconds",
                str(seconds),
                "--start-at",
                str(start_at),
                "--think",
                str(think),
            ],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for i in range(processes)
    ]
    results = []
    for child in children:
        out, _ = child.communicate(timeout=seconds + 300)
        if child.returncode != 0:
            raise SystemExit(f"a worker failed with status {child.returncode}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    everything: list[float] = []
    done: list[float] = []
    for result in results:
        for verb, values in result["latencies"].items():
            everything += values
            if verb == "done":
                done += values
    elapsed = max(r["elapsed"] for r in results)
    return {
        "processes": processes,
        "games": per * processes,
        "commands": len(everything),
        "per_second": len(everything) / elapsed,
        "p50": pct(everything, 0.5),
        "p99": pct(everything, 0.99),
        "done_p50": pct(done, 0.5),
        "done_p99": pct(done, 0.99),
        "conflicts": int(sum(r["conflicts"] for r in results)),
        "internal_errors": sum(r["internal_errors"] for r in results),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--games", type=int, default=48, help="concurrent games in total")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds before each command (0: flat out)"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--schema", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.url or not args.url.startswith("postgresql"):
        raise SystemExit("bench_scaleout: needs PostgreSQL: --url or TEST_DATABASE_URL.")
    if args.worker:
        await worker(args)
        return
    counts = [int(n) for n in args.processes.split(",")]
    pace = f"thinking {args.think:g} s per command" if args.think else "flat out"
    print(
        f"{args.games} games in total, two people and an easy AI seat each, {pace}, for "
        f"{args.seconds:.0f} s, on {os.cpu_count()} cores (load average before: "
        f"{os.getloadavg()[0]:.1f})"
    )
    print("processes  games  commands  commands/s  p50 ms  p99 ms  done p50/p99 ms  conflicts")
    rows = []
    for count in counts:
        async with scratch_schema(args.url, prefix="rk_scaleout") as schema:
            db = Database(args.url, schema=schema)
            await db.start()  # migrate once, before the processes start
            await db.close()
            row = await asyncio.to_thread(
                run_processes, args.url, schema, count, args.games, args.seconds, args.think
            )
        rows.append(row)
        print(
            f"{row['processes']:>9}  {row['games']:>5}  {row['commands']:>8}  "
            f"{row['per_second']:>10.0f}  {row['p50']:>6.1f}  {row['p99']:>6.1f}  "
            f"{row['done_p50']:>7.1f}/{row['done_p99']:<7.1f}  {row['conflicts']:>9}"
        )
        if row["internal_errors"]:
            print(f"  internal errors: {row['internal_errors']}")
    base = rows[0]["per_second"]
    for row in rows[1:]:
        print(f"{row['processes']} processes: {row['per_second'] / base:.2f}x the commands/s of 1")


if __name__ == "__main__":
    asyncio.run(main())
