"""Per-channel settings: a channel that never changed anything gets the defaults."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from storage.errors import ConflictError
from storage.models import ChannelSettingsRow, utcnow
from storage.records import ChannelSettings

if TYPE_CHECKING:
    from storage.connection import Connection

_FIELDS = tuple(f.name for f in dataclasses.fields(ChannelSettings) if f.name != "version")
_ATTEMPTS = 5


def _to_record(row: ChannelSettingsRow) -> ChannelSettings:
    return ChannelSettings(**{name: getattr(row, name) for name in _FIELDS}, version=row.version)


class SettingsRepository:
    """Reads and changes one channel's settings; concurrent changes to different fields merge."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def get(self, platform: str, channel_id: str) -> ChannelSettings:
        async with self._db.sessions() as session:
            row = await session.get(ChannelSettingsRow, (platform, str(channel_id)))
            return ChannelSettings() if row is None else _to_record(row)

    async def update(self, platform: str, channel_id: str, **changes: Any) -> ChannelSettings:
        """Change some settings and return them all.

        Two admins changing different settings at once both win: a version conflict re-reads
        the row and applies the changes again.
        """
        unknown = sorted(set(changes) - set(_FIELDS))
        if unknown:
            raise ValueError(
                f"Unknown channel setting(s) {', '.join(unknown)}; known: {', '.join(_FIELDS)}."
            )
        for _ in range(_ATTEMPTS):
            try:
                async with self._db.transaction() as session:
                    row = await session.get(ChannelSettingsRow, (platform, str(channel_id)))
                    if row is None:
                        defaults = dataclasses.asdict(ChannelSettings())
                        del defaults["version"]
                        row = ChannelSettingsRow(
                            platform=platform,
                            channel_id=str(channel_id),
                            updated_at=utcnow(),
                            **(defaults | changes),
                        )
                        session.add(row)
                    else:
                        for name, value in changes.items():
                            setattr(row, name, value)
                        row.updated_at = utcnow()
                    await session.flush()
                return _to_record(row)
            except (StaleDataError, IntegrityError):
                continue
        raise ConflictError(
            f"Settings of {platform}:{channel_id} kept changing under us; try again."
        )

    async def reset(self, platform: str, channel_id: str) -> ChannelSettings:
        """Forget a channel's choices: it gets the defaults again."""
        async with self._db.transaction() as session:
            row = await session.get(ChannelSettingsRow, (platform, str(channel_id)))
            if row is not None:
                await session.delete(row)
        return ChannelSettings()
