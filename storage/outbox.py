"""The outbox: what a stored turn has to tell (announcements, and which views to refresh),
written in the turn's own transaction and marked delivered once a platform accepted it.

A process killed between the commit and the sending leaves the entries undelivered; the next
start sends them again, and so does a live process on the same database once they are old
enough (``pending(older_than=...)``): at least once, never lost. Entries are keyed
``"game:version:seq"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, or_, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from storage.models import GameRow, OutboxRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """One undelivered entry, with the game's place (platform and channel) and state."""

    key: str
    game_id: int
    version: int
    seq: int
    platform: str
    channel_id: str
    payload: dict[str, Any]
    created_at: datetime
    game_finished: bool


def outbox_key(game_id: int, version: int, seq: int) -> str:
    return f"{game_id}:{version}:{seq}"


def parse_key(key: str) -> tuple[int, int, int] | None:
    """``(game, version, seq)`` of a key, or None for anything else."""
    parts = key.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    game_id, version, seq = (int(p) for p in parts)
    return game_id, version, seq


def add_entries(
    session: AsyncSession, game_id: int, version: int, payloads: Sequence[dict[str, Any]]
) -> None:
    """Add a turn's entries to its transaction (the turn is stored as ``version``)."""
    now = utcnow()
    session.add_all(
        OutboxRow(game_id=game_id, version=version, seq=i, payload=dict(p), created_at=now)
        for i, p in enumerate(payloads)
    )


class OutboxRepository:
    def __init__(self, db: Connection) -> None:
        self._db = db

    async def mark_delivered(self, keys: Sequence[str]) -> int:
        """Mark entries delivered (unknown or malformed keys are ignored); the count marked."""
        ids = sorted({found for key in keys if (found := parse_key(key)) is not None})
        if not ids:
            return 0
        marked = 0
        now = utcnow()
        async with self._db.transaction() as session:
            for start in range(0, len(ids), 300):
                result = await session.execute(
                    update(OutboxRow)
                    .where(
                        tuple_(
                            col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq)
                        ).in_(ids[start : start + 300]),
                        col(OutboxRow.delivered_at).is_(None),
                    )
                    .values(delivered_at=now)
                )
                marked += int(getattr(result, "rowcount", 0) or 0)
        return marked

    async def pending(
        self,
        *,
        platform: str | None = None,
        game_id: int | None = None,
        older_than: timedelta | None = None,
        younger_than: timedelta | None = None,
        now: datetime | None = None,
    ) -> list[OutboxEntry]:
        """Every undelivered entry (of a platform, or of one game), in the order written;
        with ``older_than`` only those written longer ago than that, with ``younger_than``
        only those written since then (ages from ``now``, the wall clock by default)."""
        now = now or utcnow()
        async with self._db.sessions() as session:
            query = (
                select(
                    OutboxRow,
                    col(GameRow.platform),
                    col(GameRow.channel_id),
                    col(GameRow.finished_at),
                )
                .join(GameRow, col(GameRow.id) == col(OutboxRow.game_id))
                .where(col(OutboxRow.delivered_at).is_(None))
            )
            if platform is not None:
                query = query.where(col(GameRow.platform) == platform)
            if game_id is not None:
                query = query.where(col(OutboxRow.game_id) == game_id)
            if older_than is not None:
                query = query.where(col(OutboxRow.created_at) < now - older_than)
            if younger_than is not None:
                query = query.where(col(OutboxRow.created_at) >= now - younger_than)
            query = query.order_by(
                col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq)
            )
            rows = await session.execute(query)
            return [
                OutboxEntry(
                    key=outbox_key(row.game_id, row.version, row.seq),
                    game_id=row.game_id,
                    version=row.version,
                    seq=row.seq,
                    platform=platform_,
                    channel_id=channel_id,
                    payload=dict(row.payload),
                    created_at=row.created_at,
                    game_finished=finished_at is not None,
                )
                for row, platform_, channel_id, finished_at in rows
            ]

    async def prune(
        self,
        *,
        delivered_for: timedelta = timedelta(hours=1),
        undelivered_for: timedelta = timedelta(days=2),
        now: datetime | None = None,
    ) -> int:
        """Delete entries delivered more than ``delivered_for`` ago, and entries that could
        not be delivered for ``undelivered_for`` (a channel the bot lost); the count deleted."""
        now = now or utcnow()
        async with self._db.transaction() as session:
            result = await session.execute(
                delete(OutboxRow).where(
                    or_(
                        and_(
                            col(OutboxRow.delivered_at).is_not(None),
                            col(OutboxRow.delivered_at) < now - delivered_for,
                        ),
                        col(OutboxRow.created_at) < now - undelivered_for,
                    )
                )
            )
            return int(getattr(result, "rowcount", 0) or 0)
