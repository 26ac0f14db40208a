"""What the operations endpoint reads from the database (storage/health.py), on SQLite and
PostgreSQL: the outbox backlog and its oldest entry's age, the ping, and the commit timer."""

from __future__ import annotations

import asyncio

from storage import Database
from storage.health import outbox_backlog, ping, time_commits
from tests.storage.test_games import new_game
from tests.storage.test_outbox import NEWS, save


async def test_the_backlog_counts_what_is_not_delivered_and_ages_its_oldest(db: Database) -> None:
    assert await outbox_backlog(db) == (0, 0.0)
    game = await new_game(db)
    version = await save(db, game.id, game.version, NEWS)
    await asyncio.sleep(0.3)
    count, oldest = await outbox_backlog(db)
    assert count == 3 and 0.25 < oldest < 60
    await db.outbox.mark_delivered([f"{game.id}:{version}:{seq}" for seq in range(3)])
    assert await outbox_backlog(db) == (0, 0.0)


async def test_every_committed_write_is_timed_and_a_read_is_not(db: Database) -> None:
    timed: list[float] = []
    time_commits(db, timed.append)
    await ping(db)
    await db.outbox.pending()
    assert timed == []  # reads commit nothing
    game = await new_game(db)
    await save(db, game.id, game.version, NEWS)
    assert len(timed) == 2 and all(0 < seconds < 10 for seconds in timed)
