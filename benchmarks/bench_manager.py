"""Load benchmark: many concurrent games of simulated players through the game manager.

    .venv/bin/python benchmarks/bench_manager.py [--games 500] [--turns 20] [--render-games 40]

Each game is a channel with two simulated people who type commands (a set found on their rack,
then ``done``; otherwise ``draw``). Commands run concurrently through one ``GameManager`` on a
SQLite file, the way adapters call it. Prints commands per second, p50/p99 latency per command
without and with rendering, and memory per active game. Replies are confirmed delivered after
each command, as adapters do (the outbox's UPDATE runs in the background). The reference
figure in the same run is the latency of a bare SQLite turn save, the floor every committed
turn pays. A first phase runs
flat out (no think time) to find the throughput ceiling; the paced phases model people who
read and think before each command (exponential, mean ``--think`` seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.api import ChannelRef, PlayerRef, confirm_delivery
from bot.manager import GameManager
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine import Game
from engine.melds import is_valid_meld
from storage import Database, GameRepository, Seat

BY_VERB: dict[str, list[float]] = {}


def small_set(rack: list[object]) -> str | None:
    for combo in itertools.combinations(rack, 3):
        if is_valid_meld(combo):  # type: ignore[arg-type]
            return " ".join(t.code for t in combo)  # type: ignore[attr-defined]
    return None


async def one_game(
    manager: GameManager,
    index: int,
    turns: int,
    latencies: list[float],
    rng: random.Random,
    think: float,
) -> None:
    channel = ChannelRef("bench", f"c{index}")
    a = PlayerRef("bench", f"a{index}", f"A{index}")
    b = PlayerRef("bench", f"b{index}", f"B{index}")

    async def say(player: PlayerRef, text: str) -> None:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))  # a person reading and thinking
        start = time.perf_counter()
        replies = await manager.handle(player, channel, text)
        elapsed = time.perf_counter() - start
        latencies.append(elapsed)
        BY_VERB.setdefault(text.split()[0], []).append(elapsed)
        # as an adapter does once the platform took them (written in the background)
        await confirm_delivery(manager, replies)

    await say(a, "start threshold=0")
    await say(b, "join")
    await say(a, "deal")
    for _ in range(turns):
        table = manager.tables.get(channel.key)
        if table is None or table.game is None or table.game.finished:
            return
        await one_turn(table.game, table.seat_of(a), a, b, say, rng)
        await asyncio.sleep(0)


async def one_turn(
    game: Game,
    seat_of_a: int | None,
    a: PlayerRef,
    b: PlayerRef,
    say: Callable[[PlayerRef, str], Awaitable[None]],
    rng: random.Random,
) -> None:
    """The player to move plays a set found on their rack and ``done`` (80%), else draws."""
    seat = game.current
    player = a if seat == seat_of_a else b
    meld = small_set(list(game.players[seat].rack))
    if meld and rng.random() < 0.8:
        await say(player, f"play {meld}")
        await say(player, "done")
    else:
        await say(player, "draw")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(
    games: int, turns: int, images: bool, workdir: Path, think: float
) -> tuple[float, list[float]]:
    db = Database(f"sqlite+aiosqlite:///{workdir / f'bench-{images}.db'}")
    await db.start()
    manager = GameManager(
        db,
        scheduler=ManualScheduler(),
        presenter=Presenter(images=images),
        rng=random.Random(7),
    )
    if images:
        await manager.presenter.warm_up()
    latencies: list[float] = []
    rng = random.Random(1)
    start = time.perf_counter()
    await asyncio.gather(
        *(one_game(manager, i, turns, latencies, rng, think) for i in range(games))
    )
    elapsed = time.perf_counter() - start
    await manager.close()
    await db.close()
    return elapsed, latencies


async def memory_per_game(games: int, workdir: Path) -> float:
    db = Database(f"sqlite+aiosqlite:///{workdir / 'mem.db'}")
    await db.start()
    manager = GameManager(db, scheduler=ManualScheduler(), presenter=Presenter(images=False))
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(games):
        channel = ChannelRef("mem", f"c{i}")
        await manager.handle(PlayerRef("mem", f"a{i}", "A"), channel, "start")
        await manager.handle(PlayerRef("mem", f"b{i}", "B"), channel, "join")
        await manager.handle(PlayerRef("mem", f"a{i}", "A"), channel, "deal")
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    await manager.close()
    await db.close()
    return grown / games


async def reference_save(workdir: Path, count: int = 200) -> list[float]:
    """The floor: one bare turn save in the same SQLite setup."""
    db = Database(f"sqlite+aiosqlite:///{workdir / 'ref.db'}")
    await db.start()
    repo = GameRepository(db)
    game = await repo.create(
        platform="ref",
        channel_id="1",
        seats=[Seat("1", "a")],
        seed=1,
        setup="{}",
        snapshot="x" * 1500,
    )
    version = game.version
    times = []
    for i in range(count):
        start = time.perf_counter()
        version = await repo.save_turn(
            game.id,
            expected_version=version,
            snapshot="y" * 1500,
            new_actions=[f"0 draw {i}"],
            deadline=None,
        )
        times.append(time.perf_counter() - start)
    await db.close()
    return times


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--render-games", type=int, default=50)
    parser.add_argument(
        "--think",
        type=float,
        default=10.0,
        help="mean seconds a simulated person waits before each command (0 = flat out)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        ref = await reference_save(workdir)
        ref_p50 = pct(ref, 0.5)
        print(f"reference: bare SQLite turn save p50 {ref_p50:.2f} ms, p99 {pct(ref, 0.99):.2f} ms")
        for label, games, images, think in (
            ("saturation (no think time), without rendering", args.games, False, 0.0),
            (f"paced ({args.think:g} s think), without rendering", args.games, False, args.think),
            (
                f"paced ({args.think:g} s think), with rendering",
                args.render_games,
                True,
                args.think,
            ),
        ):
            BY_VERB.clear()
            elapsed, lat = await run(games, args.turns, images, workdir, think)
            p50, p99 = pct(lat, 0.5), pct(lat, 0.99)
            print(
                f"{label}: {games} concurrent games, {len(lat)} commands in {elapsed:.1f} s = "
                f"{len(lat) / elapsed:.0f} commands/s; latency p50 {p50:.1f} ms, p99 {p99:.1f} ms "
                f"(p50 = {p50 / ref_p50:.1f}x a bare save); "
                f"mean {statistics.mean(lat) * 1000:.1f} ms"
            )
            print(
                "    by command: "
                + ", ".join(
                    f"{verb} p50 {pct(v, 0.5):.1f} / p99 {pct(v, 0.99):.1f} ms"
                    for verb, v in sorted(BY_VERB.items())
                )
            )
        per_game = await memory_per_game(min(args.games, 500), workdir)
        print(f"memory per active game: {per_game / 1024:.1f} KB (target < 200 KB)")


if __name__ == "__main__":
    asyncio.run(main())
