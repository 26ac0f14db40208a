"""Lobbies: who sat down at a channel's table before the deal, kept across restarts. Each
write names the version it changed (``expected_version``), as games are written, so two
processes changing one lobby at once cannot lose each other's change: the second is refused
(``ConflictError``) and re-reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import select

from storage.errors import ConflictError
from storage.models import LobbyRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection

NEW = 0  # the ``expected_version`` of a lobby not stored yet


class LobbyRepository:
    """One JSON document per channel with an open lobby; the bot decides what is in it."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def save(
        self,
        platform: str,
        channel_id: str,
        data: dict[str, Any],
        *,
        expected_version: int | None = None,
    ) -> int:
        """Store (or replace) the channel's lobby; its new version. With ``expected_version``
        (``NEW``: no lobby stored yet) a lobby stored otherwise meanwhile (changed, opened,
        dealt or cancelled by another process) raises ``ConflictError`` and nothing is
        written; without it the lobby is replaced whatever it was."""
        where = f"The lobby of {platform}:{channel_id}"
        try:
            async with self._db.transaction() as session:
                row = await session.get(LobbyRow, (platform, str(channel_id)))
                stored = NEW if row is None else row.version
                if expected_version is not None and stored != expected_version:
                    raise ConflictError(
                        f"{where} is at version {stored}, not {expected_version}.",
                        current_version=stored,
                    )
                if row is None:
                    row = LobbyRow(
                        platform=platform,
                        channel_id=str(channel_id),
                        data=dict(data),
                        updated_at=utcnow(),
                    )
                    session.add(row)
                else:
                    row.data = dict(data)  # a new value, so the JSON change is saved
                    row.updated_at = utcnow()
                await session.flush()  # the versioned UPDATE (or INSERT) fails here if stale
                return row.version
        except (IntegrityError, StaleDataError) as exc:
            raise ConflictError(f"{where} was written by another process first.") from exc

    async def delete(self, platform: str, channel_id: str) -> None:
        """Forget the channel's lobby (dealt or cancelled); nothing happens when there is none."""
        async with self._db.transaction() as session:
            row = await session.get(LobbyRow, (platform, str(channel_id)))
            if row is not None:
                await session.delete(row)

    async def get(self, platform: str, channel_id: str) -> dict[str, Any] | None:
        found = await self.get_versioned(platform, channel_id)
        return None if found is None else found[0]

    async def get_versioned(
        self, platform: str, channel_id: str
    ) -> tuple[dict[str, Any], int] | None:
        """The channel's lobby and its version, or None."""
        async with self._db.sessions() as session:
            row = await session.get(LobbyRow, (platform, str(channel_id)))
            return None if row is None else (dict(row.data), row.version)

    async def list_all(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every stored lobby as (platform, channel id, data)."""
        return [(p, c, data) for p, c, data, _ in await self.list_versioned()]

    async def list_versioned(self) -> list[tuple[str, str, dict[str, Any], int]]:
        """Every stored lobby as (platform, channel id, data, version)."""
        async with self._db.sessions() as session:
            rows = (await session.execute(select(LobbyRow))).scalars().all()
            return [(row.platform, row.channel_id, dict(row.data), row.version) for row in rows]
