"""What the operations endpoint asks the database (``bot.operations``): whether it answers,
how big the outbox backlog is, and how long each write transaction takes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, func, select
from sqlmodel import col

from storage.models import OutboxRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


async def ping(db: Connection, timeout: float = 3.0) -> None:
    """Raise unless the database answers a query within ``timeout`` seconds."""
    async with asyncio.timeout(timeout), db.engine.connect() as connection:
        await connection.exec_driver_sql("SELECT 1")


async def outbox_backlog(db: Connection, timeout: float = 3.0) -> tuple[int, float]:
    """Entries stored and not yet confirmed delivered, and the age of the oldest in seconds
    (0 when there is none)."""
    async with asyncio.timeout(timeout), db.sessions() as session:
        query = select(func.count(), func.min(col(OutboxRow.created_at))).where(
            col(OutboxRow.delivered_at).is_(None)
        )
        count, oldest = (await session.execute(query)).one()
    if not isinstance(oldest, datetime):
        return int(count or 0), 0.0
    if oldest.tzinfo is None:  # SQLite hands an aggregate back as stored: naive UTC
        oldest = oldest.replace(tzinfo=utcnow().tzinfo)
    return int(count or 0), max(0.0, (utcnow() - oldest).total_seconds())


def time_commits(db: Connection, observe: Callable[[float], None]) -> None:
    """Call ``observe(seconds)`` for each committed transaction, from BEGIN until its
    connection goes back to the pool (right after the commit: a session ends with its
    transaction), so the commit's fsync counts."""
    engine = db.engine.sync_engine
    key = "rummikub_began"

    def began(connection: Any) -> None:
        connection.info[key] = (time.perf_counter(), False)

    def committing(connection: Any) -> None:
        started = connection.info.get(key)
        if started is not None:
            connection.info[key] = (started[0], True)

    def returned(_dbapi: Any, record: Any) -> None:
        started = record.info.pop(key, None)
        if started is not None and started[1]:
            observe(time.perf_counter() - started[0])

    event.listen(engine, "begin", began)
    event.listen(engine, "commit", committing)
    event.listen(engine.pool, "checkin", returned)
