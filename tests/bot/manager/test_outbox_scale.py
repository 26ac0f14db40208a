"""The outbox at scale (issue 26, defect 1): a restart with thousands of unconfirmed
announcements (channels the bot lost keep theirs two days) sends them all again in pieces, a
page of entries at a time, without holding the event loop for long: no piece costs as much as
reading all the rows bare once."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from storage import Database
from tests.bot.manager.outbox_load import resumed, unconfirmed

CHANNELS = 40
DRAWS = 20  # turns per channel: about 4,200 entries in all
MOST_BLOCK = 0.05  # CPU seconds: the target


def bare_read(path: Path) -> float:
    """CPU seconds to read every unconfirmed row once with stdlib sqlite3 (payloads decoded)."""
    start = time.thread_time()
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT o.game_id, o.version, o.seq, o.payload, g.platform, g.channel_id"
            " FROM outbox o JOIN game g ON g.id = o.game_id WHERE o.delivered_at IS NULL"
            " ORDER BY o.game_id, o.version, o.seq"
        ).fetchall()
        assert len([json.loads(row[3]) for row in rows]) == len(rows)
    return time.thread_time() - start


async def test_resuming_thousands_of_unconfirmed_entries_never_blocks_the_event_loop_long(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    db = Database(f"sqlite+aiosqlite:///{path}")
    await db.start()
    try:
        count = await unconfirmed(db, CHANNELS, DRAWS)
        assert count > 4000
        bare = min(bare_read(path) for _ in range(3))
        done = await resumed(db)
        try:
            assert done.keys == {entry.key for entry in await db.outbox.pending()}
            assert len(done.keys) == count
            longest = done.longest
            said = (
                f"the loop was blocked {longest * 1000:.1f} ms; a bare read: {bare * 1000:.1f} ms"
            )
            assert longest < bare, said  # linear in pieces, not all at once
            assert longest < MOST_BLOCK, said
        finally:
            await done.manager.close()
    finally:
        await db.close()
