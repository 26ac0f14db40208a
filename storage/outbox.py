"""The outbox: what a stored turn has to tell (announcements, and which views to refresh),
written in the turn's own transaction and marked delivered once a platform accepted it.

A process killed between the commit and the sending leaves the entries undelivered; the next
start sends them again, and so does a live process on the same database once they are old
enough (``pending(older_than=...)``): at least once, never lost. Entries are keyed
``"game:version:seq"``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, func, or_, tuple_, update
from sqlalchemy import select as select_columns
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from storage.models import GameRow, OutboxRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection

PAGE = 500  # entries per query of ``OutboxRepository.pages``


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


@dataclass(frozen=True, slots=True)
class UnconfirmedGame:
    """A game with undelivered entries: where it is played, how many, the newest version."""

    game_id: int
    platform: str
    channel_id: str
    count: int
    newest: int


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

    async def unconfirmed_games(self) -> list[UnconfirmedGame]:
        """Every game with undelivered entries, in the order of their ids (one grouped
        query: the entries are read later, a page at a time)."""
        query = (
            select_columns(
                col(OutboxRow.game_id),
                col(GameRow.platform),
                col(GameRow.channel_id),
                func.count(),
                func.max(col(OutboxRow.version)),
            )
            .join(GameRow, col(GameRow.id) == col(OutboxRow.game_id))
            .where(col(OutboxRow.delivered_at).is_(None))
            .group_by(col(OutboxRow.game_id), col(GameRow.platform), col(GameRow.channel_id))
            .order_by(col(OutboxRow.game_id))
        )
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            UnconfirmedGame(game, platform, channel_id, int(count), int(newest))
            for game, platform, channel_id, count, newest in rows
        ]

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
        found: list[OutboxEntry] = []
        async for page in self.pages(
            platform=platform,
            game_id=game_id,
            older_than=older_than,
            younger_than=younger_than,
            now=now,
        ):
            found.extend(page)
        return found

    async def pages(
        self,
        *,
        size: int = PAGE,
        platform: str | None = None,
        game_id: int | None = None,
        older_than: timedelta | None = None,
        younger_than: timedelta | None = None,
        now: datetime | None = None,
    ) -> AsyncIterator[list[OutboxEntry]]:
        """``pending`` a page of ``size`` entries at a time (each page one short query after
        the last key of the one before), so that a reader of many entries can let other work
        run between pages instead of holding the event loop for all of them at once."""
        now = now or utcnow()
        after: tuple[int, int, int] | None = None
        while True:
            page = await self._page(after, size, platform, game_id, older_than, younger_than, now)
            if page:
                yield page
            if len(page) < size:
                return
            last = page[-1]
            after = (last.game_id, last.version, last.seq)

    async def _page(
        self,
        after: tuple[int, int, int] | None,
        size: int,
        platform: str | None,
        game_id: int | None,
        older_than: timedelta | None,
        younger_than: timedelta | None,
        now: datetime,
    ) -> list[OutboxEntry]:
        """One page of ``pages``: plain columns, not ORM objects (a tenth of the work)."""
        key = tuple_(col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq))
        query = (
            select_columns(
                col(OutboxRow.game_id),
                col(OutboxRow.version),
                col(OutboxRow.seq),
                col(OutboxRow.payload),
                col(OutboxRow.created_at),
                col(GameRow.platform),
                col(GameRow.channel_id),
                col(GameRow.finished_at),
            )
            .join(GameRow, col(GameRow.id) == col(OutboxRow.game_id))
            .where(col(OutboxRow.delivered_at).is_(None))
        )
        if after is not None:
            query = query.where(key > tuple_(*after))
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
        ).limit(size)
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            OutboxEntry(
                key=outbox_key(game, version, seq),
                game_id=game,
                version=version,
                seq=seq,
                platform=platform_,
                channel_id=channel_id,
                payload=dict(payload),
                created_at=created_at,
                game_finished=finished_at is not None,
            )
            for game, version, seq, payload, created_at, platform_, channel_id, finished_at in rows
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
