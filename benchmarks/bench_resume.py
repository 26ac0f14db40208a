"""Resume benchmark: a restart with 10,000 and 100,000 unconfirmed outbox entries.

    .venv/bin/python benchmarks/bench_resume.py [--sizes 10000,100000] [--channels 40]

The entries are made as the bot makes them: games in ``--channels`` channels play a few turns
through ``GameManager.handle`` and nothing is ever confirmed (channels the bot lost keep theirs
two days); the rest, up to each size, are copies of those games' news lines stored as later
turns of the same games (one INSERT, so building 100,000 does not take an hour). Then a fresh
manager with an outbox resumes and sends every entry again, while a watch on the event loop
measures its longest block: CPU time of the loop's thread between two ticks (the wall-clock gap
is printed too, beside that of an idle loop: what a busy machine adds). Each size runs twice:
with the start-up objects frozen first, as ``rummikub run`` does (``gc.freeze``), and as is,
where a full garbage collection over them may fall inside the resume. The reference is a bare
read of the same rows in the same run: the same query with stdlib ``sqlite3`` (every row
fetched, every payload decoded), and once through the bot's own engine (SQLAlchemy Core over
aiosqlite, one query). Targets: no block of the loop over 50 ms; the whole resume within a few
times the bare read.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text

from storage import Database
from tests.bot.manager.outbox_load import LoopWatch, resumed, unconfirmed

BLOCK_TARGET_MS = 50.0
READ = (
    "SELECT o.game_id, o.version, o.seq, o.payload, o.created_at, g.platform, g.channel_id,"
    " g.finished_at FROM outbox o JOIN game g ON g.id = o.game_id"
    " WHERE o.delivered_at IS NULL ORDER BY o.game_id, o.version, o.seq"
)


def fill(path: Path, size: int) -> int:
    """Copy the stored news lines as later turns of their games until ``size`` entries are
    unconfirmed; the count."""
    with sqlite3.connect(path) as connection:
        (have,) = connection.execute(
            "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"
        ).fetchone()
        news = connection.execute(
            "SELECT game_id, payload, created_at FROM outbox"
            " WHERE delivered_at IS NULL AND payload LIKE '%\"text\"%' ORDER BY game_id"
        ).fetchall()
        rows = []
        for index in range(size - have):
            game_id, payload, created_at = news[index % len(news)]
            version, seq = divmod(index, 5)
            rows.append((game_id, 100_000 + version, seq, payload, created_at))
        connection.executemany(
            "INSERT INTO outbox (game_id, version, seq, payload, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        (count,) = connection.execute(
            "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"
        ).fetchone()
    return int(count)


def bare_read(path: Path) -> float:
    """Seconds to read every unconfirmed row with stdlib sqlite3, payloads decoded."""
    start = time.perf_counter()
    with sqlite3.connect(path) as connection:
        rows = connection.execute(READ).fetchall()
        decoded = [json.loads(row[3]) for row in rows]
    assert len(decoded) == len(rows)
    return time.perf_counter() - start


async def engine_read(db: Database) -> float:
    """Seconds to read the same rows in one query through the bot's engine."""
    start = time.perf_counter()
    async with db.sessions() as session:
        rows = (await session.execute(text(READ))).all()
    decoded = [json.loads(row[3]) for row in rows]
    assert len(decoded) == len(rows)
    return time.perf_counter() - start


async def idle_gap(seconds: float) -> float:
    """The longest wall-clock gap of the watch over an idle loop: what the machine alone
    (other processes on its cores) adds to a block measured by the wall clock."""
    async with LoopWatch().watching() as watch:
        await asyncio.sleep(seconds)
    return watch.longest_wall


async def one_size(size: int, channels: int, draws: int, freeze: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.db"
        db = Database(f"sqlite+aiosqlite:///{path}")
        await db.start()
        try:
            await unconfirmed(db, channels, draws)
            count = fill(path, size)
            bare = min(bare_read(path) for _ in range(3))
            engine = min([await engine_read(db) for _ in range(3)])
            idle = await idle_gap(1.0)
            start = time.perf_counter()
            done = await resumed(db, keep=False, freeze=freeze)
            total = time.perf_counter() - start
            await done.manager.close()
            assert len(done.keys) == count, (len(done.keys), count)
        finally:
            await db.close()
    return {
        "entries": count,
        "total": total,
        "longest": done.longest,
        "wall": done.longest_wall,
        "idle": idle,
        "bare": bare,
        "engine": engine,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--channels", type=int, default=40)
    parser.add_argument("--draws", type=int, default=4, help="turns played in each channel")
    args = parser.parse_args()
    print(
        f"{args.channels} channels, {args.draws} turns each through handle, then copies;"
        f" target: no block over {BLOCK_TARGET_MS:.0f} ms"
    )
    print(
        "entries        resume s  longest block ms (cpu / wall / idle wall)  bare read s"
        "  engine read s  ratios"
    )
    for size, freeze in itertools.product((int(s) for s in args.sizes.split(",")), (True, False)):
        row = await one_size(size, args.channels, args.draws, freeze)
        print(
            f"{row['entries']:7.0f} {'frozen' if freeze else 'as is ':6}  {row['total']:8.2f}"
            f"  {row['longest'] * 1000:9.1f} / {row['wall'] * 1000:6.1f}"
            f" / {row['idle'] * 1000:5.1f}{'':18}  {row['bare']:11.3f}  {row['engine']:13.3f}"
            f"  {row['total'] / row['bare']:.1f}x bare, {row['total'] / row['engine']:.1f}x engine"
        )
        verdict = "met" if row["longest"] * 1000 <= BLOCK_TARGET_MS else "MISSED"
        print(f"  longest block {row['longest'] * 1000:.1f} ms of CPU: {verdict}")


if __name__ == "__main__":
    asyncio.run(main())
