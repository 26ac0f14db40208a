"""Lobbies: who sat down at a channel's table before the deal, kept across restarts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlmodel import select

from storage.models import LobbyRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


class LobbyRepository:
    """One JSON document per channel with an open lobby; the bot decides what is in it."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def save(self, platform: str, channel_id: str, data: dict[str, Any]) -> None:
        """Store (or replace) the channel's lobby."""
        async with self._db.transaction() as session:
            row = await session.get(LobbyRow, (platform, str(channel_id)))
            if row is None:
                session.add(
                    LobbyRow(
                        platform=platform,
                        channel_id=str(channel_id),
                        data=dict(data),
                        updated_at=utcnow(),
                    )
                )
            else:
                row.data = dict(data)  # a new value, so the JSON change is saved
                row.updated_at = utcnow()

    async def delete(self, platform: str, channel_id: str) -> None:
        """Forget the channel's lobby (dealt or cancelled); nothing happens when there is none."""
        async with self._db.transaction() as session:
            row = await session.get(LobbyRow, (platform, str(channel_id)))
            if row is not None:
                await session.delete(row)

    async def get(self, platform: str, channel_id: str) -> dict[str, Any] | None:
        async with self._db.sessions() as session:
            row = await session.get(LobbyRow, (platform, str(channel_id)))
            return None if row is None else dict(row.data)

    async def list_all(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every stored lobby as (platform, channel id, data)."""
        async with self._db.sessions() as session:
            rows = (await session.execute(select(LobbyRow))).scalars().all()
            return [(row.platform, row.channel_id, dict(row.data)) for row in rows]
