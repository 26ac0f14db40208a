"""Unconfirmed announcements at scale, made through ``GameManager.handle`` alone: games in
many channels whose replies no platform ever confirms (channels the bot lost), and a watch on
the event loop that measures its longest block while a fresh manager resumes them."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.api import ChannelRef, PlayerRef, Reply
from bot.manager import GameManager
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from storage import Database


def people(index: int) -> tuple[ChannelRef, PlayerRef, PlayerRef]:
    """The channel of game ``index`` and its two players."""
    return (
        ChannelRef("test", f"load-{index}"),
        PlayerRef("test", f"ann-{index}", "Ann"),
        PlayerRef("test", f"bob-{index}", "Bob"),
    )


async def unconfirmed(db: Database, channels: int, draws: int) -> int:
    """Open a game in each of ``channels`` channels and play ``draws`` turns in each (every
    player draws), through ``handle``, confirming nothing; the count of entries left."""
    manager = GameManager(
        db,
        scheduler=ManualScheduler(start=time.time()),
        presenter=Presenter(images=False),
        rng=random.Random(7),
    )
    for index in range(channels):
        channel, ann, bob = people(index)
        await manager.handle(ann, channel, "start timer=86400")
        await manager.handle(bob, channel, "join")
        await manager.handle(ann, channel, "deal")
        for _ in range(draws):
            table = manager.tables[channel.key]
            assert table.game is not None
            mover = table.seats[table.game.current].player
            assert mover is not None
            await manager.handle(mover, channel, "draw")
    await manager.close()
    return len(await db.outbox.pending())


@dataclass
class LoopWatch:
    """Measures the event loop's longest block: the time between two of this watch's ticks,
    as CPU time of the loop's thread (what the code run in between cost; on a busy machine
    the wall clock also counts the waits for a core, which no code of ours causes), and as
    wall time."""

    tick: float = 0.002
    longest: float = 0.0  # CPU seconds of the loop's thread
    longest_wall: float = 0.0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    async def _run(self) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        while True:
            await asyncio.sleep(self.tick)
            now_wall, now_cpu = time.perf_counter(), time.thread_time()
            self.longest = max(self.longest, now_cpu - cpu)
            self.longest_wall = max(self.longest_wall, now_wall - wall - self.tick)
            wall, cpu = now_wall, now_cpu

    @asynccontextmanager
    async def watching(self) -> AsyncIterator[LoopWatch]:
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.sleep(0)
        try:
            yield self
        finally:
            self._task.cancel()


@dataclass
class Resumed:
    """A fresh manager after ``resume``: what it sent again (kept only when asked: a platform
    keeps nothing, and a hundred thousand kept replies would give the garbage collector long
    pauses of its own), every outbox key it carried, and the loop's longest block (seconds)."""

    manager: GameManager
    sent: list[Reply]
    keys: set[str]
    longest: float  # CPU seconds
    longest_wall: float


async def resumed(
    db: Database, *, shared: bool = False, keep: bool = True, freeze: bool = True
) -> Resumed:
    """A fresh manager with an outbox resumes and sends everything again; with ``freeze``
    the objects loaded so far are frozen first, as ``rummikub run`` does before its resume
    (no full garbage collection walks them: such a pause is no work of the resume)."""
    manager = GameManager(
        db,
        scheduler=ManualScheduler(start=time.time()),
        presenter=Presenter(images=False),
        shared=shared,
    )
    done = Resumed(manager, [], set(), 0.0, 0.0)

    async def outbox(reply: Reply) -> None:
        if keep:
            done.sent.append(reply)
        done.keys.update(reply.delivers)

    if freeze:
        gc.freeze()
    try:
        async with LoopWatch().watching() as watch:
            manager.set_outbox(outbox)
            await manager.resume()
            await manager.settle()
    finally:
        gc.unfreeze()
    done.longest, done.longest_wall = watch.longest, watch.longest_wall
    return done
