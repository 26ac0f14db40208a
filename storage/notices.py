"""``notify on|off``: who wants to be told when a lobby opens in a channel (one row per
person and channel)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from sqlalchemy import Column, Index, delete, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, col

from storage.models import StorageModel, UTCDateTime, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


class NoticeRow(StorageModel, table=True):
    """A person who asked to be told when a game opens in a channel."""

    __tablename__: ClassVar[str] = "notify_subscription"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    user_id: str = Field(primary_key=True, max_length=128)
    name: str = Field(max_length=200)
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))

    __table_args__ = (Index(None, "platform", "channel_id", "created_at"),)


@dataclass(frozen=True, slots=True)
class Subscriber:
    user_id: str
    name: str
    since: datetime


class NoticeRepository:
    """Subscriptions: on, off, whether one is on, and a channel's subscribers in the order
    they subscribed."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def subscribe(self, platform: str, channel_id: str, user_id: str, name: str) -> bool:
        """Turn notices on; False when they already were (the name is brought up to date)."""
        try:
            async with self._db.transaction() as session:
                row = await session.get(NoticeRow, (platform, str(channel_id), str(user_id)))
                if row is not None:
                    row.name = name or row.name
                    return False
                session.add(
                    NoticeRow(
                        platform=platform,
                        channel_id=str(channel_id),
                        user_id=str(user_id),
                        name=name,
                        created_at=utcnow(),
                    )
                )
                await session.flush()
                return True
        except IntegrityError:  # another process subscribed the same person just now
            return False

    async def unsubscribe(self, platform: str, channel_id: str, user_id: str) -> bool:
        """Turn notices off; False when they were not on."""
        async with self._db.transaction() as session:
            result = await session.execute(
                delete(NoticeRow).where(
                    col(NoticeRow.platform) == platform,
                    col(NoticeRow.channel_id) == str(channel_id),
                    col(NoticeRow.user_id) == str(user_id),
                )
            )
            return bool(getattr(result, "rowcount", 0))

    async def is_on(self, platform: str, channel_id: str, user_id: str) -> bool:
        async with self._db.sessions() as session:
            row = await session.get(NoticeRow, (platform, str(channel_id), str(user_id)))
            return row is not None

    async def subscribers(
        self, platform: str, channel_id: str, *, limit: int = 1000
    ) -> list[Subscriber]:
        """A channel's subscribers, the earliest first."""
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(NoticeRow)
                    .where(
                        col(NoticeRow.platform) == platform,
                        col(NoticeRow.channel_id) == str(channel_id),
                    )
                    .order_by(col(NoticeRow.created_at), col(NoticeRow.user_id))
                    .limit(limit)
                )
            ).scalars()
            return [Subscriber(r.user_id, r.name, r.created_at) for r in rows]
