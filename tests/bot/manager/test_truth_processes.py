"""Two bot processes (two managers, each with its own connections and memory) on one database,
SQLite and PostgreSQL: neither ever answers from a stale copy, and each reminder, timeout and
due AI move is acted on by exactly one of them."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.api import ChannelRef, PlayerRef, Reply
from bot.manager import GameManager, describe
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine import Game
from engine.ai import choose_move
from engine.tiles import sort_tiles, tiles_text
from storage import Database
from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema

CHANNEL = ChannelRef("duo", "table")
ANN = PlayerRef("duo", "ann", "Ann")
BOB = PlayerRef("duo", "bob", "Bob")
ROOT = Path(__file__).resolve().parents[3]
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


class Process:
    """One bot process: its own database handle, clock and manager; what it sent."""

    def __init__(self, db: Database, clock: ManualScheduler, *, shared: bool | None) -> None:
        self.db = db
        self.clock = clock
        self.manager = GameManager(
            db, scheduler=clock, presenter=Presenter(images=False), shared=shared
        )
        self.sent: list[Reply] = []

        async def outbox(reply: Reply) -> None:
            self.sent.append(reply)

        self.manager.set_outbox(outbox)

    async def say(self, player: PlayerRef, text: str) -> list[Reply]:
        replies = await self.manager.handle(player, CHANNEL, text)
        self.sent.extend(replies)
        return replies

    async def close(self) -> None:
        await self.manager.close()
        await self.db.close()


@asynccontextmanager
async def two_processes(
    backend: str, tmp_path: Path, *, shared: bool | None = None
) -> AsyncIterator[tuple[Process, Process]]:
    async with _urls(backend, tmp_path) as (url, schema):
        start = 1_800_000_000.0
        processes = []
        for _ in range(2):
            db = Database(url, schema=schema)
            await db.start()
            processes.append(Process(db, ManualScheduler(start=start), shared=shared))
        try:
            yield processes[0], processes[1]
        finally:
            for process in processes:
                await process.close()


@asynccontextmanager
async def _urls(backend: str, tmp_path: Path) -> AsyncIterator[tuple[str, str | None]]:
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'duo.db'}", None
        return
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        yield url, schema


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_two_processes_never_answer_from_a_stale_copy(backend: str, tmp_path: Path) -> None:
    rng = random.Random(7)
    async with two_processes(backend, tmp_path) as (one, two):
        await one.say(ANN, "start rack_size=7 threshold=0 games=1")
        await two.say(BOB, "join")
        await one.say(ANN, "addbot easy")
        await two.say(ANN, "deal")  # the host deals through the other process
        for _ in range(60):
            here = rng.choice([one, two])
            table = here.manager.tables.get(CHANNEL.key)
            if table is None:
                table_two = await here.manager.handle(ANN, CHANNEL, "status")
                assert "no game" in texts(table_two)
                break
            # Who is to move, according to the database (the other process may have moved).
            stored = await here.manager.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
            assert stored is not None
            position = Game.from_text(stored.snapshot)
            player = ANN if stored.seats[position.current].player_id == ANN.user_id else BOB
            verb = rng.choice(["status", "rack", "draw"])
            said = texts(await here.say(player, verb))
            assert "not your turn" not in said, said
            if verb == "status":
                assert f"{player.display_name} to play" in said, said
            elif verb == "rack":
                seat = [s.player_id for s in stored.seats].index(player.user_id)
                rack = sort_tiles(position.players[seat].rack, "color")
                assert tiles_text(rack) in said, said
            else:
                assert f"{player.display_name} drew a tile" in said or "passed" in said, said
            # the process that answered holds exactly the stored game
            mine = here.manager.tables.get(CHANNEL.key)
            fresh = GameManager(here.db, scheduler=ManualScheduler(start=here.clock.now()))
            await fresh.resume()
            assert describe(fresh.tables.get(CHANNEL.key)) == describe(mine)
            await fresh.close()
            if rng.random() < 0.3 and mine is not None and mine.game is not None:
                seat = mine.game.current
                who = mine.seats[seat].player
                melds = choose_move(mine.game, seat, "easy")
                if who is not None and melds is not None:
                    await here.say(who, "arrange " + " / ".join(m.code() for m in melds))
                    await here.say(who, "done")
        assert one.manager.internal_errors == two.manager.internal_errors == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_each_reminder_timeout_and_ai_move_is_acted_on_by_one_process(
    backend: str, tmp_path: Path
) -> None:
    async with two_processes(backend, tmp_path, shared=True) as (one, two):
        await one.say(ANN, "start threshold=0")
        await one.say(ANN, "addbot easy")
        await one.say(ANN, "deal")  # if the AI starts, it has moved already
        await two.manager.resume()  # the second process knows the game and arms its timers
        await two.manager.settle()  # and sends the unconfirmed deal again
        assert CHANNEL.key in two.manager.tables
        for round_no in range(3):
            game = one.manager.tables[CHANNEL.key].game
            assert game is not None
            turn = game.turn
            one.sent.clear()
            two.sent.clear()
            await asyncio.gather(one.clock.advance(46), two.clock.advance(46))
            reminders = [
                r for r in one.sent + two.sent if "left in your turn" in r.text and not r.private_to
            ]
            assert len(reminders) == 1, (round_no, texts(one.sent + two.sent))
            await asyncio.gather(one.clock.advance(15), two.clock.advance(15))
            everything = texts(one.sent + two.sent)
            assert everything.count("Time ran out for Ann") == 1, everything
            ai_moves = [
                r
                for r in one.sent + two.sent
                if r.text.startswith("AI 1") and ("drew" in r.text or "played" in r.text)
            ]
            assert len(ai_moves) == 1, everything
            for process in (one, two):
                await process.say(ANN, "status")  # both now hold the stored game
            stored = await one.manager.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
            assert stored is not None and stored.turn == turn + 2
            assert describe(one.manager.tables[CHANNEL.key]) == describe(
                two.manager.tables[CHANNEL.key]
            )


@pytest.mark.slow
@pytest.mark.postgres
async def test_two_real_processes_act_once_on_each_reminder_timeout_and_ai_move(
    tmp_path: Path,
) -> None:
    """Two bot processes with real timers resume the same game on PostgreSQL; nobody plays,
    so timers and the AI seat drive it. Every stored timeout and AI turn is announced once, and
    each timed-out turn got exactly one reminder."""
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        db = Database(url, schema=schema)
        await db.start()
        try:
            setup = GameManager(db, presenter=Presenter(images=False))
            for text in ("start timer=10 threshold=0", "addbot easy", "deal"):
                await setup.handle(ANN, CHANNEL, text)
            await setup.close()  # its timers die with it; the workers take over
            command = [sys.executable, "-m", "tests.bot.manager.deadline_worker"]
            args = ["--url", url, "--schema", schema, "--seconds", "24"]
            workers = [
                subprocess.Popen(
                    command + args,
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for _ in range(2)
            ]
            outputs = []
            for worker in workers:
                out, err = await asyncio.to_thread(worker.communicate, timeout=120)
                assert worker.returncode == 0, err[-3000:]
                outputs.append([json.loads(line) for line in out.splitlines() if line])
            stored = await db.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
            assert stored is not None and stored.actions is not None
        finally:
            await db.close()
    ann = next(i for i, s in enumerate(stored.seats) if s.player_id == ANN.user_id)
    public = [e["text"] for lines in outputs for e in lines if "text" in e and not e["private"]]
    timeouts = [a for a in stored.actions if a.startswith(f"{ann} timeout")]
    ai_turns = [a for a in stored.actions if not a.startswith(f"{ann} ")]
    assert len(timeouts) >= 2, stored.actions
    assert sum(t.startswith("Time ran out for Ann") for t in public) == len(timeouts), public
    ai_said = [t for t in public if t.startswith("AI 1") and ("drew" in t or "played" in t)]
    # the AI turns after each timeout were announced once (one may predate the workers)
    assert len(timeouts) <= len(ai_said) <= len(ai_turns), (public, stored.actions)
    assert len(ai_said) >= len(ai_turns) - 1
    reminders = [t for t in public if "left in your turn" in t]
    # one per timed-out turn (the first may have passed its reminder before the workers ran)
    assert len(timeouts) - 1 <= len(reminders) <= len(timeouts) + 1, public
    assert all(lines[-1] == {"internal_errors": 0} for lines in outputs)
