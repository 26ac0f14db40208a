"""Message slots: the platform message that currently shows a channel's lobby or table, or one
player's rack or panel, so adapters edit it by its id instead of searching the channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import delete

from storage.models import MessageSlotRow, utcnow

if TYPE_CHECKING:
    from storage.db import Database


class MessageSlots:
    """(platform, channel, slot, owner) -> message id; ``owner`` is "" for public messages
    and the user id for a private copy (a DM)."""

    def __init__(self, db: Database) -> None:
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
