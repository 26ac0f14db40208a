"""A bot process for the crash test (run with ``python -m tests.bot.manager.crash_game_worker``).

``play``: the real ``GameManager`` on real timers over a database; in each of a few channels
one human (played by this process through ``handle``) sits with two AI seats. It resumes
whatever the database holds, opens new matches when one ends, prints ``ready`` and plays until
the parent kills it with SIGKILL (often while AI seats are moving, between two AI turns).

``inspect``: a fresh process reports, for every stored unfinished game, whether seed + log
replay to the stored snapshot, whether every tile is in one place, and whether an AI move was
due when the process died.

``finish``: resume, let due AI moves run by themselves (no human command), then keep playing
every game to its end; prints a JSON summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys

from bot.api import ChannelRef, PlayerRef, Reply
from bot.manager import GameManager
from bot.presenter import Presenter
from engine import Game, Rules
from engine.ai import choose_move
from storage import Database

PLATFORM = "crashbot"
CHANNELS = [ChannelRef(PLATFORM, f"table-{i}") for i in range(3)]
HUMANS = [PlayerRef(PLATFORM, f"human-{i}", f"Human {i}") for i in range(3)]
START = "start games=1 rack_size=7 threshold=0 timer=10"


async def open_manager(args: argparse.Namespace, seed: int) -> tuple[Database, GameManager]:
    db = Database(args.url, schema=args.schema)
    await db.start()
    # a short lease: on PostgreSQL a restarted process takes over the dead one's AI moves soon
    manager = GameManager(
        db, presenter=Presenter(images=False), rng=random.Random(seed), lease_seconds=2.0
    )
    errors: list[str] = []

    async def outbox(reply: Reply) -> None:
        if "Something went wrong" in reply.text:
            errors.append(reply.text)

    manager.set_outbox(outbox)
    await manager.resume()
    return db, manager


async def human_move(manager: GameManager, channel: ChannelRef, human: PlayerRef) -> bool:
    """One command from the human of ``channel``; False once its game is over."""
    table = manager.tables.get(channel.key)
    if table is None:
        return False
    if table.phase == "lobby":  # the kill fell while the table was being set up
        await manager.handle(human, channel, "addbot easy" if len(table.seats) < 3 else "deal")
        return True
    game = table.game
    if game is None or game.finished:
        return False
    seat = table.seat_of(human)
    if seat is None or game.current != seat:
        await asyncio.sleep(0.01)  # an AI move is running (or due): let it
        return True
    melds = choose_move(game, seat, "easy")
    if melds is None:
        replies = await manager.handle(human, channel, "draw")
    else:
        await manager.handle(human, channel, "arrange " + " / ".join(m.code() for m in melds))
        replies = await manager.handle(human, channel, "done")
    for reply in replies:
        if "Something went wrong" in reply.text:
            raise SystemExit(f"internal error: {reply.text}")
    return True


async def play(args: argparse.Namespace) -> int:
    db, manager = await open_manager(args, args.seed)
    print("ready", flush=True)
    try:
        while True:
            for channel, human in zip(CHANNELS, HUMANS, strict=True):
                if manager.tables.get(channel.key) is None:
                    await manager.handle(human, channel, START)
                    await manager.handle(human, channel, "addbot easy")
                    await manager.handle(human, channel, "addbot easy")
                    await manager.handle(human, channel, "deal")
                    continue
                await human_move(manager, channel, human)
            await asyncio.sleep(0)
    finally:
        await manager.close()
        await db.close()


async def inspect_db(db: Database) -> dict[str, object]:
    """Every stored unfinished game: consistent, replayable, and whether an AI move is due."""
    problems: list[str] = []
    ai_due = 0
    for record in await db.games.list_active(with_actions=True):
        game = Game.from_text(record.snapshot)
        problem = game.conservation_problem()
        if problem:
            problems.append(f"game {record.id}: {problem}")
        rules = Rules.from_text(json.loads(record.setup)["rules"])
        replayed = Game.replay(len(record.seats), record.seed, rules, list(record.actions or []))
        if replayed.to_text() != record.snapshot:
            problems.append(f"game {record.id}: the log does not replay to the snapshot")
        if record.seats[game.current].ai is not None:
            ai_due += 1
            if record.deadline is None:
                problems.append(f"game {record.id}: an AI move is due with no deadline")
    return {"problems": problems, "ai_due": ai_due}


async def inspect(args: argparse.Namespace) -> int:
    db = Database(args.url, schema=args.schema)
    await db.start()
    try:
        print(json.dumps(await inspect_db(db)), flush=True)
    finally:
        await db.close()
    return 0


async def finish(args: argparse.Namespace) -> int:
    db, manager = await open_manager(args, args.seed)
    summary: dict[str, object] = {}
    try:
        waiting: list[str] = []
        for _ in range(50):  # due AI moves run by themselves (after a dead owner's lease)
            await asyncio.sleep(0.1)
            waiting = [
                key
                for key, table in manager.tables.items()
                if table.game is not None and table.ai_due
            ]
            if not waiting:
                break
        summary["ai_waiting_after_resume"] = waiting
        for _ in range(5000):
            busy = False
            for channel, human in zip(CHANNELS, HUMANS, strict=True):
                busy = await human_move(manager, channel, human) or busy
            if not busy:
                break
        summary["unfinished"] = sorted(manager.tables)
        summary["internal_errors"] = manager.internal_errors
        summary["finished_games"] = sum(
            [len(await db.games.history(PLATFORM, c.chat_id, limit=1000)) for c in CHANNELS]
        )
    finally:
        await manager.close()
        await db.close()
    print(json.dumps(summary), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["play", "inspect", "finish"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--schema", default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    run = {"play": play, "inspect": inspect, "finish": finish}[args.mode]
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
