"""Several live processes on one database (shared mode): what a process that died left
unconfirmed is sent again by a surviving one, once it is older than the grace period, by the
one process that claims it; a claimer that died is taken over after its lease; a process never
sends again what it is itself still delivering, and its sweep stops on close()."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.api import Reply
from bot.manager.outbox import RESEND_AFTER, SWEEP_EVERY, SWEEP_GIVES_UP, SWEEP_KEY
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_truth import human_to_move
from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@asynccontextmanager
async def processes(backend: str, tmp_path: Path, count: int) -> AsyncIterator[list[Harness]]:
    """``count`` live processes on one database in shared mode, each started (resumed). Their
    fake clocks start at the wall clock: storage stamps an entry's ``created_at`` with it."""
    start = time.time()
    async with _database(backend, tmp_path) as (url, schema):
        opened: list[Harness] = []
        try:
            for _ in range(count):
                h = await Harness.open(
                    tmp_path / "bot.db",
                    scheduler=ManualScheduler(start=start),
                    shared=True,
                    url=url,
                    schema=schema,
                )
                opened.append(h)
                await h.manager.resume()
            yield opened
        finally:
            for h in opened:  # a dead one's database is closed already: closing is harmless
                await h.close()


@asynccontextmanager
async def _database(backend: str, tmp_path: Path) -> AsyncIterator[tuple[str, str | None]]:
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", None
        return
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        yield url, schema


async def confirm(h: Harness) -> None:
    await h.manager.delivered([k for r in h.sent for k in r.delivers])
    await h.manager.flush_confirmed()


async def ann_draws_and_dies(h: Harness) -> list[Reply]:
    """A game to Ann's turn, everything so far confirmed; Ann draws (the turn is stored) and
    the process dies before any platform accepted what it announced."""
    await h.say(ANN, "start timer=86400")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    await human_to_move(h, ANN)
    await confirm(h)
    drew = await h.say(ANN, "draw")
    await h.db.close()  # as a kill leaves it: the manager is not closed, nothing confirmed
    return drew


def drew_lines(h: Harness) -> int:
    return sum("Ann drew a tile" in r.text for r in h.sent if r.slot is None)


def keys(replies: list[Reply]) -> set[str]:
    return {k for r in replies for k in r.delivers}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_live_process_sends_once_what_a_dead_one_left_after_the_grace_period(
    backend: str, tmp_path: Path
) -> None:
    async with processes(backend, tmp_path, 2) as (dying, survivor):
        drew = await ann_draws_and_dies(dying)
        # Not before the grace period: a live sender may still be delivering it.
        await survivor.scheduler.advance(RESEND_AFTER - SWEEP_EVERY)
        assert survivor.sent == []
        await survivor.scheduler.advance(2 * SWEEP_EVERY)
        assert drew_lines(survivor) == 1
        sent = survivor.sent
        assert keys(sent) == keys(drew)  # every entry the dead process left, and only those
        shown = {(r.slot, r.private_to.user_id if r.private_to else None) for r in sent}
        assert {("table", None), ("rack", ANN.user_id), ("rack", BOB.user_id)} <= shown
        # fresh views: the survivor had never seen this game; the panel is Bob's turn now
        assert ("panel", BOB.user_id) in shown and ("panel", ANN.user_id) not in shown
        table = survivor.manager.tables[CHANNEL.key]
        assert (
            next(r for r in sent if r.slot == "table").text
            == (await survivor.manager.views.table(table)).text
        )
        # Still unconfirmed (its adapter is slow): this process is delivering it, so its
        # next sweeps do not send it again within the grace period.
        await survivor.scheduler.advance(RESEND_AFTER - 2 * SWEEP_EVERY)
        assert drew_lines(survivor) == 1
        await confirm(survivor)
        await survivor.scheduler.advance(4 * RESEND_AFTER)
        assert drew_lines(survivor) == 1
        assert await survivor.db.outbox.pending() == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_resend_whose_claimer_died_is_taken_over_after_its_lease(
    backend: str, tmp_path: Path
) -> None:
    async with processes(backend, tmp_path, 3) as (dying, claimer, taker):
        await ann_draws_and_dies(dying)
        entered = asyncio.Event()

        async def stuck(reply: Reply) -> None:  # the claimer dies while sending
            entered.set()
            await asyncio.Event().wait()

        claimer.manager.set_outbox(stuck, platform=CHANNEL.platform)
        sweeping = asyncio.create_task(claimer.scheduler.advance(RESEND_AFTER + SWEEP_EVERY))
        await asyncio.wait_for(entered.wait(), 10)
        for task in [sweeping, *claimer.manager.delivery.tasks]:
            task.cancel()
        await asyncio.gather(sweeping, *claimer.manager.delivery.tasks, return_exceptions=True)
        await claimer.db.close()  # killed: its claim stays, with its lease
        await taker.scheduler.advance(RESEND_AFTER + SWEEP_EVERY)
        assert drew_lines(taker) == 0  # the claimer's lease still runs
        await taker.scheduler.advance(RESEND_AFTER)
        assert drew_lines(taker) == 1  # taken over once the lease expired
        await taker.scheduler.advance(RESEND_AFTER - SWEEP_EVERY)
        assert drew_lines(taker) == 1


async def test_one_process_on_sqlite_runs_no_sweep(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path / "bot.db")
    try:
        await h.manager.resume()
        assert not h.manager.shared
        assert SWEEP_KEY not in h.scheduler.pending()
    finally:
        await h.close()


async def test_close_stops_the_sweep(tmp_path: Path) -> None:
    async with processes("sqlite", tmp_path, 2) as (dying, survivor):
        assert SWEEP_KEY in survivor.scheduler.pending()
        await ann_draws_and_dies(dying)
        await survivor.manager.close()
        assert SWEEP_KEY not in survivor.scheduler.pending()
        await survivor.scheduler.advance(3 * RESEND_AFTER)
        assert survivor.sent == []


async def test_close_cancels_a_sweep_under_way_and_leaves_its_entries_unconfirmed(
    tmp_path: Path,
) -> None:
    async with processes("sqlite", tmp_path, 2) as (dying, survivor):
        drew = await ann_draws_and_dies(dying)
        entered = asyncio.Event()

        async def stuck(reply: Reply) -> None:  # a platform that does not answer
            entered.set()
            await asyncio.Event().wait()

        survivor.manager.set_outbox(stuck, platform=CHANNEL.platform)
        sweeping = asyncio.create_task(survivor.scheduler.advance(RESEND_AFTER + SWEEP_EVERY))
        await asyncio.wait_for(entered.wait(), 10)
        await asyncio.wait_for(survivor.manager.close(), 10)
        await asyncio.wait_for(sweeping, 10)  # the timer's callback ends with its sweep
        assert survivor.manager.delivery.tasks == set()
        assert SWEEP_KEY not in survivor.scheduler.pending()
        assert {e.key for e in await survivor.db.outbox.pending()} == keys(drew)


async def test_an_entry_nobody_confirms_is_tried_again_every_grace_period_for_an_hour_only(
    tmp_path: Path,
) -> None:
    async with processes("sqlite", tmp_path, 2) as (dying, survivor):
        await ann_draws_and_dies(dying)  # and the survivor's platform never confirms either
        await survivor.scheduler.advance(SWEEP_GIVES_UP + SWEEP_EVERY)
        tries = drew_lines(survivor)
        assert 2 <= tries <= SWEEP_GIVES_UP / RESEND_AFTER
        await survivor.scheduler.advance(SWEEP_GIVES_UP)
        assert drew_lines(survivor) == tries  # left to a restart and the prune


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_starting_process_does_not_send_again_what_a_live_one_is_delivering(
    backend: str, tmp_path: Path
) -> None:
    async with processes(backend, tmp_path, 1) as (live,):
        await live.say(ANN, "start timer=86400")
        await live.say(BOB, "join")
        await live.say(ANN, "deal")
        await human_to_move(live, ANN)
        await confirm(live)
        drew = await live.say(ANN, "draw")  # its adapter is still delivering these
        starter = await Harness.open(
            tmp_path / "bot.db",
            scheduler=ManualScheduler(start=live.scheduler.now()),
            shared=True,
            url=live.db.url.render_as_string(hide_password=False),
            schema=live.db.schema,
        )
        try:
            await starter.manager.resume()
            await starter.manager.settle()
            assert drew_lines(starter) == 0  # the live process is delivering them
            await starter.scheduler.advance(RESEND_AFTER - SWEEP_EVERY)
            assert drew_lines(starter) == 0  # nor do its sweeps while the lease runs
            await confirm(live)  # delivered after all
            await starter.scheduler.advance(4 * RESEND_AFTER)
            assert drew_lines(starter) == 0
            assert not keys(drew) & {e.key for e in await starter.db.outbox.pending()}
        finally:
            await starter.close()
