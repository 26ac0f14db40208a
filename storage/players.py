"""Per-player language: the override a person chose and the language their client reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from storage.models import PlayerLanguageRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


@dataclass(frozen=True, slots=True)
class PlayerLanguage:
    """``language``: chosen by the player ("" follows the client); ``client``: what their
    client last reported ("" unknown)."""

    language: str = ""
    client: str = ""


class PlayerLanguageRepository:
    """Reads and changes one person's language row (one small row per person who has one)."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def get(self, platform: str, user_id: str) -> PlayerLanguage:
        async with self._db.sessions() as session:
            row = await session.get(PlayerLanguageRow, (platform, str(user_id)))
            return PlayerLanguage() if row is None else PlayerLanguage(row.language, row.client)

    async def put(
        self,
        platform: str,
        user_id: str,
        *,
        language: str | None = None,
        client: str | None = None,
    ) -> PlayerLanguage:
        """Change the chosen language and/or the client's (None leaves one as it is)."""
        for attempt in range(2):  # two processes creating the same row: the loser updates it
            try:
                async with self._db.transaction() as session:
                    row = await session.get(PlayerLanguageRow, (platform, str(user_id)))
                    if row is None:
                        row = PlayerLanguageRow(
                            platform=platform, user_id=str(user_id), updated_at=utcnow()
                        )
                        session.add(row)
                    if language is not None:
                        row.language = language
                    if client is not None:
                        row.client = client
                    row.updated_at = utcnow()
                    await session.flush()
                    return PlayerLanguage(row.language, row.client)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover
