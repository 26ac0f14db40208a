"""Message slots: the platform message that currently shows a channel's lobby or table, or one
player's rack or panel, so adapters edit it by its id instead of searching the channel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import delete
from sqlmodel import select

from storage.models import MessageSlotRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


class MessageSlots:
    """(platform, channel, slot, owner) -> message id; ``owner`` is "" for public messages
    and the user id for a private copy (a DM)."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def get(self, platform: str, channel_id: str, slot: str, owner: str = "") -> int | None:
        async with self._db.sessions() as session:
            row = await session.get(MessageSlotRow, (platform, str(channel_id), slot, owner))
            return None if row is None else int(row.message_id)

    async def put(
        self, platform: str, channel_id: str, slot: str, message_id: int, owner: str = ""
    ) -> None:
        """Remember (or replace) the message that shows the slot."""
        async with self._db.transaction() as session:
            row = await session.get(MessageSlotRow, (platform, str(channel_id), slot, owner))
            if row is None:
                session.add(
                    MessageSlotRow(
                        platform=platform,
                        channel_id=str(channel_id),
                        slot=slot,
                        owner=owner,
                        message_id=int(message_id),
                        updated_at=utcnow(),
                    )
                )
            elif row.message_id != int(message_id):
                row.message_id = int(message_id)
                row.updated_at = utcnow()

    async def get_parts(
        self, platform: str, channel_id: str, slot: str, owner: str = ""
    ) -> list[dict[str, Any]] | None:
        """The messages a slot is shown as (each a dict with at least its ``id``)."""
        async with self._db.sessions() as session:
            row = await session.get(MessageSlotRow, (platform, str(channel_id), slot, owner))
            if row is None:
                return None
            return list(row.parts) if row.parts else [{"id": int(row.message_id)}]

    async def put_parts(
        self,
        platform: str,
        channel_id: str,
        slot: str,
        parts: list[dict[str, Any]],
        owner: str = "",
    ) -> None:
        """Remember the messages that show the slot (none: forget it)."""
        if not parts:
            await self.forget(platform, channel_id, slot, owner)
            return
        async with self._db.transaction() as session:
            row = await session.get(MessageSlotRow, (platform, str(channel_id), slot, owner))
            if row is None:
                row = MessageSlotRow(
                    platform=platform,
                    channel_id=str(channel_id),
                    slot=slot,
                    owner=owner,
                    message_id=int(parts[0]["id"]),
                    updated_at=utcnow(),
                )
                session.add(row)
            row.message_id = int(parts[0]["id"])
            row.parts = [dict(part) for part in parts]  # a new value, so the JSON change is saved
            row.updated_at = utcnow()

    async def all_parts(self, platform: str) -> list[tuple[str, str, str, list[dict[str, Any]]]]:
        """Every stored slot of a platform as (channel, slot, owner, parts)."""
        async with self._db.sessions() as session:
            rows = await session.execute(
                select(MessageSlotRow).where(MessageSlotRow.platform == platform)
            )
            return [
                (
                    row.channel_id,
                    row.slot,
                    row.owner,
                    list(row.parts) if row.parts else [{"id": int(row.message_id)}],
                )
                for row in rows.scalars().all()
            ]

    async def forget(self, platform: str, channel_id: str, slot: str, owner: str = "") -> None:
        """The slot has no message any more (deleted, or a new one is to be posted)."""
        async with self._db.transaction() as session:
            await session.execute(
                delete(MessageSlotRow).where(
                    MessageSlotRow.platform == platform,  # type: ignore[arg-type]
                    MessageSlotRow.channel_id == str(channel_id),  # type: ignore[arg-type]
                    MessageSlotRow.slot == slot,  # type: ignore[arg-type]
                    MessageSlotRow.owner == owner,  # type: ignore[arg-type]
                )
            )
